//===- DataType.cpp - Facts about TensorFlow dtypes -----------------------===//
#include "frost/Tensor/DataType.h"

#include "absl/strings/str_cat.h"

#include <algorithm>

namespace frost {

using tensorflow::DataType;

DataType baseDataType(DataType DType) {
  int V = static_cast<int>(DType);
  return V > 100 && V < 200 ? static_cast<DataType>(V - 100) : DType;
}

size_t dataTypeSize(DataType DType) {
  switch (baseDataType(DType)) {
  case tensorflow::DT_BOOL:
  case tensorflow::DT_INT8:
  case tensorflow::DT_UINT8:
  case tensorflow::DT_QINT8:
  case tensorflow::DT_QUINT8:
  case tensorflow::DT_FLOAT8_E5M2:
  case tensorflow::DT_FLOAT8_E4M3FN:
  case tensorflow::DT_FLOAT8_E4M3FNUZ:
  case tensorflow::DT_FLOAT8_E4M3B11FNUZ:
  case tensorflow::DT_FLOAT8_E5M2FNUZ:
  case tensorflow::DT_INT4:
  case tensorflow::DT_UINT4:
  case tensorflow::DT_INT2:
  case tensorflow::DT_UINT2:
  case tensorflow::DT_FLOAT4_E2M1FN:
    return 1;
  case tensorflow::DT_INT16:
  case tensorflow::DT_UINT16:
  case tensorflow::DT_QINT16:
  case tensorflow::DT_QUINT16:
  case tensorflow::DT_HALF:
  case tensorflow::DT_BFLOAT16:
    return 2;
  case tensorflow::DT_FLOAT:
  case tensorflow::DT_INT32:
  case tensorflow::DT_UINT32:
  case tensorflow::DT_QINT32:
    return 4;
  case tensorflow::DT_DOUBLE:
  case tensorflow::DT_INT64:
  case tensorflow::DT_UINT64:
  case tensorflow::DT_COMPLEX64:
    return 8;
  case tensorflow::DT_COMPLEX128:
    return 16;
  default:
    return 0;
  }
}

/// TensorFlow's spelling of `DType`: DataTypeString's, or with `Python`
/// tf.DType.name's, which differs for float, double and half only.
static std::string spell(DataType DType, bool Python) {
  static const char *const Names[] = {
      "invalid", "float",    "double",        "int32",          "uint8",
      "int16",   "int8",     "string",        "complex64",      "int64",
      "bool",    "qint8",    "quint8",        "qint32",         "bfloat16",
      "qint16",  "quint16",  "uint16",        "complex128",     "half",
      "resource", "variant", "uint32",        "uint64",         "float8_e5m2",
      "float8_e4m3fn", "float8_e4m3fnuz", "float8_e4m3b11fnuz", "float8_e5m2fnuz", "int4",
      "uint4",   "int2",     "uint2",         "float4_e2m1fn"};
  constexpr int NumNames = sizeof(Names) / sizeof(Names[0]);
  int V = static_cast<int>(DType);
  bool Ref = V > 100 && V - 100 < NumNames;
  if (!Ref && (V < 0 || V >= NumNames))
    return absl::StrCat("dtype(", V, ")");
  int Base = Ref ? V - 100 : V;
  const char *Name = Names[Base];
  if (Python && Base == tensorflow::DT_FLOAT)
    Name = "float32";
  else if (Python && Base == tensorflow::DT_DOUBLE)
    Name = "float64";
  else if (Python && Base == tensorflow::DT_HALF)
    Name = "float16";
  return Ref ? absl::StrCat(Name, "_ref") : std::string(Name);
}

std::string dataTypeName(DataType DType) { return spell(DType, /*Python=*/false); }
std::string dataTypePythonName(DataType DType) { return spell(DType, /*Python=*/true); }

void byteSwapElements(DataType DType, char *Data, size_t Size) {
  size_t Width = dataTypeSize(DType);
  DataType Base = baseDataType(DType);
  if (Base == tensorflow::DT_COMPLEX64 || Base == tensorflow::DT_COMPLEX128)
    Width /= 2;
  if (Width <= 1)
    return;
  for (size_t I = 0; I + Width <= Size; I += Width)
    std::reverse(Data + I, Data + I + Width);
}

} // namespace frost
