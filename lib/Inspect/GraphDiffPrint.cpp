//===- GraphDiffPrint.cpp - A graph diff as text or JSON ------------------===//
//
// Both printers list the same findings in the same order: nodes added,
// removed, renamed, changed (each group by name), then functions,
// signatures and graph fields.
//
//===----------------------------------------------------------------------===//
#include "frost/Inspect/GraphDiff.h"

#include "frost/Inspect/ValueFormat.h"
#include "frost/Support/Json.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <tuple>

namespace frost::inspect {

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

namespace {

/// Findings are listed added, removed, renamed, changed.
int statusRank(NodeStatus S) {
  switch (S) {
  case NodeStatus::Added:
    return 0;
  case NodeStatus::Removed:
    return 1;
  case NodeStatus::Renamed:
    return 2;
  case NodeStatus::Changed:
    return 3;
  case NodeStatus::Same:
    break;
  }
  return 4;
}

/// The nodes that differ, in the order they are listed: by status, then
/// by name.
std::vector<const NodeDiff *> listedNodes(const GraphDiff &D) {
  std::vector<const NodeDiff *> Out;
  for (const NodeDiff &N : D.Nodes)
    if (N.Status != NodeStatus::Same)
      Out.push_back(&N);
  llvm::sort(Out, [](const NodeDiff *X, const NodeDiff *Y) {
    return std::make_tuple(statusRank(X->Status), llvm::StringRef(X->name()),
                           llvm::StringRef(X->NameA)) <
           std::make_tuple(statusRank(Y->Status), llvm::StringRef(Y->name()),
                           llvm::StringRef(Y->NameA));
  });
  return Out;
}

std::string orNone(const std::optional<std::string> &S) {
  return S && !S->empty() ? *S : "<none>";
}

std::string formatMaxDiff(double V) {
  if (std::isnan(V))
    return "nan";
  std::string Out;
  llvm::raw_string_ostream(Out) << llvm::format("%.6g", V);
  return Out;
}

std::string describeValue(const ValueDiff &V) {
  if (V.TypeA != V.TypeB)
    return V.TypeA + " -> " + V.TypeB;
  if (V.OnlyBits)
    return V.TypeA + ": same values, different bits (signed zeros or NaN payloads)";
  std::string Out = absl::StrCat(V.TypeA, ": ", V.Differing, " of ", V.Elements,
                                 V.Elements == 1 ? " element differs" : " elements differ");
  if (V.MaxAbsDiff)
    absl::StrAppend(&Out, ", max abs diff ", formatMaxDiff(*V.MaxAbsDiff));
  if (!V.ValuesA.empty() && !V.ValuesB.empty())
    absl::StrAppend(&Out, " (", V.ValuesA, " -> ", V.ValuesB, ")");
  return Out;
}

std::string describeChange(const NodeChange &C) {
  switch (C.TheKind) {
  case NodeChange::Op:
    return absl::StrCat("op ", orNone(C.Old), " -> ", orNone(C.New));
  case NodeChange::Device:
    return absl::StrCat("device ", orNone(C.Old), " -> ", orNone(C.New));
  case NodeChange::Attr:
    return absl::StrCat("attr ", C.Name, ": ", orNone(C.Old), " -> ", orNone(C.New));
  case NodeChange::Value:
    return absl::StrCat(C.Name == "value" ? "value" : "attr " + C.Name + " value", ": ",
                        describeValue(C.Values));
  case NodeChange::Input:
    return absl::StrCat("input ", C.Name, ": ", orNone(C.Old), " -> ", orNone(C.New));
  case NodeChange::ControlInputs: {
    std::string Out = "control inputs:";
    for (const std::string &N : C.AddedControls)
      absl::StrAppend(&Out, " +^", N);
    for (const std::string &N : C.RemovedControls)
      absl::StrAppend(&Out, " -^", N);
    return Out;
  }
  }
  return "";
}

std::string describeEntry(const EntryDiff &E) {
  std::string Out = E.What;
  if (E.Old || E.New)
    absl::StrAppend(&Out, ": ", orNone(E.Old), " -> ", orNone(E.New));
  return Out;
}

/// Every finding line but the node-level ones' order is fixed here.
std::vector<std::string> findingLines(const GraphDiff &D) {
  std::vector<std::string> Lines;
  for (const NodeDiff *N : listedNodes(D)) {
    switch (N->Status) {
    case NodeStatus::Added:
      Lines.push_back(absl::StrCat("added: ", N->NameB, " (", N->OpB, ")"));
      break;
    case NodeStatus::Removed:
      Lines.push_back(absl::StrCat("removed: ", N->NameA, " (", N->OpA, ")"));
      break;
    case NodeStatus::Renamed:
      Lines.push_back(absl::StrCat("renamed: ", N->NameA, " -> ", N->NameB, " (", N->OpB, ")"));
      break;
    default:
      break;
    }
    for (const NodeChange &C : N->Changes)
      Lines.push_back(
          absl::StrCat("changed: ", N->NameB, " (", N->OpB, "): ", describeChange(C)));
  }
  for (const EntryDiff &F : D.Functions)
    Lines.push_back(F.Status == NodeStatus::Changed
                        ? absl::StrCat("function changed: ", F.Name, ": ", describeEntry(F))
                        : absl::StrCat("function ", nodeStatusName(F.Status).str(), ": ", F.Name));
  for (const EntryDiff &S : D.Signatures)
    Lines.push_back(S.Status == NodeStatus::Changed
                        ? absl::StrCat("signature changed: ", S.Name, ": ", describeEntry(S))
                        : absl::StrCat("signature ", nodeStatusName(S.Status).str(), ": ", S.Name));
  for (const EntryDiff &G : D.GraphFields)
    Lines.push_back(absl::StrCat("graph changed: ", describeEntry(G)));
  return Lines;
}

std::string describeSide(const DiffSide &S) {
  return absl::StrCat(S.File, " (", containerKindName(S.Kind).str(), ", ",
                      plural(S.Nodes, "node"), ", ", plural(S.Functions, "function"), ")");
}

} // namespace

void printGraphDiff(const GraphDiff &D, const DiffPrintOptions &P, llvm::raw_ostream &OS) {
  OS << "--- " << describeSide(D.A) << "\n";
  OS << "+++ " << describeSide(D.B) << "\n";
  OS << D.count(NodeStatus::Added) << " added, " << D.count(NodeStatus::Removed) << " removed, "
     << D.count(NodeStatus::Renamed) << " renamed, " << D.changedNodes() << " changed\n";
  if (!D.Functions.empty()) {
    auto functions = [&](NodeStatus S) {
      return llvm::count_if(D.Functions, [S](const EntryDiff &F) { return F.Status == S; });
    };
    OS << "functions: " << functions(NodeStatus::Added) << " added, "
       << functions(NodeStatus::Removed) << " removed, " << functions(NodeStatus::Changed)
       << " changed\n";
  }
  std::vector<std::string> Lines = findingLines(D);
  size_t Shown = P.MaxFindings ? std::min(P.MaxFindings, Lines.size()) : Lines.size();
  for (size_t I = 0; I < Shown; ++I)
    OS << Lines[I] << "\n";
  if (Shown < Lines.size())
    OS << "... and " << plural(Lines.size() - Shown, "more finding") << "\n";
}

//===----------------------------------------------------------------------===//
// JSON (schema also in docs/verify.md)
//
//   {"a": SIDE, "b": SIDE, "identical": bool,
//    "summary": {"added", "removed", "renamed", "changed", "functions",
//                "signatures", "graph"},
//    "nodes": [{"status", "a": name|null, "b": name|null, "op",
//               "changes": [CHANGE]}],
//    "functions": [{"name", "status", "what", "old", "new"}],
//    "signatures": [{"key", "status", "what", "old", "new"}],
//    "graph": [{"field", "status", "what", "old", "new"}],
//    "omitted": int}
//   SIDE = {"file", "container", "nodes", "functions"}
//   CHANGE = {"kind": "op"|"device"|"attr"|"input", "name"?, "old", "new"}
//          | {"kind": "value", "name", "old", "new", "elements", "differing",
//             "max_abs_diff": number|"nan"|null, "only_bits", "old_values"?,
//             "new_values"?}
//          | {"kind": "control_inputs", "added": [name], "removed": [name]}
//===----------------------------------------------------------------------===//

namespace {

void optionalString(JsonWriter &J, llvm::StringRef Key, const std::optional<std::string> &S) {
  J.key(Key);
  if (S)
    J.string(*S);
  else
    J.null();
}

void writeSide(JsonWriter &J, const DiffSide &S) {
  J.objectBegin();
  J.member("file", S.File);
  J.member("container", containerKindName(S.Kind));
  J.member("nodes", static_cast<uint64_t>(S.Nodes));
  J.member("functions", S.Functions);
  J.objectEnd();
}

const char *changeKindName(NodeChange::Kind K) {
  switch (K) {
  case NodeChange::Op:
    return "op";
  case NodeChange::Device:
    return "device";
  case NodeChange::Attr:
    return "attr";
  case NodeChange::Value:
    return "value";
  case NodeChange::Input:
    return "input";
  case NodeChange::ControlInputs:
    return "control_inputs";
  }
  return "";
}

void writeChange(JsonWriter &J, const NodeChange &C) {
  J.objectBegin();
  J.member("kind", changeKindName(C.TheKind));
  switch (C.TheKind) {
  case NodeChange::Attr:
    J.member("name", C.Name);
    [[fallthrough]];
  case NodeChange::Op:
  case NodeChange::Device:
    optionalString(J, "old", C.Old);
    optionalString(J, "new", C.New);
    break;
  case NodeChange::Input:
    J.key("index");
    J.raw(C.Name);
    optionalString(J, "old", C.Old);
    optionalString(J, "new", C.New);
    break;
  case NodeChange::Value: {
    const ValueDiff &V = C.Values;
    J.member("name", C.Name);
    J.member("old", V.TypeA);
    J.member("new", V.TypeB);
    J.member("elements", V.Elements);
    J.member("differing", V.Differing);
    J.key("max_abs_diff");
    if (!V.MaxAbsDiff)
      J.null();
    else if (std::isnan(*V.MaxAbsDiff))
      J.string("nan");
    else
      J.raw(formatDouble(*V.MaxAbsDiff, Style::Json));
    J.member("only_bits", V.OnlyBits);
    if (!V.ValuesA.empty() && !V.ValuesB.empty()) {
      J.member("old_values", V.ValuesA);
      J.member("new_values", V.ValuesB);
    }
    break;
  }
  case NodeChange::ControlInputs:
    J.key("added");
    J.inlineArray(C.AddedControls);
    J.key("removed");
    J.inlineArray(C.RemovedControls);
    break;
  }
  J.objectEnd();
}

void writeEntry(JsonWriter &J, const EntryDiff &E, llvm::StringRef NameKey) {
  J.objectBegin();
  J.member(NameKey, E.Name);
  J.member("status", nodeStatusName(E.Status));
  J.member("what", E.What);
  optionalString(J, "old", E.Old);
  optionalString(J, "new", E.New);
  J.objectEnd();
}

} // namespace

void printGraphDiffJson(const GraphDiff &D, const DiffPrintOptions &P, llvm::raw_ostream &OS) {
  JsonWriter J(OS);
  J.objectBegin();
  J.key("a");
  writeSide(J, D.A);
  J.key("b");
  writeSide(J, D.B);
  J.member("identical", D.identical());
  J.key("summary");
  J.objectBegin();
  for (NodeStatus S : {NodeStatus::Added, NodeStatus::Removed, NodeStatus::Renamed})
    J.member(nodeStatusName(S), static_cast<uint64_t>(D.count(S)));
  J.member("changed", static_cast<uint64_t>(D.changedNodes()));
  J.member("functions", static_cast<uint64_t>(D.Functions.size()));
  J.member("signatures", static_cast<uint64_t>(D.Signatures.size()));
  J.member("graph", static_cast<uint64_t>(D.GraphFields.size()));
  J.objectEnd();

  // --max-findings counts entries here: nodes, then functions, signatures
  // and graph fields.
  size_t Budget = P.MaxFindings ? P.MaxFindings : SIZE_MAX, Omitted = 0;
  auto take = [&] {
    if (Budget == 0) {
      ++Omitted;
      return false;
    }
    --Budget;
    return true;
  };
  J.key("nodes");
  J.arrayBegin();
  for (const NodeDiff *N : listedNodes(D)) {
    if (!take())
      continue;
    J.objectBegin();
    J.member("status", nodeStatusName(N->Status));
    for (auto [Key, Name] : {std::pair{"a", &N->NameA}, std::pair{"b", &N->NameB}})
      optionalString(J, Key, Name->empty() ? std::nullopt : std::optional(*Name));
    J.member("op", N->op());
    J.key("changes");
    J.arrayBegin();
    for (const NodeChange &C : N->Changes)
      writeChange(J, C);
    J.arrayEnd();
    J.objectEnd();
  }
  J.arrayEnd();
  for (auto [Key, Entries, NameKey] :
       {std::tuple{"functions", &D.Functions, "name"}, std::tuple{"signatures", &D.Signatures, "key"},
        std::tuple{"graph", &D.GraphFields, "field"}}) {
    J.key(Key);
    J.arrayBegin();
    for (const EntryDiff &E : *Entries)
      if (take())
        writeEntry(J, E, NameKey);
    J.arrayEnd();
  }
  J.member("omitted", static_cast<uint64_t>(Omitted));
  J.objectEnd();
}

std::string graphDiffHtml(const GraphDiff &D, const Model &A, const Model &B) {
  GraphPanel Panels[2] = {{absl::StrCat("A: ", D.A.File), &A.graph(), {}, {}, {}},
                          {absl::StrCat("B: ", D.B.File), &B.graph(), {}, {}, {}}};
  for (const NodeDiff &N : D.Nodes) {
    bool Changed = N.Status == NodeStatus::Changed ||
                   (N.Status == NodeStatus::Renamed && !N.Changes.empty());
    if (N.Status == NodeStatus::Removed)
      Panels[0].Marks[N.NameA] = NodeMark::Removed;
    else if (N.Status == NodeStatus::Added)
      Panels[1].Marks[N.NameB] = NodeMark::Added;
    else if (Changed) {
      Panels[0].Marks[N.NameA] = NodeMark::Changed;
      Panels[1].Marks[N.NameB] = NodeMark::Changed;
    }
  }
  return graphHtml(Panels, "frost-diff");
}

} // namespace frost::inspect
