//===- LinalgTensorFlowTest.cpp - Einsum and linalg kernels against TF ----===//
//
// Replays cases that scripts/compare_linalg_with_tf.py computed with
// TensorFlow: a binary GraphDef whose nodes are the cases (op and attributes
// as TensorFlow built them), the inputs in attribute `_inputs`, and either
// TensorFlow's outputs in `_outputs` with the allowed error in `_tolerance`,
// TensorFlow's error message in `_error`, or `_unimplemented` where Frost
// must refuse what it does not compute. The file is named by
// FROST_LINALG_TF_CASES; without it the test is skipped. Each case is
// evaluated with Exactness::WithinRounding. Integer and bool outputs must
// be equal; float outputs must have NaNs and infinities where TensorFlow's
// are, and differ elsewhere by at most `_tolerance` epsilons of the dtype
// times the output's largest finite magnitude (at least 1). Prints per op
// and dtype: cases matched, outputs bit for bit equal, the largest error.
//
//===----------------------------------------------------------------------===//
#include "EvalTestSupport.h"

#include <Eigen/Core>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <map>

using namespace frost;
using namespace frost::eval;
using namespace frost::eval::test;

namespace {

/// Element I of a float tensor as a double, with its dtype's epsilon; false
/// for other dtypes.
bool floatElement(const TensorData &T, int64_t I, double &V, double &Eps) {
  switch (T.dtype()) {
  case tensorflow::DT_FLOAT:
    Eps = std::numeric_limits<float>::epsilon();
    break;
  case tensorflow::DT_DOUBLE:
    Eps = std::numeric_limits<double>::epsilon();
    break;
  case tensorflow::DT_HALF:
    Eps = 0x1p-10;
    break;
  case tensorflow::DT_BFLOAT16:
    Eps = 0x1p-7;
    break;
  default:
    return false;
  }
  return elementAsDouble(T, I, V);
}

/// The largest |got - want| in epsilons of the largest finite |want| (at
/// least 1); an error where dtypes, shapes, NaNs, infinities or integers
/// differ.
absl::StatusOr<double> epsilonsOff(const TensorData &Got, const TensorData &Want) {
  if (Got.dtype() != Want.dtype() || Got.shape() != Want.shape())
    return absl::InternalError(describe(Got) + " vs TensorFlow's " + describe(Want));
  if (Got.bytes() == Want.bytes())
    return 0.0;
  double G, W, Eps;
  if (!floatElement(Want, 0, W, Eps))
    return absl::InternalError("integer or bool elements differ");
  double Largest = 1;
  for (int64_t I = 0; I < Want.numElements(); ++I)
    if (floatElement(Want, I, W, Eps) && std::isfinite(W))
      Largest = std::max(Largest, std::fabs(W));
  double Worst = 0;
  for (int64_t I = 0; I < Want.numElements(); ++I) {
    floatElement(Got, I, G, Eps);
    floatElement(Want, I, W, Eps);
    if (std::isnan(G) != std::isnan(W) || (std::isinf(W) && G != W) ||
        (std::isinf(G) && !std::isinf(W)))
      return absl::InternalError("element " + std::to_string(I) + ": " + std::to_string(G) +
                                 " vs " + std::to_string(W));
    if (std::isfinite(W))
      Worst = std::max(Worst, std::fabs(G - W) / (Eps * Largest));
  }
  return Worst;
}

TEST(LinalgTensorFlowTest, CasesComputedByTensorFlow) {
  const char *Path = std::getenv("FROST_LINALG_TF_CASES");
  if (!Path)
    GTEST_SKIP() << "FROST_LINALG_TF_CASES names no case file "
                    "(scripts/compare_linalg_with_tf.py writes one)";
  absl::StatusOr<tensorflow::GraphDef> Cases = readCaseFile(Path);
  ASSERT_TRUE(Cases.ok()) << Cases.status();

  struct Tally {
    int Cases = 0, Matched = 0, Bitwise = 0, Refusals = 0;
    double MaxEps = 0;
  };
  std::map<std::string, Tally> PerOp;
  int Reported = 0;
  auto Fail = [&](const tensorflow::NodeDef &Node, const std::string &Why) {
    if (Reported++ < 40)
      ADD_FAILURE() << Node.name() << " (" << Node.op() << "): " << Why;
  };
  for (const tensorflow::NodeDef &Node : Cases->node()) {
    AttrMap Attrs = caseAttrs(Node);
    std::vector<TensorData> Inputs = tensorsOf(Node, "_inputs");
    absl::StatusOr<std::vector<TensorData>> Got =
        evaluate(Node.op(), Inputs, Attrs, Exactness::WithinRounding);
    std::string Key = Node.op() + " " + (Inputs.empty() ? "" : dataTypeName(Inputs[0].dtype()));
    Tally &T = PerOp[Key];
    ++T.Cases;
    if (Node.attr().count("_unimplemented")) {
      ++T.Refusals;
      if (absl::IsUnimplemented(Got.status()))
        ++T.Matched;
      else
        Fail(Node, "Frost must refuse (" + Node.attr().at("_unimplemented").s() + "), gives " +
                       (Got.ok() ? std::string("a value") : Got.status().ToString()));
      continue;
    }
    auto Error = Node.attr().find("_error");
    if (Error != Node.attr().end()) {
      ++T.Refusals;
      std::string Want = Node.op() + ": " + Error->second.s();
      if (Got.ok())
        Fail(Node, "TensorFlow fails (" + Want + "), Frost computes a value");
      else if (!absl::IsInvalidArgument(Got.status()) || Got.status().message() != Want)
        Fail(Node, "Frost: '" + Got.status().ToString() + "', TensorFlow's '" + Want + "'");
      else
        ++T.Matched;
      continue;
    }
    if (!Got.ok()) {
      Fail(Node, "Frost fails: " + Got.status().ToString());
      continue;
    }
    std::vector<TensorData> Want = tensorsOf(Node, "_outputs");
    if (Got->size() != Want.size()) {
      Fail(Node, "output count " + std::to_string(Got->size()) + ", TensorFlow's " +
                     std::to_string(Want.size()));
      continue;
    }
    double Tolerance = Node.attr().at("_tolerance").f();
    bool Same = true, Bitwise = true;
    for (size_t I = 0; I < Want.size() && Same; ++I) {
      absl::StatusOr<double> Eps = epsilonsOff((*Got)[I], Want[I]);
      if (!Eps.ok()) {
        Same = false;
        Fail(Node, "output " + std::to_string(I) + ": " + std::string(Eps.status().message()));
        break;
      }
      Bitwise &= (*Got)[I].bytes() == Want[I].bytes();
      T.MaxEps = std::max(T.MaxEps, *Eps);
      if (*Eps > Tolerance) {
        Same = false;
        Fail(Node, "output " + std::to_string(I) + " differs by " + std::to_string(*Eps) +
                       " eps of its largest value (tolerance " + std::to_string(Tolerance) + ")");
      }
    }
    T.Matched += Same;
    T.Bitwise += Same && Bitwise;
  }
  int Total = 0, Matched = 0;
  std::cout << "per op and dtype: cases matched/cases (refusals), bit for bit, max error in "
               "eps of the largest output\n";
  for (const auto &[Key, T] : PerOp) {
    std::printf("  %-32s %4d/%-4d (%3d) %4d %10.3g\n", Key.c_str(), T.Matched, T.Cases,
                T.Refusals, T.Bitwise, T.MaxEps);
    Total += T.Cases;
    Matched += T.Matched;
  }
  std::cout << "TensorFlow comparison: " << Matched << "/" << Total << " cases match\n";
  EXPECT_EQ(Matched, Total);
}

} // namespace
