//===- TensorProtoCodec.h - TensorData <-> TensorProto ----------*- C++ -*-===//
//
// Reading a TensorProto as TensorFlow does, and writing one the two ways
// TensorFlow's Python and Grappler spell a value:
//  - make_tensor_proto: tensor_content for more than one element of most
//    numeric dtypes, the typed *_val field otherwise;
//  - Grappler's constant folding: a splat (all elements equal) is one value in
//    the typed field, or none when that value is all zero bits.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TENSOR_TENSORPROTOCODEC_H
#define FROST_TENSOR_TENSORPROTOCODEC_H

#include "frost/Tensor/Tensor.h"

namespace frost {

/// Decodes a TensorProto the way TensorFlow does: tensor_content (raw,
/// little-endian) wins if non-empty; else the typed field (float_val,
/// half_val, ...), where fewer values than elements repeat the last one and no
/// values mean zeros. With `Exact`, the typed field must hold exactly one value
/// per element (V1 checkpoint slices). `Where` prefixes error messages.
absl::StatusOr<TensorData> decodeTensorProto(const tensorflow::TensorProto &Proto,
                                             llvm::StringRef Where, bool Exact = false);

/// Decodes the values of `Proto` as a tensor of `DType` and `Shape` (which the
/// caller validated), ignoring the proto's own dtype and shape fields.
absl::StatusOr<TensorData> decodeTensorValues(tensorflow::DataType DType,
                                              std::vector<int64_t> Shape,
                                              const tensorflow::TensorProto &Proto,
                                              llvm::StringRef Where, bool Exact);

/// Whether make_tensor_proto stores `T` in tensor_content: more than one
/// element of a dtype in tensor_util._TENSOR_CONTENT_TYPES. Callers that can
/// refer to the bytes in place instead of copying them ask this first.
bool makeTensorProtoUsesContent(const TensorData &T);

/// Writes `T` into `Proto` as make_tensor_proto(value, dtype, shape) would
/// (variant tensors, which it cannot build, as their serialized elements).
/// Unimplemented for dtypes a TensorProto cannot hold.
absl::Status makeTensorProto(const TensorData &T, tensorflow::TensorProto &Proto);

/// Whether Grappler re-spells Const values of `DType` (numbers, bool,
/// half/bfloat16, complex; not strings, sub-byte integers or float8).
bool hasSplatForm(tensorflow::DataType DType);
/// Grappler's spelling of a splat: appends `Element` (the bytes of one
/// element) once to the typed field of `Proto`, or nothing when it is all
/// zero bits. `DType` must have a splat form.
void appendSplatValue(tensorflow::DataType DType, llvm::StringRef Element,
                      tensorflow::TensorProto &Proto);

} // namespace frost

#endif // FROST_TENSOR_TENSORPROTOCODEC_H
