//===- Reduction.cpp - Reductions and arg-reductions ----------------------===//
//
// TensorFlow's Sum, Prod, Mean, Max, Min, All, Any, ArgMax, ArgMin.
//
//===----------------------------------------------------------------------===//
#include "Kernel.h"

namespace frost::eval {} // namespace frost::eval
