//===- ArrayTensorFlowTest.cpp - Array kernels against TensorFlow's -------===//
//
// Replays cases that scripts/compare_array_with_tf.py computed with
// TensorFlow: a binary GraphDef whose nodes are the cases (op and attributes
// as TensorFlow built them), with the inputs in attribute `_inputs` and either
// the outputs in `_outputs` or TensorFlow's error message in `_error`. The
// file is named by FROST_ARRAY_TF_CASES; without it the test is skipped.
//
//===----------------------------------------------------------------------===//
#include "EvalTestSupport.h"

#include "frost/Tensor/TensorProtoCodec.h"
#include "frost/proto/graph.pb.h"
#include "frost/proto/tensor.pb.h"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

using namespace frost;
using namespace frost::eval;
using namespace frost::eval::test;

namespace {

bool sameTensor(const TensorData &A, const TensorData &B) {
  return A.dtype() == B.dtype() && A.shape() == B.shape() &&
         (A.isFixedSize() ? A.bytes() == B.bytes() : A.elements() == B.elements());
}


TEST(ArrayTensorFlowTest, CasesComputedByTensorFlow) {
  const char *Path = std::getenv("FROST_ARRAY_TF_CASES");
  if (!Path)
    GTEST_SKIP() << "FROST_ARRAY_TF_CASES names no case file "
                    "(scripts/compare_array_with_tf.py writes one)";
  absl::StatusOr<tensorflow::GraphDef> Cases = readCaseFile(Path);
  ASSERT_TRUE(Cases.ok()) << Cases.status();

  // Per op: cases, matches (values or message), and what went wrong.
  struct Tally {
    int Cases = 0, Matched = 0;
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
    absl::StatusOr<std::vector<TensorData>> Got = evaluate(Node.op(), Inputs, Attrs);
    Tally &T = PerOp[Node.op()];
    ++T.Cases;
    auto Error = Node.attr().find("_error");
    if (Error != Node.attr().end()) {
      std::string Want = Node.op() + ": " + Error->second.s();
      if (Got.ok())
        Fail(Node, "TensorFlow fails (" + Want + "), Frost computes a value");
      else if (std::string(Got.status().message()) != Want)
        Fail(Node,
             "message '" + std::string(Got.status().message()) + "', TensorFlow's '" + Want + "'");
      else
        ++T.Matched;
      continue;
    }
    std::vector<TensorData> Want = tensorsOf(Node, "_outputs");
    if (!Got.ok()) {
      Fail(Node, "Frost fails: " + std::string(Got.status().ToString()));
      continue;
    }
    if (Got->size() != Want.size()) {
      Fail(Node, "output count " + std::to_string(Got->size()) + ", TensorFlow's " +
                     std::to_string(Want.size()));
      continue;
    }
    bool Same = true;
    for (size_t I = 0; I < Want.size() && Same; ++I)
      if (!sameTensor((*Got)[I], Want[I])) {
        Same = false;
        Fail(Node, "output " + std::to_string(I) + " differs: " + describe((*Got)[I]) +
                       " vs TensorFlow's " + describe(Want[I]));
      }
    T.Matched += Same;
  }
  int Total = 0, Matched = 0;
  for (const auto &[Op, T] : PerOp) {
    std::cout << "  " << Op << ": " << T.Matched << "/" << T.Cases << " match\n";
    Total += T.Cases;
    Matched += T.Matched;
  }
  std::cout << "TensorFlow comparison: " << Matched << "/" << Total << " cases match\n";
  EXPECT_EQ(Matched, Total);
}

} // namespace
