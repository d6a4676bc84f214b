//===- FreezeReport.cpp - Writing a frozen graph and its report -----------===//
//
// The report (docs/freeze-graph.md) is built from a FreezeResult alone,
// through Support/Json (LLVM's JSON writer). Short lists (tags, shapes) stay
// on one line so a report reads like the documentation's example.
//
//===----------------------------------------------------------------------===//
#include "FreezeInternal.h"

#include "frost/IR/OpClasses.h"
#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"
#include "frost/Support/File.h"
#include "frost/Support/Json.h"
#include "frost/Support/Version.h"

#include "absl/strings/str_join.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

namespace frost {

std::vector<FrozenVariable> frozenVariables(const Model &M) {
  std::vector<FrozenVariable> Out;
  for (const auto &[Name, Source] : M.variableSources()) {
    const Node *N = M.graph().findNode(Name);
    if (!N || N->op() != "Const")
      continue;
    const tensorflow::AttrValue *Value = N->findAttr("value");
    if (!Value)
      continue;
    const tensorflow::TensorProto &T = Value->tensor();
    FrozenVariable V{Name, Source, T.dtype(), {}, 0};
    for (const auto &D : T.tensor_shape().dim())
      V.Shape.push_back(D.size());
    if (const ExternalContent *Ext = N->externalContent("value"))
      V.Bytes = Ext->Bytes.size();
    else if (size_t Elem = dataTypeSize(T.dtype()); Elem && numElements(V.Shape).ok())
      V.Bytes = *numElements(V.Shape) * Elem;
    else
      V.Bytes = T.ByteSizeLong();
    Out.push_back(std::move(V));
  }
  return Out;
}

std::vector<FreezeResult::LeftVariable> leftVariables(const Model &M) {
  std::vector<FreezeResult::LeftVariable> Out;
  for (const auto &[Name, Source] : M.variableSources())
    if (const Node *N = M.graph().findNode(Name); N && isVariableOp(N->op()))
      Out.push_back({Name, N->op().str(), Source});
  return Out;
}

absl::Status checkFrozenGraphSize(const FreezeResult &Result, llvm::StringRef Path,
                                  uint64_t SizeLimit) {
  uint64_t Size = encodedModelSize(*Result.M);
  if (Size <= SizeLimit)
    return absl::OkStatus();
  // The frozen variables whose Const is still in the graph (--optimize may
  // have folded some away), by the bytes that Const takes.
  std::vector<std::pair<uint64_t, llvm::StringRef>> Biggest;
  for (const FrozenVariable &V : Result.Frozen)
    if (const Node *N = Result.M->graph().findNode(V.Name); N && N->op() == "Const")
      Biggest.emplace_back(encodedNodeSize(*N), V.Name);
  llvm::sort(Biggest, [](const auto &A, const auto &B) {
    return A.first != B.first ? A.first > B.first : A.second < B.second;
  });
  std::vector<std::string> Constants;
  for (const auto &[Bytes, Name] : llvm::ArrayRef(Biggest).take_front(5))
    Constants.push_back(absl::StrCat("'", Name.str(), "' ", formatBytes(Bytes)));
  // Left unfrozen, a variable's Const goes; its variable node (and reads)
  // take back less than this margin.
  constexpr uint64_t NodeMargin = 1024;
  std::vector<std::string> Except;
  uint64_t Left = Size;
  for (const auto &[Bytes, Name] : Biggest) {
    if (Left <= SizeLimit)
      break;
    Except.push_back(Name.str());
    Left -= std::min(Left, Bytes > NodeMargin ? Bytes - NodeMargin : 0);
  }
  std::string Head = absl::StrCat(
      Path.str(), ": the frozen GraphDef would be ", formatBytes(Size), " (", Size,
      " bytes), over protobuf's limit of ", SizeLimit,
      " bytes, so TensorFlow could not load it; biggest constants: ",
      Constants.empty() ? std::string("none") : absl::StrJoin(Constants, ", "));
  if (Except.empty() || Left > SizeLimit)
    return absl::ResourceExhaustedError(absl::StrCat(
        Head, "; leaving every variable unfrozen would not bring it under the limit: keep the "
              "model as a SavedModel"));
  return absl::ResourceExhaustedError(absl::StrCat(
      // Quoted, with spaces (lists drop them): copied into a shell as one
      // argument, and no word of the message is too long to print whole.
      Head, "; to stay under it, leave the biggest variables unfrozen: --except '",
      absl::StrJoin(Except, ", "), "'",
      " (they keep their values in the checkpoint, restored when loading: docs/freeze-graph.md, "
      "\"Over 2 GiB\")"));
}

absl::StatusOr<FrozenFile> writeFrozenGraph(const FreezeResult &Result, OutputFile &Out,
                                            FrozenFormat Format, bool Hash, uint64_t SizeLimit) {
  if (Format == FrozenFormat::Binary)
    FROST_RETURN_IF_ERROR(checkFrozenGraphSize(Result, Out.path(), SizeLimit));
  WriteOptions Write;
  Write.Enc = Format == FrozenFormat::Text ? Encoding::Text : Encoding::Binary;
  Write.SizeLimit = SizeLimit;
  Write.Hash = Hash;
  FROST_RETURN_IF_ERROR(writeModel(*Result.M, Out, Write));
  return FrozenFile{Out.path(), Format, Out.written().Bytes, Out.written().Sha256};
}

absl::StatusOr<FrozenFile> writeFrozenGraph(Context &Ctx, const FreezeResult &Result,
                                            llvm::StringRef Path, FrozenFormat Format, bool Hash,
                                            uint64_t SizeLimit) {
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<OutputFile> Out, OutputFile::prepare(Ctx, Path));
  FROST_ASSIGN_OR_RETURN(FrozenFile F, writeFrozenGraph(Result, *Out, Format, Hash, SizeLimit));
  FROST_RETURN_IF_ERROR(Out->commit());
  return F;
}

std::string freezeReportJson(const FreezeResult &R, const FrozenFile &Output,
                             const TimingReport &Timing, double TotalSeconds) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  {
    JsonWriter J(OS);
    J.objectBegin();
    J.member("tool", frostVersion());
    J.key("input");
    J.objectBegin();
    J.member("graph", R.GraphPath);
    J.member("container", containerKindName(R.Container));
    J.key("checkpoint");
    if (R.Checkpoint.empty())
      J.null();
    else
      J.string(R.Checkpoint);
    if (R.Container == ContainerKind::SavedModel) {
      J.key("tags");
      J.inlineArray(R.Tags);
      J.key("assets");
      J.inlineArray(R.Assets);
    }
    J.objectEnd();
    J.key("outputs");
    J.arrayBegin();
    for (const FreezeOutput &O : R.Outputs) {
      J.objectBegin();
      J.member("requested", O.Requested);
      J.member("node", O.Node);
      J.objectEnd();
    }
    J.arrayEnd();
    J.key("initializers");
    J.inlineArray(R.Initializers);
    if (!R.Signature.empty()) {
      J.key("signature");
      J.objectBegin();
      J.member("name", R.Signature);
      for (const auto *Part : {&R.SignatureInputs, &R.SignatureOutputs}) {
        J.key(Part == &R.SignatureInputs ? "inputs" : "outputs");
        J.objectBegin();
        for (const auto &[Key, Tensor] : *Part)
          J.member(Key, Tensor);
        J.objectEnd();
      }
      J.objectEnd();
    }
    J.key("variables");
    J.arrayBegin();
    for (const FrozenVariable &V : R.Frozen) {
      J.objectBegin();
      J.member("name", V.Name);
      J.member("checkpoint_key", V.Source.Key);
      if (!V.Source.Slice.empty())
        J.member("slice", V.Source.Slice);
      J.member("origin", V.Source.Origin);
      J.member("dtype", dataTypeName(V.DType));
      J.key("shape");
      J.inlineArray(V.Shape);
      J.member("bytes", V.Bytes);
      J.objectEnd();
    }
    J.arrayEnd();
    J.member("variable_bytes", R.frozenBytes());
    if (!R.Left.empty()) {
      J.key("unfrozen_variables");
      J.arrayBegin();
      for (const FreezeResult::LeftVariable &V : R.Left) {
        J.objectBegin();
        J.member("name", V.Name);
        J.member("op", V.Op);
        J.member("checkpoint_key", V.Source.Key);
        if (!V.Source.Slice.empty())
          J.member("slice", V.Source.Slice);
        J.member("origin", V.Source.Origin);
        J.objectEnd();
      }
      J.arrayEnd();
    }
    J.key("nodes");
    J.objectBegin();
    J.member("before", static_cast<uint64_t>(R.NodesBefore));
    J.member("after", static_cast<uint64_t>(R.NodesAfter));
    J.objectEnd();
    if (!R.Optimizations.empty()) {
      J.key("optimizations");
      J.objectBegin();
      for (const FreezeResult::PassChanges &P : R.Optimizations) {
        J.key(P.Pass);
        J.objectBegin();
        for (const auto &[Name, Count] : P.Counts)
          J.member(Name, Count);
        J.objectEnd();
      }
      J.objectEnd();
    }
    J.member("pipeline", R.Pipeline);
    J.member("checkpoints_opened", R.CheckpointsOpened);
    J.key("output");
    J.objectBegin();
    J.member("path", Output.Path);
    J.member("format", Output.Format == FrozenFormat::Text         ? "pbtxt"
                       : Output.Format == FrozenFormat::SavedModel ? "saved_model"
                                                                   : "pb");
    J.member("bytes", Output.Bytes);
    J.key("sha256");
    if (Output.Sha256.empty())
      J.null();
    else
      J.string(Output.Sha256);
    J.objectEnd();
    J.key("timings");
    J.objectBegin();
    for (const auto &[Name, Seconds] : Timing.rows()) {
      J.key(Name);
      J.raw(llvm::formatv("{0:f6}", Seconds).str());
    }
    J.key("total");
    J.raw(llvm::formatv("{0:f6}", TotalSeconds).str());
    J.objectEnd();
    J.objectEnd();
  }
  return Text;
}

} // namespace frost
