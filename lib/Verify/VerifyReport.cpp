//===- VerifyReport.cpp - A verification's report, text and JSON ----------===//
#include "VerifyInternal.h"

#include "frost/Inspect/ValueFormat.h"
#include "frost/Support/Json.h"
#include "frost/Tensor/Shape.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>

namespace frost::verify {

using namespace detail;

namespace {

std::string noKernelText(const std::map<std::string, std::vector<std::string>> &NoKernel) {
  std::vector<std::string> Parts;
  for (const auto &[Op, Nodes] : NoKernel) {
    std::vector<std::string> Shown(Nodes.begin(), Nodes.begin() + std::min<size_t>(Nodes.size(), 3));
    Parts.push_back(absl::StrCat(Op, " (", absl::StrJoin(Shown, ", "),
                                 Nodes.size() > 3 ? absl::StrCat(", ", Nodes.size() - 3, " more")
                                                  : "",
                                 ")"));
  }
  return absl::StrJoin(Parts, "; ");
}

std::string notCheckedText(const VerifyReport &R) {
  size_t Unchecked = R.unchecked();
  std::string Text = absl::StrCat(
      "NOT CHECKED numerically: ",
      R.NumericRun ? absl::StrCat(Unchecked, Unchecked == 1 ? " output" : " outputs")
                   : std::string("every output"));
  if (!R.NoKernel.empty())
    absl::StrAppend(&Text, " (no kernel for ", noKernelText(R.NoKernel), ")");
  return Text;
}

/// What fails the verdict when only outputs NOT CHECKED do.
std::string uncheckedFailureText(const VerifyReport &R) {
  return absl::StrCat(notCheckedText(R), "; --allow-unchecked passes what was checked");
}

/// "check: 'node' message".
std::string findingText(const Finding &F) {
  return absl::StrCat(F.Check, ": ", F.Node.empty() ? std::string() : inQuotes(F.Node) + " ",
                      F.Message);
}

/// One line per finding; when only outputs NOT CHECKED fail the verdict,
/// one line saying so (naming the ops without kernels).
void printFindings(llvm::raw_ostream &OS, const VerifyReport &R) {
  for (const Finding &F : R.Findings)
    OS << "error: " << R.Frozen << ": " << findingText(F) << "\n";
  if (R.Findings.empty() && !R.passed())
    OS << "error: " << R.Frozen << ": " << uncheckedFailureText(R) << "\n";
}

} // namespace

std::string verdictText(const VerifyReport &R, llvm::StringRef Tool) {
  std::string Unchecked = R.complete() ? "" : notCheckedText(R);
  if (!R.Findings.empty())
    return absl::StrCat(Tool.str(), ": FAILED: ", R.Findings.size(),
                        R.Findings.size() == 1 ? " finding" : " findings",
                        Unchecked.empty() ? "" : "; ", Unchecked);
  if (R.complete())
    return absl::StrCat(Tool.str(), ": PASSED");
  if (!R.NumericAsked)
    return absl::StrCat(Tool.str(), ": PASSED what was checked; NOT CHECKED numerically "
                                    "(--no-numeric)");
  if (R.AllowUnchecked)
    return absl::StrCat(Tool.str(), ": PASSED what was checked (--allow-unchecked); ", Unchecked);
  return absl::StrCat(Tool.str(), ": FAILED: ", uncheckedFailureText(R));
}

std::string failureText(const VerifyReport &R) {
  if (R.Findings.empty())
    return uncheckedFailureText(R);
  return absl::StrCat(R.Findings.size(), R.Findings.size() == 1 ? " finding" : " findings",
                      ", the first: ", findingText(R.Findings.front()));
}

void printOutputCheck(llvm::raw_ostream &OS, const OutputCheck &O, llvm::StringRef Got,
                      llvm::StringRef Want) {
  OS << O.DType << " " << formatShape(O.Shape) << ": ";
  std::string Worst = worstText(O, Got, Want);
  if (O.Exact) {
    OS << O.Differing << " of " << O.Elements << " differ (compared exactly)"
       << (Worst.empty() ? "" : "; ") << Worst << "\n";
    return;
  }
  // A failing element is never printed beside a passing verdict: the line
  // says how many are outside the tolerance and which is worst.
  OS << (O.Differing ? "FAILED: " : "") << O.Differing << " of " << O.Elements
     << " values outside " << toleranceText(O, Want) << "; max abs diff " << formatDiff(O.MaxAbs)
     << (Worst.empty() ? "" : "; ") << Worst << "\n";
}

void printVerifyReport(llvm::raw_ostream &OS, const VerifyReport &R, llvm::StringRef Tool,
                       bool FindingsOnly) {
  if (FindingsOnly) {
    printFindings(OS, R);
    return;
  }
  OS << Tool << ": " << R.Frozen << " against " << R.Source
     << (R.Checkpoint.empty() ? std::string() : absl::StrCat(" (checkpoint ", R.Checkpoint, ")"))
     << "\n";
  OS << "constants: " << R.ConstantsChecked
     << (R.ConstantsChecked == 1 ? " frozen variable" : " frozen variables")
     << " compared with the checkpoint";
  if (R.ConstantsAbsent)
    OS << " (" << R.ConstantsAbsent << " folded into other constants or not needed)";
  OS << "; " << R.SourceConstantsChecked
     << (R.SourceConstantsChecked == 1 ? " constant" : " constants")
     << " of the source compared with it\n";
  if (!R.OutputsChosen.empty())
    OS << "outputs: " << absl::StrJoin(R.OutputNames, ", ") << " (no --outputs: "
       << R.OutputsChosen << ")\n";
  OS << "structure: " << R.NodesReached << " nodes reached from the outputs; ";
  OS << R.EdgesTyped << " edge dtypes checked against OpDefs\n";
  if (!R.NumericRun) {
    OS << "numeric: not run\n";
  } else {
    std::vector<std::string> Inputs;
    for (const FedInput &I : R.Inputs)
      Inputs.push_back(absl::StrCat(I.Node, " ", I.DType, " ", formatShape(I.Shape)));
    OS << "numeric: inputs " << (Inputs.empty() ? "none" : absl::StrJoin(Inputs, ", "))
       << " (seed " << R.Seed << ")\n";
    for (const OutputCheck &O : R.Outputs) {
      if (!O.NotChecked.empty()) {
        OS << "  " << O.Tensor << ": NOT CHECKED: " << O.NotChecked << "\n";
        continue;
      }
      if (!O.Failed.empty()) {
        OS << "  " << O.Tensor << ": FAILED: cannot be computed: " << O.Failed << "\n";
        continue;
      }
      OS << "  " << O.Tensor << " ";
      printOutputCheck(OS, O);
    }
    if (!R.NoKernel.empty())
      OS << "numeric: no kernel for " << noKernelText(R.NoKernel) << "\n";
  }
  printFindings(OS, R);
  OS << verdictText(R, Tool) << "\n";
}

std::string verifyReportJson(const VerifyReport &R) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  {
    JsonWriter J(OS);
    auto number = [&J](double V) {
      if (std::isinf(V))
        J.string("inf");
      else
        J.raw(inspect::formatDouble(V, inspect::Style::Json));
    };
    J.objectBegin();
    J.member("frozen", R.Frozen);
    J.member("source", R.Source);
    J.member("checkpoint", R.Checkpoint);
    J.key("passed");
    J.boolean(R.passed());
    J.key("complete");
    J.boolean(R.complete());
    J.key("allow_unchecked");
    J.boolean(R.AllowUnchecked);
    J.key("constants");
    J.objectBegin();
    J.key("compared");
    J.number(static_cast<uint64_t>(R.ConstantsChecked));
    J.key("absent");
    J.number(static_cast<uint64_t>(R.ConstantsAbsent));
    J.key("source_compared");
    J.number(static_cast<uint64_t>(R.SourceConstantsChecked));
    J.objectEnd();
    J.key("structure");
    J.objectBegin();
    J.key("nodes_reached");
    J.number(static_cast<uint64_t>(R.NodesReached));
    J.key("op_defs");
    J.boolean(R.HasOpDefs);
    J.key("edges_typed");
    J.number(static_cast<uint64_t>(R.EdgesTyped));
    J.objectEnd();
    J.key("numeric");
    J.objectBegin();
    J.key("run");
    J.boolean(R.NumericRun);
    J.key("seed");
    J.number(R.Seed);
    J.member("outputs_chosen", R.OutputsChosen);
    J.key("inputs");
    J.arrayBegin();
    for (const FedInput &I : R.Inputs) {
      J.objectBegin();
      J.member("node", I.Node);
      J.member("dtype", I.DType);
      J.key("shape");
      J.inlineArray(I.Shape);
      J.objectEnd();
    }
    J.arrayEnd();
    J.key("outputs");
    J.arrayBegin();
    for (const OutputCheck &O : R.Outputs) {
      J.objectBegin();
      J.member("tensor", O.Tensor);
      if (!O.NotChecked.empty()) {
        J.member("not_checked", O.NotChecked);
      } else if (!O.Failed.empty()) {
        J.member("failed", O.Failed);
      } else {
        J.member("dtype", O.DType);
        J.key("shape");
        J.inlineArray(O.Shape);
        J.key("values");
        J.number(O.Elements);
        J.key("differing");
        J.number(O.Differing);
        J.key("exact");
        J.boolean(O.Exact);
        J.key("max_abs_diff");
        number(O.MaxAbs);
        if (!O.Exact) {
          J.key("atol");
          number(O.Atol);
          J.key("rtol");
          number(O.Rtol);
          J.key("below_atol");
          J.boolean(O.BelowAtol);
        }
        if (O.Worst) {
          J.key("worst");
          J.objectBegin();
          J.key("index");
          J.inlineArray(O.Worst->Index);
          J.member("frozen", O.Worst->Frozen);
          J.member("source", O.Worst->Source);
          if (!O.Exact) {
            J.key("abs_diff");
            number(O.Worst->Abs);
            J.key("rel_diff");
            number(O.Worst->Rel);
          }
          J.objectEnd();
        }
      }
      J.objectEnd();
    }
    J.arrayEnd();
    J.key("no_kernel");
    J.objectBegin();
    for (const auto &[Op, Nodes] : R.NoKernel) {
      J.key(Op);
      J.inlineArray(Nodes);
    }
    J.objectEnd();
    J.objectEnd();
    J.key("findings");
    J.arrayBegin();
    for (const Finding &F : R.Findings) {
      J.objectBegin();
      J.member("check", F.Check);
      J.member("node", F.Node);
      J.member("message", F.Message);
      J.objectEnd();
    }
    J.arrayEnd();
    J.objectEnd();
  }
  return Text;
}

} // namespace frost::verify
