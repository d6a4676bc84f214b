//===- QuantizeTest.cpp - Quantized values, hand-checked ------------------===//
#include "EvalTestSupport.h"

using namespace frost;
using namespace frost::eval;
using namespace frost::eval::test;

namespace {} // namespace
