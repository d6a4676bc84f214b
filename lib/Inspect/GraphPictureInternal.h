//===- GraphPictureInternal.h - What the DOT and HTML printers share -*- C++ -*-===//
//
// The Picture a panel is reduced to, the colours and the text spellings,
// shared by GraphPicture.cpp (op kinds, the Picture, DOT) and
// GraphPictureHtml.cpp (the page).
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_INSPECT_GRAPHPICTUREINTERNAL_H
#define FROST_LIB_INSPECT_GRAPHPICTUREINTERNAL_H

#include "frost/IR/Graph.h"
#include "frost/Inspect/GraphPicture.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace frost::inspect::picture {

inline constexpr size_t NumOpKinds = 8;

/// Fill colours by OpKind (the legend's swatches and the tests' pixels).
inline constexpr const char *KindColours[NumOpKinds] = {
    "#ffd166", // input
    "#cfd8dc", // constant
    "#f4a261", // variable
    "#a8dadc", // math
    "#b8a9f5", // neural net
    "#f7a8c4", // control flow
    "#b7e4a0", // array
    "#eeeeee", // other
};

inline constexpr const char *PathColour = "#1d4ed8";

/// How a mark is drawn: CSS class, legend and details word, outline colour.
struct MarkStyle {
  const char *Class, *Name, *Colour;
};
const MarkStyle &markStyle(NodeMark M);

/// Valid UTF-8 as it is; control characters, DEL and bytes that are not
/// UTF-8 as "\xNN", so every name can be shown and told apart.
std::string displayText(llvm::StringRef Bytes);
/// Characters (code points) of valid UTF-8.
size_t numChars(llvm::StringRef Utf8);
/// Valid UTF-8 cut to its last `Max` characters behind an ellipsis.
std::string keepTail(llvm::StringRef Utf8, size_t Max);
/// Text safe in HTML.
std::string htmlText(llvm::StringRef Bytes);
/// A JSON string safe inside <script>: '<', '>' and '&' as \u escapes.
std::string jsonText(llvm::StringRef Bytes);

//===----------------------------------------------------------------------===//
// The picture both printers read
//===----------------------------------------------------------------------===//

struct PictureNode {
  const Node *N;
  OpKind Kind;
  NodeMark Mark = NodeMark::None;
  bool OnPath = false;
  /// "float32 [3,3] 36 bytes" for a Const.
  std::string ConstText;
};

struct PictureEdge {
  unsigned From, To;
  int Port;
  bool OnPath;
};

struct Picture {
  std::vector<PictureNode> Nodes;
  std::vector<PictureEdge> Edges;
  std::vector<bool> IsInput; // by picture index
  size_t NumOnPath = 0;
  int NumFunctions = 0;
};

Picture buildPicture(const GraphPanel &P);
/// "only the main graph is drawn, ..." when the library has functions.
std::string functionsNote(int NumFunctions);

} // namespace frost::inspect::picture

#endif // FROST_LIB_INSPECT_GRAPHPICTUREINTERNAL_H
