//===- SmallFloat.cpp - half, bfloat16 and float8 bit patterns ------------===//
#include "frost/Tensor/SmallFloat.h"

#include <bit>
#include <cmath>
#include <limits>

namespace frost {

double halfToDouble(uint16_t Bits) {
  int Exp = (Bits >> 10) & 0x1f;
  int Mant = Bits & 0x3ff;
  double V;
  if (Exp == 0)
    V = std::ldexp(Mant, -24);
  else if (Exp == 31)
    V = Mant ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else
    V = std::ldexp(Mant | 0x400, Exp - 25);
  return (Bits & 0x8000) ? -V : V;
}

double bfloat16ToDouble(uint16_t Bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(Bits) << 16);
}

double MinifloatFormat::decodeMagnitude(uint32_t Mag) const {
  uint32_t Exp = Mag >> MantBits;
  uint32_t Mant = Mag & ((1u << MantBits) - 1);
  uint32_t MaxExp = (1u << ExpBits) - 1;
  if (Special == IEEE && Exp == MaxExp)
    return Mant ? std::numeric_limits<double>::quiet_NaN()
                : std::numeric_limits<double>::infinity();
  if (Special == FN && Exp == MaxExp && Mant == (1u << MantBits) - 1)
    return std::numeric_limits<double>::quiet_NaN();
  if (Exp == 0)
    return std::ldexp(Mant, 1 - Bias - MantBits);
  return std::ldexp(Mant | (1u << MantBits), static_cast<int>(Exp) - Bias - MantBits);
}

uint32_t MinifloatFormat::maxFiniteMagnitude() const {
  // IEEE formats lose the top exponent to inf/nan, FN formats only the
  // all-ones pattern.
  if (Special == IEEE)
    return (((1u << ExpBits) - 1) << MantBits) - 1;
  if (Special == FN)
    return signBit() - 2;
  return signBit() - 1;
}

std::optional<MinifloatFormat> minifloatFormat(tensorflow::DataType DType) {
  switch (DType) {
  case tensorflow::DT_FLOAT8_E5M2:
    return MinifloatFormat{5, 2, 15, MinifloatFormat::IEEE};
  case tensorflow::DT_FLOAT8_E4M3FN:
    return MinifloatFormat{4, 3, 7, MinifloatFormat::FN};
  case tensorflow::DT_FLOAT8_E4M3FNUZ:
    return MinifloatFormat{4, 3, 8, MinifloatFormat::FNUZ};
  case tensorflow::DT_FLOAT8_E4M3B11FNUZ:
    return MinifloatFormat{4, 3, 11, MinifloatFormat::FNUZ};
  case tensorflow::DT_FLOAT8_E5M2FNUZ:
    return MinifloatFormat{5, 2, 16, MinifloatFormat::FNUZ};
  case tensorflow::DT_FLOAT4_E2M1FN:
    return MinifloatFormat{2, 1, 1, MinifloatFormat::None};
  default:
    return std::nullopt;
  }
}

std::optional<double> minifloatToDouble(tensorflow::DataType DType, uint8_t Bits) {
  std::optional<MinifloatFormat> F = minifloatFormat(DType);
  if (!F)
    return std::nullopt;
  uint32_t SignBit = F->signBit();
  Bits &= (1u << F->width()) - 1;
  if (F->Special == MinifloatFormat::FNUZ && Bits == SignBit)
    return std::numeric_limits<double>::quiet_NaN();
  double V = F->decodeMagnitude(Bits & (SignBit - 1));
  return (Bits & SignBit) ? -V : V;
}

} // namespace frost
