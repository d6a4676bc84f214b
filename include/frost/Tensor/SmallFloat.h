//===- SmallFloat.h - half, bfloat16 and float8 bit patterns ----*- C++ -*-===//
//
// Exact values of the 16-, 8- and 4-bit float formats TensorFlow stores
// (DT_HALF, DT_BFLOAT16, DT_FLOAT8_*, DT_FLOAT4_E2M1FN). Every such value is
// a double exactly.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TENSOR_SMALLFLOAT_H
#define FROST_TENSOR_SMALLFLOAT_H

#include "frost/proto/types.pb.h"

#include <cstdint>
#include <optional>

namespace frost {

/// IEEE binary16.
double halfToDouble(uint16_t Bits);
/// The upper 16 bits of a float32.
double bfloat16ToDouble(uint16_t Bits);

/// A format of one sign bit, ExpBits exponent bits and MantBits mantissa
/// bits, stored one element per byte in the low bits.
struct MinifloatFormat {
  /// IEEE: an all-ones exponent is inf/nan. FN: no infinity, all-ones
  /// exponent and mantissa is NaN. FNUZ: no infinity or negative zero, the
  /// negative-zero pattern is NaN. None: every pattern is finite.
  enum SpecialKind { IEEE, FN, FNUZ, None };
  int ExpBits, MantBits, Bias;
  SpecialKind Special;

  int width() const { return 1 + ExpBits + MantBits; }
  uint32_t signBit() const { return 1u << (width() - 1); }
  /// The value of magnitude bits `Mag` (no sign bit).
  double decodeMagnitude(uint32_t Mag) const;
  /// The magnitude bits of the largest finite value.
  uint32_t maxFiniteMagnitude() const;
};

/// The format of DT_FLOAT8_* and DT_FLOAT4_E2M1FN; nullopt for other dtypes.
std::optional<MinifloatFormat> minifloatFormat(tensorflow::DataType DType);
inline bool isMinifloatDataType(tensorflow::DataType DType) {
  return minifloatFormat(DType).has_value();
}
/// The value of one DT_FLOAT8_* / DT_FLOAT4_E2M1FN element; nullopt for other
/// dtypes.
std::optional<double> minifloatToDouble(tensorflow::DataType DType, uint8_t Bits);

} // namespace frost

#endif // FROST_TENSOR_SMALLFLOAT_H
