//===- MatMul.cpp - Matrix products ---------------------------------------===//
//
// TensorFlow's MatMul and BatchMatMulV2 (Eigen contractions).
//
//===----------------------------------------------------------------------===//
#include "Kernel.h"

namespace frost::eval {} // namespace frost::eval
