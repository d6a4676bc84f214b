//===- Quantize.cpp - Quantized values ------------------------------------===//
//
// TensorFlow's Dequantize.
//
//===----------------------------------------------------------------------===//
#include "Kernel.h"

namespace frost::eval {} // namespace frost::eval
