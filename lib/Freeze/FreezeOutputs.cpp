//===- FreezeOutputs.cpp - What a freeze keeps ----------------------------===//
//
// Outputs are node or tensor names, a MetaGraph collection's nodes or a
// signature's outputs (in key order, as TensorFlow's structured outputs);
// a SavedModel without --outputs freezes its one signature or
// serving_default. In a TF2 SavedModel a name may also be a signature's
// output key or a node of its function's graph, which chooses that
// signature. The lookup-table initializers the outputs need are kept too:
// TensorFlow's freezing loses them.
//
//===----------------------------------------------------------------------===//
#include "FreezeInternal.h"

#include "frost/IR/CandidateOutputs.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/TensorName.h"
#include "frost/Pass/AnalysisManager.h"
#include "frost/Support/Suggest.h"
#include "frost/Transforms/Utils/SignatureInstantiation.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace frost {

namespace {

/// Output `Key` of signature `Name`: its tensor, or a sparse or composite
/// tensor's parts.
void appendSignatureOutput(llvm::StringRef Name, llvm::StringRef Key,
                           const tensorflow::TensorInfo &Info, std::vector<FreezeOutput> &Out) {
  std::vector<std::string> Tensors;
  if (Info.has_coo_sparse())
    Tensors = {Info.coo_sparse().indices_tensor_name(), Info.coo_sparse().values_tensor_name(),
               Info.coo_sparse().dense_shape_tensor_name()};
  else if (Info.has_composite_tensor())
    for (const tensorflow::TensorInfo &Part : Info.composite_tensor().components())
      Tensors.push_back(Part.name());
  else
    Tensors.push_back(Info.name());
  for (const std::string &T : Tensors)
    Out.push_back({absl::StrCat("signature ", Name.str(), ": ", Key.str(), " = ", T),
                   nodeOfTensor(T)});
}

absl::Status signatureOutputs(const Model &M, llvm::StringRef Name,
                              std::vector<FreezeOutput> &Out) {
  const tensorflow::MetaGraphDef *Meta = M.metaGraph();
  std::vector<llvm::StringRef> Keys;
  if (Meta)
    for (const auto &Entry : Meta->signature_def())
      Keys.push_back(Entry.first);
  llvm::sort(Keys);
  const tensorflow::SignatureDef *Sig = nullptr;
  if (Meta)
    if (auto It = Meta->signature_def().find(Name.str()); It != Meta->signature_def().end())
      Sig = &It->second;
  if (!Sig) {
    if (Keys.empty())
      return absl::NotFoundError(absl::StrCat("signature '", Name.str(), "': ",
                                              M.sourcePath(), " has no signatures"));
    std::vector<std::string> Close = closestNames(Name, Keys);
    return absl::NotFoundError(absl::StrCat(
        "no signature '", Name.str(), "' in ", M.sourcePath(),
        Close.empty() ? "" : absl::StrCat("; did you mean ", quotedAlternatives(Close), "?"),
        " (signatures: ", llvm::join(Keys, ", "), ")"));
  }
  // In key order, as TensorFlow's structured outputs are.
  std::map<std::string, const tensorflow::TensorInfo *> Sorted;
  for (const auto &[Key, Info] : Sig->outputs())
    Sorted[Key] = &Info;
  for (const auto &[Key, Info] : Sorted)
    appendSignatureOutput(Name, Key, *Info, Out);
  if (Sorted.empty())
    return absl::InvalidArgumentError(
        absl::StrCat("signature '", Name.str(), "' has no outputs"));
  return absl::OkStatus();
}

absl::Status collectionOutputs(const Model &M, llvm::StringRef Name,
                               std::vector<FreezeOutput> &Out) {
  const tensorflow::MetaGraphDef *Meta = M.metaGraph();
  if (!Meta)
    return absl::InvalidArgumentError(absl::StrCat(
        "collection:", Name.str(), ": ", M.sourcePath(),
        " is a bare GraphDef; collections live in a MetaGraph (.meta) or SavedModel"));
  auto It = Meta->collection_def().find(Name.str());
  if (It == Meta->collection_def().end()) {
    std::vector<llvm::StringRef> Keys;
    for (const auto &Entry : Meta->collection_def())
      Keys.push_back(Entry.first);
    llvm::sort(Keys);
    std::vector<std::string> Close = closestNames(Name, Keys);
    return absl::NotFoundError(absl::StrCat(
        "no collection '", Name.str(), "' in ", M.sourcePath(),
        Close.empty() ? "" : absl::StrCat("; did you mean ", quotedAlternatives(Close), "?"),
        " (collections: ", Keys.empty() ? "none" : llvm::join(Keys, ", "), ")"));
  }
  if (!It->second.has_node_list())
    return absl::InvalidArgumentError(absl::StrCat(
        "collection '", Name.str(), "' holds no graph nodes (it is not a node_list)"));
  for (const std::string &T : It->second.node_list().value())
    Out.push_back({absl::StrCat("collection ", Name.str(), ": ", T), nodeOfTensor(T)});
  if (It->second.node_list().value_size() == 0)
    return absl::InvalidArgumentError(absl::StrCat("collection '", Name.str(), "' is empty"));
  return absl::OkStatus();
}

/// The signatures a model serves (not `__saved_model_init_op` and the
/// like), sorted.
std::vector<std::string> servedSignatures(const Model &M) {
  std::vector<std::string> Keys;
  if (M.metaGraph())
    for (const auto &Entry : M.metaGraph()->signature_def())
      if (!llvm::StringRef(Entry.first).starts_with("__"))
        Keys.push_back(Entry.first);
  llvm::sort(Keys);
  return Keys;
}

/// A SavedModel's one signature (or serving_default) is what it serves.
std::string defaultSignature(const Model &M) {
  std::vector<std::string> Keys = servedSignatures(M);
  return Keys.size() == 1                               ? Keys.front()
         : llvm::is_contained(Keys, "serving_default") ? "serving_default"
                                                        : "";
}

} // namespace

/// The node of a tensor name from a collection or signature ("y:0", "^init").
std::string nodeOfTensor(llvm::StringRef Tensor) {
  Tensor.consume_front("^");
  return Tensor.split(':').first.str();
}

/// The signature a run freezes: --signature, a lone `signature:NAME`
/// output, or the default one when no output is named.
std::string requestedSignature(const FreezeOptions &C, const Model &M) {
  if (!C.Signature.empty())
    return C.Signature;
  if (C.Outputs.size() == 1 && llvm::StringRef(C.Outputs[0]).starts_with("signature:"))
    return C.Outputs[0].substr(strlen("signature:"));
  return C.Outputs.empty() ? defaultSignature(M) : "";
}

namespace {

/// What a TF2 signature's outputs may be called: output keys, and the
/// nodes of its function's graph.
struct SignatureNames {
  std::string Name;
  SignatureGraphNames Graph;

  /// Whether `Item` (a key, "node", "node:k" or "^node") names something of
  /// this signature's graph.
  bool holds(const std::string &Item) const {
    return llvm::any_of(Graph.Outputs, [&](const auto &O) { return O.first == Item; }) ||
           llvm::is_contained(Graph.Nodes, nodeOfTensor(Item));
  }
};

/// The served signatures that are calls of library functions (TF2), with
/// their names; those whose body cannot be copied hold only their keys.
std::vector<SignatureNames> functionSignatures(const Model &M) {
  std::vector<SignatureNames> Out;
  for (const std::string &Sig : servedSignatures(M)) {
    if (signatureFunction(M, Sig).empty())
      continue;
    SignatureNames S{Sig, {}};
    if (absl::StatusOr<SignatureGraphNames> Names = signatureGraphNames(M, Sig); Names.ok()) {
      S.Graph = *std::move(Names);
    } else {
      for (const auto &[Key, Info] : M.metaGraph()->signature_def().at(Sig).outputs())
        S.Graph.Outputs.push_back({Key, ""});
      llvm::sort(S.Graph.Outputs);
    }
    Out.push_back(std::move(S));
  }
  return Out;
}

/// `Candidate` (an output key or an output's node) with both its spellings:
/// "'probs' (signature serving_default output, node Identity_1)".
std::string describeOutputName(llvm::StringRef Candidate,
                               const std::vector<SignatureNames> &Sigs) {
  std::vector<std::string> Where;
  for (const SignatureNames &S : Sigs)
    for (const auto &[Key, Tensor] : S.Graph.Outputs) {
      std::string Node = nodeOfTensor(Tensor);
      if (Key == Candidate)
        Where.push_back(Node.empty()
                            ? absl::StrCat("signature ", S.Name, " output")
                            : absl::StrCat("signature ", S.Name, " output, node ", Node));
      else if (Node == Candidate)
        Where.push_back(absl::StrCat("signature ", S.Name, " output ", Key));
    }
  if (Where.empty())
    return absl::StrCat("'", Candidate.str(), "'");
  return absl::StrCat("'", Candidate.str(), "' (", absl::StrJoin(Where, "; "), ")");
}

/// "; did you mean ...?" for `Item` among `Candidates`, in both spellings.
std::string suggestOutputNames(llvm::StringRef Item, std::vector<std::string> Candidates,
                               const std::vector<SignatureNames> &Sigs) {
  llvm::sort(Candidates);
  Candidates.erase(std::unique(Candidates.begin(), Candidates.end()), Candidates.end());
  std::vector<llvm::StringRef> Refs(Candidates.begin(), Candidates.end());
  std::vector<std::string> Described;
  for (const std::string &Name : closestNames(Item, Refs))
    Described.push_back(describeOutputName(Name, Sigs));
  return Described.empty()
             ? ""
             : absl::StrCat("; did you mean ", absl::StrJoin(Described, " or "), "?");
}

/// `Item` is neither an output key of signature `Name` (instantiated as M's
/// graph) nor a node of the graph.
absl::Status unknownSignatureOutput(const Model &M, llvm::StringRef Name,
                                    const tensorflow::SignatureDef &Sig,
                                    const std::string &Item) {
  SignatureNames S{Name.str(), {}};
  for (const auto &[Key, Info] : Sig.outputs())
    S.Graph.Outputs.push_back({Key, Info.name()});
  llvm::sort(S.Graph.Outputs);
  std::vector<std::string> Candidates;
  for (const auto &[Key, Tensor] : S.Graph.Outputs)
    Candidates.push_back(Key);
  for (const Node &N : M.graph())
    Candidates.push_back(N.name().str());
  return absl::NotFoundError(absl::StrCat("output '", Item, "': signature ", Name.str(),
                                          " has no output or node named '", Item, "'",
                                          suggestOutputNames(nodeOfTensor(Item), Candidates, {S})));
}

} // namespace

/// In a TF2 SavedModel run without a signature, the signature that holds
/// every name of --outputs (an output key or a node of its function's
/// graph); "" when the names are for the SavedModel's own graph.
absl::StatusOr<std::string> signatureOfOutputs(const FreezeOptions &C, const Model &M) {
  if (C.Outputs.empty() || llvm::any_of(C.Outputs, [](const std::string &Item) {
        llvm::StringRef Ref(Item);
        return Ref.starts_with("collection:") || Ref.starts_with("signature:");
      }))
    return "";
  std::vector<SignatureNames> Sigs = functionSignatures(M);
  if (Sigs.empty())
    return ""; // TF1: names are node names
  std::vector<std::string> Holding; // signatures holding every name
  for (const SignatureNames &S : Sigs)
    if (llvm::all_of(C.Outputs, [&](const std::string &Item) { return S.holds(Item); }))
      Holding.push_back(S.Name);
  if (Holding.size() == 1)
    return Holding.front();
  // One function served under several names (Keras 3's serve and
  // serving_default) is no ambiguity.
  if (Holding.size() > 1 && llvm::all_of(Holding, [&](const std::string &Sig) {
        return signaturesComputeAlike(M, Holding.front(), Sig);
      }))
    return llvm::is_contained(Holding, "serving_default") ? std::string("serving_default")
                                                          : Holding.front();
  auto quoted = [](llvm::ArrayRef<std::string> Items) {
    return absl::StrJoin(Items, ", ", [](std::string *Out, const std::string &Item) {
      absl::StrAppend(Out, "'", Item, "'");
    });
  };
  if (Holding.size() > 1)
    return absl::InvalidArgumentError(absl::StrCat(
        C.Outputs.size() == 1 ? "output " : "outputs ", quoted(C.Outputs),
        C.Outputs.size() == 1 ? " is" : " are", " in signatures ", absl::StrJoin(Holding, ", "),
        " of ", M.sourcePath(), ": choose one with --signature"));
  // Names of the SavedModel's own graph keep their meaning.
  bool InGraph = llvm::all_of(C.Outputs, [&](const std::string &Item) {
    return resolveTensorName(M.graph(), Item, "output").ok();
  });
  if (InGraph)
    return "";
  std::vector<std::string> Errors, Split;
  std::vector<std::string> Candidates;
  for (const SignatureNames &S : Sigs)
    for (const auto &[Key, Tensor] : S.Graph.Outputs) {
      Candidates.push_back(Key);
      if (!Tensor.empty())
        Candidates.push_back(nodeOfTensor(Tensor));
    }
  std::vector<std::string> SigNames;
  for (const SignatureNames &S : Sigs)
    SigNames.push_back(S.Name);
  for (const std::string &Item : C.Outputs) {
    std::vector<std::string> In;
    for (const SignatureNames &S : Sigs)
      if (S.holds(Item))
        In.push_back(S.Name);
    if (!In.empty()) {
      Split.push_back(absl::StrCat("'", Item, "' (", absl::StrJoin(In, ", "), ")"));
      continue;
    }
    if (resolveTensorName(M.graph(), Item, "output").ok()) {
      Split.push_back(absl::StrCat("'", Item, "' (the SavedModel's graph)"));
      continue;
    }
    Errors.push_back(absl::StrCat("output '", Item, "': no signature of ", M.sourcePath(),
                                  " has an output or node named '", Item, "'",
                                  suggestOutputNames(nodeOfTensor(Item), Candidates, Sigs),
                                  " (signatures: ", absl::StrJoin(SigNames, ", "), ")"));
  }
  if (!Errors.empty())
    return absl::NotFoundError(joinFindings(Errors));
  return absl::InvalidArgumentError(absl::StrCat(
      "outputs ", absl::StrJoin(Split, ", "), " are in no one signature of ", M.sourcePath(),
      ": freeze one signature at a time (--signature)"));
}

/// The output nodes: what --outputs names, else the signature's outputs.
absl::StatusOr<std::vector<FreezeOutput>> resolveFreezeOutputs(const FreezeOptions &C,
                                                               const Model &M,
                                                               llvm::StringRef KeySignature,
                                                               std::vector<std::string> &Notes) {
  const tensorflow::SignatureDef *Keyed = nullptr;
  if (!KeySignature.empty() && M.metaGraph())
    if (auto It = M.metaGraph()->signature_def().find(KeySignature.str());
        It != M.metaGraph()->signature_def().end())
      Keyed = &It->second;
  auto keyedOutput = [Keyed](const std::string &Key) -> const tensorflow::TensorInfo * {
    if (!Keyed)
      return nullptr;
    auto It = Keyed->outputs().find(Key);
    return It == Keyed->outputs().end() ? nullptr : &It->second;
  };
  std::vector<FreezeOutput> Out;
  std::vector<std::string> Errors;
  for (const std::string &Item : C.Outputs) {
    llvm::StringRef Ref(Item);
    absl::Status S;
    if (Ref.consume_front("collection:")) {
      S = collectionOutputs(M, Ref, Out);
    } else if (Ref.consume_front("signature:")) {
      S = signatureOutputs(M, Ref, Out);
    } else if (const tensorflow::TensorInfo *Info = keyedOutput(Item)) {
      appendSignatureOutput(KeySignature, Item, *Info, Out);
    } else {
      absl::StatusOr<TensorRef> T = resolveTensorName(M.graph(), Item, "output");
      if (T.ok())
        Out.push_back({Item, T->N->name().str()});
      S = T.status();
      if (Keyed && absl::IsNotFound(S))
        S = unknownSignatureOutput(M, KeySignature, *Keyed, Item);
    }
    if (!S.ok())
      Errors.push_back(std::string(S.message()));
  }
  if (Out.empty() && Errors.empty() && !C.Signature.empty())
    if (absl::Status S = signatureOutputs(M, C.Signature, Out); !S.ok())
      Errors.push_back(std::string(S.message()));
  if (Out.empty() && Errors.empty() && M.kind() == ContainerKind::SavedModel) {
    std::string Chosen = defaultSignature(M);
    if (!Chosen.empty()) {
      Notes.push_back(absl::StrCat("no --outputs: freezing for signature '", Chosen,
                                   "' (use --signature or --outputs to choose)"));
      if (absl::Status S = signatureOutputs(M, Chosen, Out); !S.ok())
        Errors.push_back(std::string(S.message()));
    }
  }
  if (!Errors.empty())
    return absl::NotFoundError(joinFindings(Errors));
  if (Out.empty() && M.kind() == ContainerKind::SavedModel) {
    std::vector<std::string> Keys = servedSignatures(M);
    if (!Keys.empty())
      return absl::InvalidArgumentError(absl::StrCat(
          M.sourcePath(), " has ", Keys.size(),
          " signatures and none is serving_default: choose one with --signature (",
          absl::StrJoin(Keys, ", "), ") or give --outputs"));
  }
  if (Out.empty()) {
    std::vector<std::string> Candidates;
    for (std::string &Name : candidateOutputs(M))
      if (!isVariableOp(M.graph().findNode(Name)->op()))
        Candidates.push_back(std::move(Name));
    std::string List = absl::StrJoin(llvm::ArrayRef(Candidates).take_front(8), ", ");
    return absl::InvalidArgumentError(absl::StrCat(
        "no outputs: give --outputs (freeze_graph.py: --output_node_names)",
        Candidates.empty() ? ""
                           : absl::StrCat("; nodes nothing reads: ", List,
                                          Candidates.size() > 8 ? ", ..." : "")));
  }
  // Each node once, in the order first named.
  std::vector<FreezeOutput> Unique;
  for (FreezeOutput &O : Out)
    if (llvm::none_of(Unique, [&](const FreezeOutput &U) { return U.Node == O.Node; }))
      Unique.push_back(std::move(O));
  return Unique;
}

/// The initializers of the lookup tables the outputs read, and the model's
/// init op when it initializes nothing but tables: TensorFlow's freezing
/// drops them and the frozen graph fails with "Table not initialized".
std::vector<std::string> tableInitializers(const Model &M, const std::vector<std::string> &Keep,
                                           AnalysisManager &Analyses) {
  const Graph &G = M.graph();
  absl::StatusOr<const std::vector<bool> *> Needed = Analyses.nodesNeededBy(G, Keep);
  if (!Needed.ok())
    return {};
  std::vector<std::string> Out;
  for (const Node &N : G)
    if (isTableInitializerOp(N.op()) && N.numDataInputs() > 0 &&
        (**Needed)[N.inputs()[0].Src->id()] && !(**Needed)[N.id()])
      Out.push_back(N.name().str());
  if (Out.empty())
    return Out;
  // The init op a SavedModel names, kept when it runs only these.
  std::vector<std::string> InitOps;
  if (const tensorflow::MetaGraphDef *Meta = M.metaGraph()) {
    if (auto It = Meta->signature_def().find("__saved_model_init_op");
        It != Meta->signature_def().end())
      for (const auto &Entry : It->second.outputs())
        InitOps.push_back(nodeOfTensor(Entry.second.name()));
    for (const char *Name : {"saved_model_main_op", "legacy_init_op"})
      if (auto It = Meta->collection_def().find(Name); It != Meta->collection_def().end())
        for (const std::string &T : It->second.node_list().value())
          InitOps.push_back(nodeOfTensor(T));
  }
  for (const std::string &Init : InitOps) {
    const Node *N = G.findNode(Init);
    if (!N || llvm::is_contained(Out, Init))
      continue;
    absl::StatusOr<const std::vector<bool> *> Runs = Analyses.nodesNeededBy(G, {Init});
    if (!Runs.ok())
      continue;
    bool OnlyTables = true;
    for (const Node &R : G)
      if ((**Runs)[R.id()] && (isVariableOp(R.op()) ||
                              (isTableInitializerOp(R.op()) && !llvm::is_contained(Out, R.name()))))
        OnlyTables = false;
    if (OnlyTables)
      Out.push_back(Init);
  }
  return Out;
}

} // namespace frost
