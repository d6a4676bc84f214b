//===- ValueFormat.h - Tensor values, numpy-like or exact JSON --*- C++ -*-===//
//
// How frost-inspect spells tensor elements and arrays: numpy-like for people,
// exact for JSON readers. Works on raw little-endian bytes or byte strings,
// as a CheckpointReader returns them; knows nothing of graphs or files.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_INSPECT_VALUEFORMAT_H
#define FROST_INSPECT_VALUEFORMAT_H

#include "frost/Support/Json.h"
#include "frost/proto/types.pb.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace frost::inspect {

/// "1 shard", "2 shards".
std::string plural(uint64_t N, llvm::StringRef Noun);

/// How to spell an element: for people (numpy-like) or for JSON (exact).
enum class Style { Text, Json };

/// Formats element `I` of a tensor of `DType` held as raw little-endian bytes
/// (fixed-size dtypes) or as byte strings (DT_STRING).
class ElementFormatter {
public:
  ElementFormatter(tensorflow::DataType DType, llvm::StringRef Bytes,
                   llvm::ArrayRef<std::string> Strings, Style S)
      : DType(DType), Bytes(Bytes), Strings(Strings), S(S) {}

  /// False for dtypes whose values cannot be shown (variant, resource, ...).
  bool supported() const;
  std::string operator()(uint64_t I) const;
  /// Text style: numbers are right-aligned to a common width, strings not.
  bool padded() const;
  /// Text style: show only the first `N` bytes of longer strings (0 = all).
  void truncateStrings(size_t N) { MaxStringBytes = N; }

private:
  tensorflow::DataType DType;
  llvm::StringRef Bytes;
  llvm::ArrayRef<std::string> Strings;
  Style S;
  size_t MaxStringBytes = 0;
};

/// Float formatting. Text: the shortest digits that identify the value in its
/// own type, numpy style ("2.", "0.5", "nan"). Json: exact for a reader that
/// parses a double and rounds it to the element type: float64 and float32 the
/// shortest digits that survive that (float32 falls back to the exact value
/// where double rounding would bite); 16- and 8-bit floats their exact value;
/// always with a "." or exponent; non-finite values as the strings "nan",
/// "inf", "-inf".
std::string formatFloat(float V, Style S);
std::string formatDouble(double V, Style S);

/// Prints a tensor numpy-style: nested brackets, one innermost row per line.
/// With `Summarize`, dimensions longer than 2 * EdgeItems show their first
/// and last EdgeItems entries around "..." (numpy's threshold: only tensors
/// of more than 1000 elements are summarised; the caller decides).
void printArray(llvm::raw_ostream &OS, llvm::ArrayRef<int64_t> Shape,
                llvm::function_ref<std::string(uint64_t)> Element, bool Pad,
                bool Summarize, unsigned EdgeItems = 3);

/// Writes the elements as nested JSON arrays (a bare value for rank 0).
void writeJsonArray(JsonWriter &J, llvm::ArrayRef<int64_t> Shape,
                    llvm::function_ref<std::string(uint64_t)> Element);

/// numpy's default print threshold.
inline constexpr uint64_t SummarizeThreshold = 1000;

} // namespace frost::inspect

#endif // FROST_INSPECT_VALUEFORMAT_H
