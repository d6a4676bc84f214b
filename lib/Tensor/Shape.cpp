//===- Shape.cpp - Tensor shapes: element counts, protos, text ------------===//
#include "frost/Tensor/Shape.h"
#include "frost/proto/tensor.pb.h"

#include "absl/strings/str_cat.h"

namespace frost {

absl::StatusOr<int64_t> numElements(llvm::ArrayRef<int64_t> Shape) {
  int64_t N = 1;
  for (size_t D = 0; D < Shape.size(); ++D) {
    if (Shape[D] < 0)
      return absl::InvalidArgumentError(
          absl::StrCat("shape ", formatShape(Shape), " has negative dimension ", D));
    if (__builtin_mul_overflow(N, Shape[D], &N))
      return absl::InvalidArgumentError(
          absl::StrCat("shape ", formatShape(Shape), " has more than 2^63 elements"));
  }
  return N;
}

absl::StatusOr<std::vector<int64_t>> shapeFromProto(const tensorflow::TensorShapeProto &Proto) {
  if (Proto.unknown_rank())
    return absl::InvalidArgumentError("shape has unknown rank");
  std::vector<int64_t> Shape;
  Shape.reserve(Proto.dim_size());
  for (const auto &D : Proto.dim())
    Shape.push_back(D.size());
  FROST_RETURN_IF_ERROR(numElements(Shape).status());
  return Shape;
}

std::string formatShape(llvm::ArrayRef<int64_t> Shape) {
  std::string Out = "[";
  for (size_t I = 0; I < Shape.size(); ++I)
    absl::StrAppend(&Out, I ? "," : "", Shape[I]);
  Out += "]";
  return Out;
}

std::string formatPartialShape(const tensorflow::TensorShapeProto &Shape) {
  if (Shape.unknown_rank())
    return "<unknown>";
  std::string Out = "[";
  for (int I = 0; I < Shape.dim_size(); ++I) {
    int64_t D = Shape.dim(I).size();
    absl::StrAppend(&Out, I ? "," : "", D < 0 ? "?" : absl::StrCat(D));
  }
  Out += "]";
  return Out;
}

} // namespace frost
