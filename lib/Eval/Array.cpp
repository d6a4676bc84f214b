//===- Array.cpp - Shape and array ops ------------------------------------===//
//
// TensorFlow's shape, reshape, concat, slice, gather, pad, tile... kernels.
//
//===----------------------------------------------------------------------===//
#include "Kernel.h"

namespace frost::eval {} // namespace frost::eval
