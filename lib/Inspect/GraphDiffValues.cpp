//===- GraphDiffValues.cpp - Attribute values and tensors, compared -------===//
//
// What frost-diff says of a changed attribute: its values in a few words,
// and for tensors the number of differing elements and the largest
// difference; the hash that pairs renamed constants by value.
//
//===----------------------------------------------------------------------===//
#include "GraphDiffValues.h"

#include "frost/Inspect/ValueFormat.h"
#include "frost/Support/Escape.h"
#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"
#include "frost/Tensor/SmallFloat.h"
#include "frost/Tensor/TensorProtoCodec.h"

#include "absl/strings/str_cat.h"
#include "llvm/Support/xxhash.h"

#include <cmath>

namespace frost::inspect::detail {

//===----------------------------------------------------------------------===//
// Spelling attribute values
//===----------------------------------------------------------------------===//

/// Longest string attribute, and most list items, spelled whole.
constexpr size_t MaxSpelledString = 64;
constexpr int MaxSpelledItems = 16;
/// Tensors of at most this many elements show their values.
constexpr int64_t MaxShownElements = 8;

std::string quoted(llvm::StringRef S) {
  std::string Out = "\"" + escapeBytes(S.take_front(MaxSpelledString), '"', ByteEscape::Hex);
  if (S.size() > MaxSpelledString)
    absl::StrAppend(&Out, "...(", S.size(), " bytes)");
  return Out + "\"";
}

std::string typeAndShape(tensorflow::DataType DType, const tensorflow::TensorShapeProto &Shape) {
  return dataTypePythonName(DType) + " " + formatPartialShape(Shape);
}

template <typename Items, typename Fn> std::string spellList(const Items &L, Fn Spell) {
  std::string Out = "[";
  int I = 0;
  for (const auto &Item : L) {
    if (I == MaxSpelledItems) {
      absl::StrAppend(&Out, ", ...(", L.size(), " items)");
      break;
    }
    absl::StrAppend(&Out, I++ ? ", " : "", Spell(Item));
  }
  return Out + "]";
}

/// An attribute value in a few words: numbers, types by name ("float32"),
/// shapes ("[?,3]"), lists ("[1, 2, 2, 1]"), tensors by type ("float32 [3]").
std::string spellAttr(const tensorflow::AttrValue &V) {
  using tensorflow::AttrValue;
  switch (V.value_case()) {
  case AttrValue::kS:
    return quoted(V.s());
  case AttrValue::kI:
    return std::to_string(V.i());
  case AttrValue::kF:
    return formatFloat(V.f(), Style::Text);
  case AttrValue::kB:
    return V.b() ? "true" : "false";
  case AttrValue::kType:
    return dataTypePythonName(V.type());
  case AttrValue::kShape:
    return formatPartialShape(V.shape());
  case AttrValue::kTensor:
    return typeAndShape(V.tensor().dtype(), V.tensor().tensor_shape());
  case AttrValue::kFunc:
    return V.func().name() + (V.func().attr().empty() ? "" : "{...}");
  case AttrValue::kPlaceholder:
    return "$" + V.placeholder();
  case AttrValue::kList: {
    const auto &L = V.list();
    if (L.s_size())
      return spellList(L.s(), [](const std::string &S) { return quoted(S); });
    if (L.i_size())
      return spellList(L.i(), [](int64_t I) { return std::to_string(I); });
    if (L.f_size())
      return spellList(L.f(), [](float F) { return formatFloat(F, Style::Text); });
    if (L.b_size())
      return spellList(L.b(), [](bool B) { return std::string(B ? "true" : "false"); });
    if (L.type_size())
      return spellList(L.type(), [](int T) {
        return dataTypePythonName(static_cast<tensorflow::DataType>(T));
      });
    if (L.shape_size())
      return spellList(L.shape(), [](const auto &S) { return formatPartialShape(S); });
    if (L.tensor_size())
      return spellList(L.tensor(), [](const auto &T) {
        return typeAndShape(T.dtype(), T.tensor_shape());
      });
    if (L.func_size())
      return spellList(L.func(), [](const auto &F) { return F.name(); });
    return "[]";
  }
  case AttrValue::VALUE_NOT_SET:
    break;
  }
  return "<unset>";
}

//===----------------------------------------------------------------------===//
// Tensor values
//===----------------------------------------------------------------------===//

/// "[1, 2.5]" (a scalar bare), or "" when the tensor is too big to show or
/// its elements cannot be spelled.
std::string shownValues(const TensorData &T) {
  if (T.numElements() > MaxShownElements)
    return "";
  ElementFormatter F(T.dtype(), T.bytes(), T.elements(), Style::Text);
  F.truncateStrings(16);
  if (!F.supported())
    return "";
  if (T.shape().empty() && T.numElements() == 1)
    return F(0);
  std::string Out = "[";
  for (int64_t I = 0; I < T.numElements(); ++I)
    absl::StrAppend(&Out, I ? ", " : "", F(static_cast<uint64_t>(I)));
  return Out + "]";
}

/// Compares two tensors; true when they differ (beyond `Atol`), filling D.
bool compareTensors(const TensorData &A, const TensorData &B, double Atol, ValueDiff &D) {
  D.TypeA = dataTypePythonName(A.dtype()) + " " + formatShape(A.shape());
  D.TypeB = dataTypePythonName(B.dtype()) + " " + formatShape(B.shape());
  if (A.dtype() != B.dtype() || A.shape() != B.shape())
    return true;
  D.Elements = static_cast<uint64_t>(A.numElements());
  if (!A.isFixedSize()) {
    for (auto [X, Y] : llvm::zip(A.elements(), B.elements()))
      D.Differing += X != Y;
  } else if (A.bytes() != B.bytes()) {
    size_t Size = dataTypeSize(A.dtype());
    long double Max = 0;
    bool Numbers = true;
    for (int64_t I = 0; I < A.numElements(); ++I) {
      if (A.bytes().substr(I * Size, Size) == B.bytes().substr(I * Size, Size))
        continue;
      long double ImA, ImB;
      std::optional<long double> X = elementAsNumber(A, I, ImA), Y = elementAsNumber(B, I, ImB);
      if (!X || !Y) {
        Numbers = false;
        ++D.Differing;
        continue;
      }
      bool BothNaN = (std::isnan(*X) || std::isnan(ImA)) && (std::isnan(*Y) || std::isnan(ImB));
      if ((*X == *Y && ImA == ImB) || BothNaN)
        continue;
      long double Diff = std::hypot(*X - *Y, ImA - ImB);
      if (Diff <= Atol)
        continue;
      ++D.Differing;
      if (std::isnan(Diff) || std::isnan(Max))
        Max = Diff;
      else
        Max = std::max(Max, Diff);
    }
    if (Numbers && D.Differing)
      D.MaxAbsDiff = static_cast<double>(Max);
    D.OnlyBits = D.Differing == 0 && Atol == 0;
  }
  if (!D.Differing && !D.OnlyBits)
    return false;
  D.ValuesA = shownValues(A);
  D.ValuesB = shownValues(B);
  return true;
}

/// Hash of what a tensor holds.
llvm::hash_code hashTensor(const TensorData &T) {
  llvm::hash_code H = llvm::hash_combine(T.dtype(), llvm::hash_combine_range(T.shape().begin(),
                                                                             T.shape().end()));
  if (T.isFixedSize())
    return llvm::hash_combine(H, llvm::xxh3_64bits(T.bytes()));
  for (const std::string &E : T.elements())
    H = llvm::hash_combine(H, llvm::xxh3_64bits(E));
  return H;
}

} // namespace frost::inspect::detail
