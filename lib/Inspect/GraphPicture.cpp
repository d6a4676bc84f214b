//===- GraphPicture.cpp - A graph drawn: Graphviz DOT or one HTML page ----===//
//
// A panel is first reduced to a Picture (nodes in graph order with kind, mark,
// path and label lines; edges with port and style), which both printers
// read. The HTML page lays the picture out itself (GraphLayout) and carries
// its style and script inline, so it opens offline and its bytes depend on
// the panels only.
//
//===----------------------------------------------------------------------===//
#include "frost/Inspect/GraphPicture.h"

#include "GraphPictureInternal.h"

#include "frost/Inspect/GraphLayout.h"
#include "frost/Inspect/ValueFormat.h"
#include "frost/IR/CandidateOutputs.h"
#include "frost/IR/Graph.h"
#include "frost/IR/OpClasses.h"
#include "frost/Support/File.h"
#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <optional>

namespace frost::inspect {

using namespace picture;

//===----------------------------------------------------------------------===//
// Op kinds
//===----------------------------------------------------------------------===//

namespace {

bool isNeuralNetOp(llvm::StringRef Op) {
  if (Op.starts_with("Conv") || Op.contains("Conv2D") || Op.contains("Conv3D") ||
      Op.starts_with("Depthwise") || Op.contains("BatchNorm") || Op.contains("Pool") ||
      Op.starts_with("_Fused") || Op.starts_with("Resize") || Op.contains("MatMul") ||
      Op.starts_with("Quantized"))
    return true;
  return llvm::StringSwitch<bool>(Op)
      .Cases("Relu", "Relu6", "Elu", "Selu", "LeakyRelu", "Gelu", true)
      .Cases("Softmax", "LogSoftmax", "Softplus", "Softsign", "BiasAdd", "BiasAddV1", true)
      .Cases("LRN", "Dilation2D", "CropAndResize", "Dropout", "Einsum", true)
      .Default(false);
}

bool isArrayOp(llvm::StringRef Op) {
  if (Op.starts_with("Concat") || Op.starts_with("Split") || Op.starts_with("Gather") ||
      Op.starts_with("Scatter") || Op.starts_with("Pad") || Op.starts_with("MirrorPad") ||
      Op.starts_with("Reverse") || Op.starts_with("MatrixDiag") ||
      Op.starts_with("MatrixSetDiag") || Op.starts_with("Dynamic"))
    return true;
  return llvm::StringSwitch<bool>(Op)
      .Cases("Reshape", "Shape", "ShapeN", "Size", "Rank", "Squeeze", "ExpandDims", true)
      .Cases("Pack", "Unpack", "Slice", "StridedSlice", "Transpose", "Tile", "Fill", true)
      .Cases("ZerosLike", "OnesLike", "Identity", "IdentityN", "StopGradient", true)
      .Cases("PreventGradient", "Snapshot", "Range", "BroadcastTo", "BroadcastArgs", true)
      .Cases("Where", "OneHot", "SpaceToBatchND", "BatchToSpaceND", "SpaceToBatch", true)
      .Cases("BatchToSpace", "DepthToSpace", "SpaceToDepth", "Bitcast", "Unique", true)
      .Cases("ListDiff", "InvertPermutation", "EnsureShape", "Empty", "TopKV2", true)
      .Default(false);
}

bool isMathOp(llvm::StringRef Op) {
  return llvm::StringSwitch<bool>(Op)
      .Cases("Add", "AddV2", "AddN", "Sub", "Mul", "Div", "RealDiv", "DivNoNan", true)
      .Cases("FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod", "Mod", "Maximum", true)
      .Cases("Minimum", "Pow", "Sqrt", "Rsqrt", "Exp", "Expm1", "Log", "Log1p", "Neg", true)
      .Cases("Abs", "Square", "SquaredDifference", "Mean", "Sum", "Max", "Min", "Prod", true)
      .Cases("All", "Any", "ArgMax", "ArgMin", "Equal", "NotEqual", "Less", "LessEqual", true)
      .Cases("Greater", "GreaterEqual", "LogicalAnd", "LogicalOr", "LogicalNot", true)
      .Cases("Tanh", "Sigmoid", "Cast", "Floor", "Ceil", "Round", "Rint", "Sign", true)
      .Cases("Reciprocal", "Inv", "Erf", "Erfc", "Cumsum", "Cumprod", "Select", true)
      .Cases("SelectV2", "Sin", "Cos", "Tan", "Atan", "Atan2", "Asin", "Acos", true)
      .Cases("IsNan", "IsInf", "IsFinite", "ClipByValue", "MulNoNan", "Xdivy", "Xlogy", true)
      .Cases("BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift", true)
      .Cases("Invert", "L2Loss", "Sinh", "Cosh", true)
      .Default(false);
}

} // namespace

OpKind opKind(llvm::StringRef Op) {
  if (isPlaceholderOp(Op) || Op == "PlaceholderV2" || Op == "_Arg" || Op == "IteratorGetNext")
    return OpKind::Input;
  if (Op == "Const" || Op == "HostConst")
    return OpKind::Constant;
  if (isStateOp(Op) || isAssignOp(Op) || isTableInitializerOp(Op) || isSaveRestoreOp(Op) ||
      Op == "ReadVariableOp" || Op == "VarIsInitializedOp" || Op == "IsVariableInitialized" ||
      Op.starts_with("LookupTable") || Op.starts_with("ResourceApply") ||
      Op.starts_with("Apply"))
    return OpKind::Variable;
  if (isSwitchOp(Op) || isMergeOp(Op) || isNextIterationOp(Op) || isIfOp(Op) || isCaseOp(Op) ||
      isWhileOp(Op) || isPartitionedCallOp(Op) || Op == "Enter" || Op == "RefEnter" ||
      Op == "Exit" || Op == "RefExit" || Op == "LoopCond" || Op == "NoOp" ||
      Op == "ControlTrigger" || Op == "Assert" || Op == "_Retval")
    return OpKind::ControlFlow;
  if (isNeuralNetOp(Op))
    return OpKind::NeuralNet;
  if (isArrayOp(Op))
    return OpKind::Array;
  if (isMathOp(Op))
    return OpKind::Math;
  return OpKind::Other;
}

llvm::StringRef opKindName(OpKind Kind) {
  static const char *const Names[NumOpKinds] = {
      "input", "constant", "variable", "math", "neural net", "control flow", "array", "other"};
  return Names[static_cast<size_t>(Kind)];
}

//===----------------------------------------------------------------------===//
// Text: arbitrary bytes made printable, then quoted for DOT, HTML or JSON
//===----------------------------------------------------------------------===//

namespace picture {

const MarkStyle &markStyle(NodeMark M) {
  static const MarkStyle Styles[] = {{"", "", ""},
                                     {"ma", "added", "#16a34a"},
                                     {"mr", "removed", "#dc2626"},
                                     {"mc", "changed", "#c026d3"}};
  return Styles[static_cast<size_t>(M)];
}

/// Valid UTF-8 as it is; control characters, DEL and bytes that are not
/// UTF-8 as "\xNN", so every name can be shown and told apart.
std::string displayText(llvm::StringRef Bytes) {
  std::string Out;
  Out.reserve(Bytes.size());
  const auto *P = reinterpret_cast<const llvm::UTF8 *>(Bytes.data());
  const auto *End = P + Bytes.size();
  while (P < End) {
    unsigned char C = *P;
    if (C >= 0x20 && C < 0x7f) {
      Out += static_cast<char>(C);
      ++P;
      continue;
    }
    if (C >= 0x80) {
      unsigned Len = llvm::getNumBytesForUTF8(C);
      if (Len <= static_cast<size_t>(End - P) && llvm::isLegalUTF8Sequence(P, P + Len)) {
        Out.append(reinterpret_cast<const char *>(P), Len);
        P += Len;
        continue;
      }
    }
    char Buf[8];
    std::snprintf(Buf, sizeof(Buf), "\\x%02x", C);
    Out += Buf;
    ++P;
  }
  return Out;
}

/// Characters (code points) of valid UTF-8.
size_t numChars(llvm::StringRef Utf8) {
  return llvm::count_if(Utf8, [](char C) { return (static_cast<unsigned char>(C) & 0xc0) != 0x80; });
}

/// Valid UTF-8 cut to its last `Max` characters behind an ellipsis.
std::string keepTail(llvm::StringRef Utf8, size_t Max) {
  size_t Chars = numChars(Utf8);
  if (Chars <= Max)
    return Utf8.str();
  size_t Skip = Chars - (Max - 1), I = 0;
  for (; I < Utf8.size(); ++I)
    if ((static_cast<unsigned char>(Utf8[I]) & 0xc0) != 0x80 && Skip-- == 0)
      break;
  return "\u2026" + Utf8.drop_front(I).str();
}

/// displayText(Bytes) with each character that `Spell` spells (non-null)
/// replaced by its spelling.
std::string respell(llvm::StringRef Bytes, const char *(*Spell)(char)) {
  std::string Out;
  for (char C : displayText(Bytes)) {
    if (const char *S = Spell(C))
      Out += S;
    else
      Out += C;
  }
  return Out;
}

/// For a DOT quoted string (escString in labels): backslash and quote; the
/// lines joined by "\n".
std::string dotQuote(llvm::ArrayRef<std::string> Lines) {
  std::string Out = "\"";
  for (size_t I = 0; I < Lines.size(); ++I)
    Out += (I ? "\\n" : "") + respell(Lines[I], [](char C) -> const char * {
             return C == '\\' ? "\\\\" : C == '"' ? "\\\"" : nullptr;
           });
  return Out + "\"";
}

std::string htmlText(llvm::StringRef Bytes) {
  return respell(Bytes, [](char C) -> const char * {
    switch (C) {
    case '&':
      return "&amp;";
    case '<':
      return "&lt;";
    case '>':
      return "&gt;";
    case '"':
      return "&quot;";
    case '\'':
      return "&#39;";
    default:
      return nullptr;
    }
  });
}

/// A JSON string safe inside <script>: '<', '>' and '&' as \u escapes.
std::string jsonText(llvm::StringRef Bytes) {
  return "\"" + respell(Bytes, [](char C) -> const char * {
           switch (C) {
           case '"':
             return "\\\"";
           case '\\':
             return "\\\\";
           case '<':
             return "\\u003c";
           case '>':
             return "\\u003e";
           case '&':
             return "\\u0026";
           default:
             return nullptr;
           }
         }) + "\"";
}


//===----------------------------------------------------------------------===//
// The picture both printers read
//===----------------------------------------------------------------------===//

const Node *findNamed(const Graph &G, llvm::StringRef Name) {
  if (const Node *N = G.findNode(Name))
    return N;
  Name.consume_front("^");
  auto [Base, Port] = Name.rsplit(':');
  if (!Port.empty() && llvm::all_of(Port, llvm::isDigit))
    return G.findNode(Base);
  return G.findNode(Name);
}

std::string constText(const Node &N) {
  const tensorflow::AttrValue *A = N.findAttr("value");
  if (!A || !A->has_tensor())
    return "";
  const tensorflow::TensorProto &T = A->tensor();
  std::string Text =
      dataTypePythonName(T.dtype()) + " " + formatPartialShape(T.tensor_shape());
  std::optional<uint64_t> Bytes;
  if (const ExternalContent *C = N.externalContent("value")) {
    Bytes = C->Bytes.size();
  } else if (!T.tensor_content().empty()) {
    Bytes = T.tensor_content().size();
  } else if (T.dtype() == tensorflow::DT_STRING) {
    uint64_t Sum = 0;
    for (const std::string &S : T.string_val())
      Sum += S.size();
    Bytes = Sum;
  } else if (absl::StatusOr<std::vector<int64_t>> Dims = shapeFromProto(T.tensor_shape());
             Dims.ok() && dataTypeSize(T.dtype())) {
    absl::StatusOr<int64_t> Count = numElements(*Dims);
    uint64_t Product;
    if (Count.ok() &&
        !__builtin_mul_overflow(static_cast<uint64_t>(*Count), dataTypeSize(T.dtype()), &Product))
      Bytes = Product;
  }
  if (Bytes)
    Text += " " + formatBytes(*Bytes);
  return Text;
}

/// The nodes data edges lead to from `Starts` (forward: readers, else
/// producers), `Starts` included; by picture index.
std::vector<bool> dataReach(llvm::ArrayRef<const Node *> Starts, bool Forward,
                            llvm::ArrayRef<unsigned> IndexOf) {
  std::vector<bool> Seen(IndexOf.size(), false);
  std::vector<const Node *> Work;
  auto visit = [&](const Node *N) {
    if (!Seen[IndexOf[N->id()]]) {
      Seen[IndexOf[N->id()]] = true;
      Work.push_back(N);
    }
  };
  for (const Node *N : Starts)
    visit(N);
  while (!Work.empty()) {
    const Node *N = Work.back();
    Work.pop_back();
    if (Forward) {
      for (const Use &U : N->uses())
        if (!U.User->input(U.InputIndex).isControl())
          visit(U.User);
    } else {
      for (const Input &In : N->dataInputs())
        visit(In.Src);
    }
  }
  return Seen;
}

Picture buildPicture(const GraphPanel &P) {
  assert(P.G && "a panel without a graph");
  const Graph &G = *P.G;
  Picture Pic;
  Pic.NumFunctions = G.library().function_size();
  std::vector<unsigned> IndexOf(G.idBound(), 0);
  for (const Node &N : G) {
    IndexOf[N.id()] = Pic.Nodes.size();
    PictureNode PN{&N, opKind(N.op()), NodeMark::None, false, ""};
    if (auto It = P.Marks.find(N.name()); It != P.Marks.end())
      PN.Mark = It->second;
    if (N.op() == "Const")
      PN.ConstText = constText(N);
    Pic.Nodes.push_back(std::move(PN));
  }

  // The nodes on a data path from an input to an output.
  std::vector<const Node *> Inputs, Outputs;
  for (const std::string &Name : P.Inputs)
    if (const Node *N = findNamed(G, Name))
      Inputs.push_back(N);
  if (P.Inputs.empty())
    for (const Node &N : G)
      if (isPlaceholderOp(N.op()) && !isSaverScope(N.name()))
        Inputs.push_back(&N);
  for (const std::string &Name : P.Outputs)
    if (const Node *N = findNamed(G, Name))
      Outputs.push_back(N);
  if (P.Outputs.empty())
    Outputs = candidateOutputNodes(G);
  size_t NumNodes = Pic.Nodes.size();
  Pic.IsInput.assign(NumNodes, false);
  for (const Node *N : Inputs)
    Pic.IsInput[IndexOf[N->id()]] = true;
  std::vector<bool> FromInput = dataReach(Inputs, /*Forward=*/true, IndexOf);
  std::vector<bool> ToOutput = dataReach(Outputs, /*Forward=*/false, IndexOf);
  for (size_t I = 0; I < NumNodes; ++I) {
    Pic.Nodes[I].OnPath = FromInput[I] && ToOutput[I];
    Pic.NumOnPath += Pic.Nodes[I].OnPath;
  }

  for (size_t I = 0; I < NumNodes; ++I)
    for (const Input &In : Pic.Nodes[I].N->inputs()) {
      unsigned From = IndexOf[In.Src->id()];
      bool OnPath = !In.isControl() && FromInput[From] && ToOutput[I];
      Pic.Edges.push_back({From, static_cast<unsigned>(I), In.Port, OnPath});
    }
  return Pic;
}

std::string functionsNote(int NumFunctions) {
  if (!NumFunctions)
    return "";
  return "only the main graph is drawn, not the library's " + plural(NumFunctions, "function");
}

} // namespace picture

//===----------------------------------------------------------------------===//
// DOT
//===----------------------------------------------------------------------===//

std::string graphDot(const GraphPanel &P) {
  Picture Pic = buildPicture(P);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "digraph " << dotQuote({P.Title}) << " {\n"
     << "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=11";
  if (Pic.NumFunctions)
    OS << ", labelloc=t, label=" << dotQuote({functionsNote(Pic.NumFunctions)});
  OS << "];\n"
     << "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10, "
        "color=\"#555555\"];\n"
     << "  edge [color=\"#888888\", arrowsize=0.6, fontname=\"Helvetica\", fontsize=9];\n";
  for (size_t I = 0; I < Pic.Nodes.size(); ++I) {
    const PictureNode &PN = Pic.Nodes[I];
    std::vector<std::string> Label = {PN.N->op().str(), PN.N->name().str()};
    if (!PN.ConstText.empty())
      Label.push_back(PN.ConstText);
    OS << "  n" << I << " [label=" << dotQuote(Label) << ", fillcolor=\""
       << KindColours[static_cast<size_t>(PN.Kind)] << "\"";
    if (PN.Mark != NodeMark::None)
      OS << ", color=\"" << markStyle(PN.Mark).Colour << "\", penwidth=3";
    else if (PN.OnPath)
      OS << ", color=\"" << PathColour << "\", penwidth=2";
    OS << "];\n";
  }
  for (const PictureEdge &E : Pic.Edges) {
    OS << "  n" << E.From << " -> n" << E.To;
    llvm::SmallVector<std::string, 3> Attrs;
    if (E.Port == ControlPort)
      Attrs.push_back("style=dashed");
    else if (E.Port > 0)
      Attrs.push_back("label=\":" + std::to_string(E.Port) + "\"");
    if (E.OnPath)
      Attrs.push_back(std::string("color=\"") + PathColour + "\", penwidth=1.6");
    if (!Attrs.empty())
      OS << " [" << llvm::join(Attrs, ", ") << "]";
    OS << ";\n";
  }
  OS << "}\n";
  return Out;
}

} // namespace frost::inspect
