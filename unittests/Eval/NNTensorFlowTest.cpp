//===- NNTensorFlowTest.cpp - Kernels for running graphs against TF -------===//
//
// Replays cases that scripts/compare_nn_with_tf.py computed with TensorFlow:
// a binary GraphDef whose nodes are the cases (op and attributes as
// TensorFlow built them), with the inputs in attribute `_inputs` and either
// the expected outputs in `_outputs` (and the tolerance in `_tolerance`) or
// TensorFlow's error class in `_error`. The file is named by
// FROST_NN_TF_CASES; without it the test is skipped. Each float output must
// be within tolerance * max(1, max |expected|) of TensorFlow's, element by
// element; integers exactly.
//
//===----------------------------------------------------------------------===//
#include "EvalTestSupport.h"


#include <Eigen/Core>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>

using namespace frost;
using namespace frost::eval;
using namespace frost::eval::test;

namespace {




/// The largest |got - want| relative to max(1, max |want|), or an error
/// message when dtypes, shapes or NaNs differ.
absl::StatusOr<double> relativeError(const TensorData &Got, const TensorData &Want) {
  if (Got.dtype() != Want.dtype() || Got.shape() != Want.shape())
    return absl::InternalError(describe(Got) + " vs TensorFlow's " + describe(Want));
  double Largest = 1, Worst = 0, G = 0, W = 0;
  for (int64_t I = 0; I < Want.numElements(); ++I) {
    if (!elementAsDouble(Want, I, W))
      return absl::InternalError("unexpected dtype " + dataTypeName(Want.dtype()));
    if (std::isfinite(W))
      Largest = std::max(Largest, std::fabs(W));
  }
  for (int64_t I = 0; I < Want.numElements(); ++I) {
    elementAsDouble(Got, I, G);
    elementAsDouble(Want, I, W);
    if (std::isnan(G) != std::isnan(W) || (std::isinf(W) && G != W))
      return absl::InternalError("element " + std::to_string(I) + ": " + std::to_string(G) +
                                 " vs " + std::to_string(W));
    if (std::isfinite(W))
      Worst = std::max(Worst, std::fabs(G - W) / Largest);
  }
  return Worst;
}

TEST(NNTensorFlowTest, CasesComputedByTensorFlow) {
  const char *Path = std::getenv("FROST_NN_TF_CASES");
  if (!Path)
    GTEST_SKIP() << "FROST_NN_TF_CASES names no case file "
                    "(scripts/compare_nn_with_tf.py writes one)";
  absl::StatusOr<tensorflow::GraphDef> Cases = readCaseFile(Path);
  ASSERT_TRUE(Cases.ok()) << Cases.status();

  struct Tally {
    int Cases = 0, Matched = 0;
    double MaxError = 0;
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
    llvm::StringRef Op = Node.op();
    if (Op.starts_with("Conv") && Op.contains("BackpropInput")) // input 0 is a shape
      Key = Node.op() + " " + dataTypeName(Inputs[1].dtype());
    Tally &T = PerOp[Key];
    ++T.Cases;
    auto Error = Node.attr().find("_error");
    if (Error != Node.attr().end()) {
      // NotFoundError: TensorFlow has no kernel for the dtype.
      const std::string &Class = Error->second.s();
      bool Same = Class == "InvalidArgumentError"
                      ? absl::IsInvalidArgument(Got.status())
                      : (Class == "UnimplementedError" || Class == "NotFoundError") &&
                            absl::IsUnimplemented(Got.status());
      if (Same)
        ++T.Matched;
      else
        Fail(Node, "TensorFlow raises " + Error->second.s() + ", Frost: " +
                       (Got.ok() ? std::string("a value") : Got.status().ToString()));
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
    bool Same = true;
    for (size_t I = 0; I < Want.size() && Same; ++I) {
      absl::StatusOr<double> Err = relativeError((*Got)[I], Want[I]);
      if (!Err.ok()) {
        Same = false;
        Fail(Node, "output " + std::to_string(I) + ": " + std::string(Err.status().message()));
        continue;
      }
      T.MaxError = std::max(T.MaxError, *Err);
      if (*Err > Tolerance) {
        Same = false;
        Fail(Node, "output " + std::to_string(I) + " differs by " + std::to_string(*Err) +
                       " (tolerance " + std::to_string(Tolerance) + ")");
      }
    }
    T.Matched += Same;
  }
  int Total = 0, Matched = 0;
  std::cout << "per op and dtype: cases matched, max |frost - tf| / max(1, max |tf|)\n";
  for (const auto &[Key, T] : PerOp) {
    std::printf("  %-40s %4d/%-4d %10.3g\n", Key.c_str(), T.Matched, T.Cases, T.MaxError);
    Total += T.Cases;
    Matched += T.Matched;
  }
  std::cout << "TensorFlow comparison: " << Matched << "/" << Total << " cases match\n";
  EXPECT_EQ(Matched, Total);
}

} // namespace
