//===- Run.h - Running a model on given inputs -------------------*- C++ -*-===//
//
// frost-run's library (saved_model_cli run, polygraphy run): a model made
// runnable (a frozen GraphDef as it is; a source model frozen first, as
// freeze-graph freezes it), its placeholders fed values given by name (a
// node, `node:0`, or a signature's input key) or seeded random ones
// (frost-verify's), the outputs fetched by GraphRunner; two runs compared
// as frost-verify compares them; arrays read from and written as numpy's
// .npy and .npz files (the zip container by libzip).
//
//===----------------------------------------------------------------------===//
#ifndef FROST_RUN_RUN_H
#define FROST_RUN_RUN_H

#include "frost/Freeze/Freeze.h"
#include "frost/IR/Model.h"
#include "frost/Support/Context.h"
#include "frost/Support/Status.h"
#include "frost/Tensor/Tensor.h"
#include "frost/Verify/Verify.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace frost::run {

/// Arrays by name, in order.
using NamedTensors = std::vector<std::pair<std::string, TensorData>>;

/// One .npy file (a regular file; errors name it).
absl::StatusOr<TensorData> readNpy(Context &Ctx, llvm::StringRef Path);
/// Every array of a .npz file (numpy.savez or savez_compressed), by name
/// (its entry's, less ".npy"), in the archive's order. An entry that is
/// not a .npy file, or one inflating to more than `MaxBytes`, fails, naming
/// the file and the entry.
absl::StatusOr<NamedTensors> readNpz(Context &Ctx, llvm::StringRef Path, uint64_t MaxBytes);
/// `Arrays` as a .npz file's bytes, entries stored as numpy.savez stores
/// them (`NAME.npy`, uncompressed), with a fixed date: the same arrays give
/// the same bytes.
absl::StatusOr<std::string> encodeNpz(const NamedTensors &Arrays);

/// A model ready to run: a frozen graph, and how its inputs and outputs are
/// called.
struct RunnableModel {
  std::string Name;
  /// The frozen graph (a FreezeResult's when it was frozen here).
  std::unique_ptr<Model> M;
  /// Whether freezing made it (the input had variables and a checkpoint).
  bool Frozen = false;
  /// A signature's keys -> tensors of the graph, when it came from one.
  std::vector<std::pair<std::string, std::string>> SignatureInputs;
  /// The lookup tables' initializers, run before the outputs as a session
  /// runs them (freezing's, or a frozen graph's init_all_tables).
  std::vector<std::string> Initializers;
  /// The tensors to fetch ("node" for all its outputs, or "node:k").
  std::vector<std::string> Outputs;
  /// Where Outputs came from when none were asked for: "signature
  /// 'serving_default'", "the graph's sinks".
  std::string OutputsChosen;
};

/// Reads what `Options` name: a graph without variables runs as it is; a
/// model with variables (a checkpoint, a SavedModel, a .meta) is frozen as
/// freeze-graph would freeze it. Options.Outputs (nodes or tensors) are
/// what to fetch; without them a SavedModel's signature, else the graph's
/// sinks.
absl::StatusOr<RunnableModel> loadRunnable(Context &Ctx, const FreezeOptions &Options);

struct RunOptions {
  /// Values by input name: a placeholder ("x" or "x:0") or a signature's
  /// input key. Each must be a placeholder the outputs need, of its dtype
  /// and of a shape its declaration allows.
  NamedTensors Inputs;
  /// Where each input came from, for messages ("in.npz: entry 'x'"); by
  /// index into Inputs (missing: "input 'x'").
  std::vector<std::string> InputOrigins;
  /// By index into Inputs: an entry of an input bundle (`--inputs
  /// FILE.npz`, one file for all of a model's inputs), skipped when the
  /// outputs do not need its placeholder, as a session skips a feed nothing
  /// reads. An input named alone must be needed (missing: false).
  std::vector<bool> FromBundle;
  /// Feed the placeholders Inputs leave out with seeded random values, as
  /// frost-verify does (Numeric.Seed, Numeric.InputShapes).
  bool RandomInputs = false;
  /// The seed and shapes of random inputs, the run's budget, and the
  /// tolerances of a comparison.
  verify::NumericOptions Numeric;
};

struct RunResult {
  /// What was fed, by placeholder node.
  NamedTensors Inputs;
  /// By tensor name ("node:k").
  NamedTensors Outputs;
  size_t NodesRun = 0;
};

/// Runs `M`. A placeholder without a value, a value of the wrong dtype or
/// shape, an output that cannot be computed (an op without a kernel: the
/// op named) are errors naming the input or the output and the node.
absl::StatusOr<RunResult> runModel(const RunnableModel &M, const RunOptions &Options);

/// `Got` compared with `Want` output by output, as frost-verify compares a
/// frozen graph with its source (atol + rtol * |want| per element, the
/// worst element named); an output only one run has is a finding.
struct Comparison {
  std::vector<verify::OutputCheck> Outputs;
  std::vector<std::string> Findings;
  bool passed() const { return Findings.empty(); }
};
Comparison compareRuns(const NamedTensors &Got, const NamedTensors &Want,
                       const verify::NumericOptions &Options);

} // namespace frost::run

#endif // FROST_RUN_RUN_H
