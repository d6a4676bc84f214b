//===- FunctionRetyper.h - Retyping functions a variable reaches -*- C++ -*-===//
//
// What convert_to_constants' _Function and _FunctionCaller do when a frozen
// variable is passed to a function call (If, Case, While,
// (Stateful)PartitionedCall): the caller's type attribute and the called
// functions' argument take the value dtype, and the conversion goes on
// through the bodies. Used by convert-variables-to-constants.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TRANSFORMS_UTILS_FUNCTIONRETYPER_H
#define FROST_TRANSFORMS_UTILS_FUNCTIONRETYPER_H

#include "frost/IR/Graph.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace frost {

/// The ops that call library functions, as convert_to_constants sees them:
/// inputs from `First` on are the functions' arguments, typed by `TypeAttr`.
struct CallerKind {
  unsigned First;
  const char *TypeAttr;
  std::vector<const char *> FuncAttrs;
  bool IsWhile = false;
};

/// The caller kind of `Op`, or none when it calls no function.
std::optional<CallerKind> callerKind(llvm::StringRef Op);

/// Ops a variable's value passes through unchanged (retyped, not rewritten).
bool isIntermediate(llvm::StringRef Op);

/// Retypes function arguments that receive a converted variable, like
/// convert_to_constants' _Function and _FunctionCaller: the function is
/// renamed (`<base>_frozen_<n>`; a function still called elsewhere with a
/// resource keeps its original too), its argument gets the value dtype and
/// unknown shape attributes, and the conversion continues through its body
/// (ReadVariableOp -> Identity with `:value` uses renamed `:output`,
/// Identity-like nodes retyped, nested callers). ResourceGather inside a
/// function is left alone, as TensorFlow does.
class FunctionRetyper {
public:
  explicit FunctionRetyper(Graph &G) : G(G) {}

  /// `Attrs` are those of a caller of kind `Kind` whose input `Index` now
  /// carries a value of `DT` and `Shape`.
  template <typename AttrMapT>
  void convertCaller(const CallerKind &Kind, AttrMapT &Attrs, unsigned Index, tensorflow::DataType DT,
                     llvm::ArrayRef<int64_t> Shape);

  /// Puts back originals of renamed functions that something still calls.
  void finish();

  unsigned numConverted() const { return Originals.size(); }

private:
  struct Body {
    /// Consumers (node, input) of each argument and of each node's outputs.
    std::map<int, std::vector<std::pair<int, int>>> FromArg, FromNode;
  };

  tensorflow::FunctionDefLibrary &library() {
    return *G.mutableOtherFields().mutable_library();
  }
  /// Index in the library of the function first named `Original`, or -1.
  int indexOf(llvm::StringRef Original);
  /// The original name of a function renamed by this pass, else `Name`.
  std::string originalOf(const std::string &Name) const {
    for (const auto &[Original, New] : NewNames)
      if (New == Name && Originals.count(Original))
        return Original;
    return Name;
  }
  /// The renamed copy of `Original` to edit (renamed on first use).
  tensorflow::FunctionDef &converted(const std::string &Original);
  const Body &bodyOf(const std::string &Original);
  void convertArg(const std::string &Original, int Arg, tensorflow::DataType DT,
                  llvm::ArrayRef<int64_t> Shape);
  void convertBodyUse(const std::string &Original, int NodeIndex, int InputIndex, tensorflow::DataType DT,
                      llvm::ArrayRef<int64_t> Shape);
  template <typename AttrMapT> void renameCalls(AttrMapT &Attrs);

  Graph &G;
  std::map<std::string, int, std::less<>> Index;      // original name -> library index
  std::map<std::string, std::string, std::less<>> NewNames;
  std::map<std::string, tensorflow::FunctionDef, std::less<>> Originals;
  std::map<std::string, Body, std::less<>> Bodies;
};

} // namespace frost

#endif // FROST_TRANSFORMS_UTILS_FUNCTIONRETYPER_H
