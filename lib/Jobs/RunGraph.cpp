//===- RunGraph.cpp - frost-run's job -------------------------------------===//
//
// The output is prepared before any work (a bad path, or one of the inputs,
// fails at once) and committed only once every input was read and checked
// and every output computed: a bad input leaves no file behind.
//
//===----------------------------------------------------------------------===//
#include "frost/Jobs/Jobs.h"

#include "frost/Support/File.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/STLExtras.h"

#include <chrono>

namespace frost {

namespace {

/// "batch.npz[images]" -> ("batch.npz", "images"); a plain path: no key.
std::pair<llvm::StringRef, llvm::StringRef> inputFileParts(llvm::StringRef Path) {
  size_t Open = Path.rfind(".npz[");
  if (Open == llvm::StringRef::npos || !Path.ends_with("]"))
    return {Path, ""};
  return {Path.take_front(Open + 4), Path.slice(Open + 5, Path.size() - 1)};
}

/// The arrays given by file, each with where it came from.
absl::Status readInputFiles(Context &Ctx, const RunGraphOptions &O, run::RunOptions &Run) {
  for (const auto &[Name, Path] : O.InputFiles) {
    // saved_model_cli's FILE.npz[KEY]: one array of a .npz.
    auto [Archive, Key] = inputFileParts(Path);
    if (Key.empty()) {
      FROST_ASSIGN_OR_RETURN(TensorData T, run::readNpy(Ctx, Path));
      Run.Inputs.emplace_back(Name, std::move(T));
      Run.InputOrigins.push_back(Path);
      continue;
    }
    FROST_ASSIGN_OR_RETURN(run::NamedTensors Arrays,
                           run::readNpz(Ctx, Archive, O.Numeric.Budget.MaxTensorBytes));
    auto It = llvm::find_if(Arrays, [&, &Key = Key](const auto &A) { return A.first == Key; });
    if (It == Arrays.end())
      return absl::NotFoundError(absl::StrCat(Archive.str(), ": no entry '", Key.str(), ".npy'"));
    Run.Inputs.emplace_back(Name, std::move(It->second));
    Run.InputOrigins.push_back(absl::StrCat(Archive.str(), ": entry '", Key.str(), ".npy'"));
  }
  for (const std::string &Path : O.InputArchives) {
    FROST_ASSIGN_OR_RETURN(run::NamedTensors Arrays, run::readNpz(Ctx, Path, O.Numeric.Budget.MaxTensorBytes));
    Run.FromBundle.resize(Run.Inputs.size());
    for (auto &[Name, T] : Arrays) {
      Run.InputOrigins.push_back(absl::StrCat(Path, ": entry '", Name, ".npy'"));
      Run.FromBundle.push_back(true);
      Run.Inputs.emplace_back(std::move(Name), std::move(T));
    }
  }
  return absl::OkStatus();
}

} // namespace

absl::StatusOr<RunGraphResult> runGraph(Context &Ctx, const RunGraphOptions &O) {
  auto Start = std::chrono::steady_clock::now();
  noteFreezeInputs(Ctx, O.Model);
  if (O.CompareWith)
    noteFreezeInputs(Ctx, *O.CompareWith);
  for (const auto &[Name, Path] : O.InputFiles)
    Ctx.inputs().note(Path);
  for (const std::string &Path : O.InputArchives)
    Ctx.inputs().note(Path);
  std::unique_ptr<OutputFile> Out;
  if (!O.Output.empty()) {
    FROST_ASSIGN_OR_RETURN(Out, OutputFile::prepare(Ctx, O.Output));
  }

  run::RunOptions Run;
  Run.Inputs = O.Inputs;
  Run.InputOrigins.resize(O.Inputs.size());
  FROST_RETURN_IF_ERROR(readInputFiles(Ctx, O, Run));
  Run.RandomInputs = O.RandomInputs;
  Run.Numeric = O.Numeric;

  FROST_ASSIGN_OR_RETURN(run::RunnableModel M, run::loadRunnable(Ctx, O.Model));
  FROST_ASSIGN_OR_RETURN(run::RunResult First, run::runModel(M, Run));
  RunGraphResult R;
  R.Model = M.Name;
  R.OutputsChosen = M.OutputsChosen;
  R.NodesRun = First.NodesRun;
  if (O.CompareWith) {
    FreezeOptions Other = *O.CompareWith;
    // The same outputs, fed what the first run was fed.
    if (Other.Outputs.empty())
      for (const auto &[Tensor, Value] : First.Outputs)
        Other.Outputs.push_back(Tensor);
    FROST_ASSIGN_OR_RETURN(run::RunnableModel B, run::loadRunnable(Ctx, Other));
    run::RunOptions Same;
    Same.Inputs = First.Inputs;
    Same.Numeric = O.Numeric;
    FROST_ASSIGN_OR_RETURN(run::RunResult Second, run::runModel(B, Same));
    R.Other = B.Name;
    R.Compared = run::compareRuns(First.Outputs, Second.Outputs, O.Numeric);
  }
  R.Inputs = std::move(First.Inputs);
  R.Outputs = std::move(First.Outputs);
  if (Out) {
    FROST_ASSIGN_OR_RETURN(std::string Bytes, run::encodeNpz(R.Outputs));
    FROST_RETURN_IF_ERROR(Ctx.inputs().checkNotAnInput(O.Output));
    FROST_RETURN_IF_ERROR(Out->writeString(Bytes));
    FROST_RETURN_IF_ERROR(Out->commit());
    R.BytesWritten = Bytes.size();
  }
  R.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  return R;
}

} // namespace frost
