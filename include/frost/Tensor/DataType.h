//===- DataType.h - Facts about TensorFlow dtypes ---------------*- C++ -*-===//
//
// Element sizes and names of tensorflow::DataType, as TensorFlow stores and
// spells them.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TENSOR_DATATYPE_H
#define FROST_TENSOR_DATATYPE_H

#include "frost/proto/types.pb.h"

#include <cstddef>
#include <string>

namespace frost {

/// Bytes per element of a fixed-size dtype (bool = 1, complex64 = 8,
/// half/bfloat16 = 2, int4/float8 = 1 as TensorFlow stores them); 0 for
/// string, variant, resource, invalid and unknown dtypes.
size_t dataTypeSize(tensorflow::DataType DType);
inline bool isFixedSizeDataType(tensorflow::DataType DType) { return dataTypeSize(DType) != 0; }
/// Lower-case TensorFlow spelling ("float", "int64", "bfloat16"), or
/// "dtype(N)" for numbers this build does not know.
std::string dataTypeName(tensorflow::DataType DType);
/// TensorFlow's Python spelling (tf.DType.name): "float32", "float16",
/// "bfloat16", "qint8", "float32_ref"; "dtype(N)" for unknown numbers.
std::string dataTypePythonName(tensorflow::DataType DType);
/// Maps a `_REF` dtype to its value dtype.
tensorflow::DataType baseDataType(tensorflow::DataType DType);

/// Reverses the bytes of each element (each half of a complex element).
void byteSwapElements(tensorflow::DataType DType, char *Data, size_t Size);

} // namespace frost

#endif // FROST_TENSOR_DATATYPE_H
