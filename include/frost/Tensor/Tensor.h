//===- Tensor.h - Tensor values: views and owned tensors --------*- C++ -*-===//
//
// TensorData is a dtype, a shape and the elements: for fixed-size dtypes the
// raw little-endian bytes (TensorProto.tensor_content layout), for DT_STRING
// the strings, for DT_VARIANT each element's serialized VariantTensorDataProto.
// A borrowed tensor's bytes point into memory another object owns (e.g. a
// mapped checkpoint shard), which the TensorData keeps alive: a frozen Const
// can refer to them until it is serialized. Copies are cheap (shared storage).
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TENSOR_TENSOR_H
#define FROST_TENSOR_TENSOR_H

#include "frost/Support/Status.h"
#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cassert>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tensorflow {
class TensorProto;
} // namespace tensorflow

namespace frost {

class TensorData {
public:
  TensorData() = default;

  /// Fixed-size elements that live in memory kept alive by `Keeper` (e.g. a
  /// mapped checkpoint shard). `Bytes` must hold exactly numElements * size.
  static TensorData borrowed(tensorflow::DataType DType, std::vector<int64_t> Shape,
                             llvm::StringRef Bytes, std::shared_ptr<const void> Keeper);
  /// Fixed-size elements in a buffer the tensor owns.
  static TensorData owned(tensorflow::DataType DType, std::vector<int64_t> Shape,
                          std::string Bytes);
  /// DT_STRING elements, or DT_VARIANT serialized VariantTensorDataProtos.
  static TensorData strings(tensorflow::DataType DType, std::vector<int64_t> Shape,
                            std::vector<std::string> Elements);

  tensorflow::DataType dtype() const { return DType; }
  llvm::ArrayRef<int64_t> shape() const { return Shape; }
  int64_t numElements() const { return NumElements; }
  bool isFixedSize() const { return isFixedSizeDataType(DType); }

  /// Raw little-endian element bytes (fixed-size dtypes; empty otherwise).
  llvm::StringRef bytes() const { return Bytes; }
  /// True when bytes() points into memory owned elsewhere (no copy made).
  bool isBorrowed() const { return Borrowed; }
  /// Whatever keeps bytes() alive; hold it to keep a view past this object.
  const std::shared_ptr<const void> &keeper() const { return Keeper; }

  /// DT_STRING / DT_VARIANT elements (empty for fixed-size dtypes).
  llvm::ArrayRef<std::string> elements() const {
    return Strings ? llvm::ArrayRef<std::string>(*Strings) : llvm::ArrayRef<std::string>();
  }

  /// Element `I` of a fixed-size tensor as `T` (sizeof(T) must equal the
  /// element size). Unaligned-safe.
  template <typename T> T element(int64_t I) const {
    assert(sizeof(T) == dataTypeSize(DType) && I >= 0 && I < NumElements);
    T V;
    std::memcpy(&V, Bytes.data() + I * sizeof(T), sizeof(T));
    return V;
  }
  /// All elements as `T` (a copy).
  template <typename T> std::vector<T> values() const {
    assert(sizeof(T) == dataTypeSize(DType));
    std::vector<T> Out(static_cast<size_t>(NumElements));
    if (!Out.empty())
      std::memcpy(Out.data(), Bytes.data(), Out.size() * sizeof(T));
    return Out;
  }

  /// Fills dtype, tensor_shape and tensor_content (fixed-size), string_val
  /// (string) or variant_val (variant). Clears `Proto` first.
  absl::Status toTensorProto(tensorflow::TensorProto &Proto) const;

private:
  tensorflow::DataType DType = tensorflow::DT_INVALID;
  std::vector<int64_t> Shape;
  int64_t NumElements = 0;
  llvm::StringRef Bytes;
  bool Borrowed = false;
  std::shared_ptr<const void> Keeper;
  std::shared_ptr<const std::vector<std::string>> Strings;
};

/// Element `I` of `T` as a number (complex: its real part, `Imag` the
/// imaginary one; quantized as their integers; 8-bit floats decoded), or
/// nullopt for dtypes whose elements are no numbers (strings, variants).
std::optional<long double> elementAsNumber(const TensorData &T, int64_t I, long double &Imag);

/// The part of `Full` that starts at `Start` and has shape `Size` (both of
/// its rank, inside its shape). A part that is one contiguous range of `Full`
/// (e.g. rows of a partition along the first axis) is a view sharing its
/// storage; other parts are copied a row at a time.
absl::StatusOr<TensorData> sliceTensor(const TensorData &Full, llvm::ArrayRef<int64_t> Start,
                                       std::vector<int64_t> Size);

} // namespace frost

#endif // FROST_TENSOR_TENSOR_H
