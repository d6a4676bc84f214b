//===- Verify.h - Proving a frozen graph computes what its source did -*- C++ -*-===//
//
// frost-verify's library: given how a graph was frozen (the FreezeResult of
// freezing its source again, with FreezeOptions::KeepSource) and the frozen
// graph to check, three checks:
//   constants  every Const that came from a variable holds exactly the
//              checkpoint's bytes (the key and slice freezing chose: renames,
//              EMA, partitions), and every Const the source had holds the
//              source's bytes;
//   structure  the outputs reach no variable, no placeholder the source did
//              not have, no Saver node, no reference; every edge's dtype fits
//              its OpDef where the model has OpDefs;
//   numeric    source (variables read from the checkpoint) and frozen graph
//              run on the same seeded random inputs with Frost's evaluator;
//              each output compared element by element within
//              atol + rtol * |source|, its worst element named.
// A finding names the node; the report says what was not checked and why,
// and an output not checked fails the verdict unless AllowUnchecked.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_VERIFY_VERIFY_H
#define FROST_VERIFY_VERIFY_H

#include "frost/Eval/Eval.h"
#include "frost/Freeze/Freeze.h"
#include "frost/IR/Model.h"
#include "frost/Support/Status.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace frost::verify {

struct NumericOptions {
  bool Run = true;
  uint64_t Seed = 0;
  /// Shapes of placeholders, by name, for dimensions their `shape` leaves
  /// unknown (default: 1 for the first, 8 for the others).
  std::map<std::string, std::vector<int64_t>, std::less<>> InputShapes;
  /// An output holds when |frozen - source| <= Atol + Rtol * |source| for
  /// every element; default by dtype (float32 1e-5 and 1e-5, polygraphy's;
  /// float64 numpy.allclose's 1e-8 and 1e-5). An output whose source values
  /// all lie below Atol is judged by Rtol alone: Atol would hide it.
  std::optional<double> Atol, Rtol;
  /// Pass what was checked when some output could not be computed (an op
  /// without a kernel); by default that fails the verdict.
  bool AllowUnchecked = false;
  /// A directory to write the inputs and both graphs' outputs into, as .npy
  /// files with an index.json (for comparing with TensorFlow).
  std::string SaveValues;
  /// What each graph's run may spend (--eval-budget, --eval-max-bytes).
  eval::EvalBudget Budget;
};

struct Finding {
  /// "constants", "structure" or "numeric".
  std::string Check;
  std::string Node;
  std::string Message;
};

/// One output tensor compared.
struct OutputCheck {
  std::string Tensor;
  std::string DType;
  std::vector<int64_t> Shape;
  uint64_t Elements = 0, Differing = 0;
  double MaxAbs = 0;
  /// The tolerance applied: |frozen - source| <= Atol + Rtol * |source|.
  double Atol = 0, Rtol = 0;
  /// Every source value lies below the dtype's atol, which would hide any
  /// difference: judged by Rtol alone (Atol is not applied).
  bool BelowAtol = false;
  /// The element furthest outside its tolerance (or the one differing
  /// most, when all are within): its index, both values as text, and the
  /// differences. Set when some element differs.
  struct Element {
    std::vector<int64_t> Index;
    std::string Frozen, Source;
    double Abs = 0, Rel = 0;
  };
  std::optional<Element> Worst;
  /// Compared bit for bit (integers, booleans, strings, quantized): no
  /// differences to measure, only a count (Worst is the first difference).
  bool Exact = false;
  /// Empty when compared; else why not ("needs Foo (no kernel): a, b").
  std::string NotChecked;
  /// Empty unless a graph could not compute it where TensorFlow could not
  /// either (a kernel refusing its inputs): a finding, not NOT CHECKED.
  std::string Failed;
};

/// One input fed.
struct FedInput {
  std::string Node;
  std::string DType;
  std::vector<int64_t> Shape;
};

struct VerifyReport {
  std::string Frozen, Source, Checkpoint;
  size_t ConstantsChecked = 0, ConstantsAbsent = 0;
  /// Consts of the source kept in the frozen graph, compared with it.
  size_t SourceConstantsChecked = 0;
  /// Where the outputs came from when --outputs named none ("signature
  /// 'serving_default'", "the frozen graph's sinks"), and which they are.
  std::string OutputsChosen;
  std::vector<std::string> OutputNames;
  size_t NodesReached = 0, EdgesTyped = 0;
  /// Whether the source or the frozen graph carries OpDefs of its own (edges
  /// are typed with TensorFlow's standard ones either way).
  bool HasOpDefs = false;
  bool NumericRun = false;
  uint64_t Seed = 0;
  std::vector<FedInput> Inputs;
  std::vector<OutputCheck> Outputs;
  /// Ops without a kernel (either graph) -> nodes.
  std::map<std::string, std::vector<std::string>> NoKernel;
  std::vector<Finding> Findings;
  /// NumericOptions::AllowUnchecked, and whether the numeric check was
  /// asked for (--no-numeric is no failure).
  bool AllowUnchecked = false, NumericAsked = true;

  /// No finding, and every output compared unless that was allowed.
  bool passed() const {
    return Findings.empty() && (complete() || AllowUnchecked || !NumericAsked);
  }
  /// Every output compared numerically.
  bool complete() const;
  /// The outputs not compared (NOT CHECKED).
  size_t unchecked() const;
};

/// A seeded random value for placeholder `N`, as the numeric check feeds
/// it: floats in [-1, 1), integers in [0, 3), uint8 in [0, 256), booleans;
/// one stream per input name; unknown dimensions from InputShapes, else 1
/// first and 8 after. `G` holds `N`.
absl::StatusOr<TensorData> randomInput(const Graph &G, const Node &N,
                                       const NumericOptions &Options);

/// Compares `Got` with the reference `Want` element by element within
/// Options' tolerances (by dtype by default), into `Out` (all but Tensor).
void compareOutput(const TensorData &Got, const TensorData &Want, const NumericOptions &Options,
                   OutputCheck &Out);

/// One compared output's report line after its name ("float32 [1,3]: 0 of 3
/// values outside ..."), the two runs called `Got` and `Want`.
void printOutputCheck(llvm::raw_ostream &OS, const OutputCheck &C, llvm::StringRef Got = "frozen",
                      llvm::StringRef Want = "source");

/// Checks `Frozen` (read from `FrozenPath`) against `Expected`, a freeze of
/// the source with KeepSource. Errors only when the checks cannot start (the
/// checkpoint does not open); what fails a check is a finding.
absl::StatusOr<VerifyReport> verifyFrozen(Context &Ctx, const FreezeResult &Expected,
                                          const Model &Frozen,
                                          llvm::StringRef FrozenPath,
                                          const NumericOptions &Options);

/// For people: what was checked, one line per finding, a verdict line
/// (`FindingsOnly`: the findings' lines alone).
void printVerifyReport(llvm::raw_ostream &OS, const VerifyReport &R, llvm::StringRef Tool,
                       bool FindingsOnly = false);

/// The verdict line: "TOOL: PASSED", "TOOL: FAILED: 2 findings", ...
std::string verdictText(const VerifyReport &R, llvm::StringRef Tool);

/// Why `R` did not pass, in one line: "2 findings, the first: numeric: 'y:0'
/// ...", or the outputs NOT CHECKED.
std::string failureText(const VerifyReport &R);

/// For CI (docs/verify.md has the schema).
std::string verifyReportJson(const VerifyReport &R);

} // namespace frost::verify

#endif // FROST_VERIFY_VERIFY_H
