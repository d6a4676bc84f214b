//===- FreezeReport.cpp - Writing a frozen graph and its report -----------===//
//
// The report (docs/freeze-graph.md) is built from a FreezeResult alone, with
// LLVM's JSON writer. Short lists (tags, shapes) stay on one line so a report
// reads like the documentation's example.
//
//===----------------------------------------------------------------------===//
#include "FreezeInternal.h"

#include "frost/Checkpoint/Tensor.h"
#include "frost/Support/File.h"
#include "frost/Support/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SHA256.h"

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

namespace {

std::string sha256File(llvm::StringRef Path) {
  absl::StatusOr<std::unique_ptr<MappedFile>> F = MappedFile::open(Path);
  if (!F.ok())
    return "";
  llvm::StringRef Bytes = (*F)->bytes();
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(Bytes)),
                     /*LowerCase=*/true);
}

/// JSON strings must be UTF-8; names from a hostile file may not be.
llvm::json::Value jsonString(llvm::StringRef S) {
  return llvm::json::isUTF8(S) ? S.str() : llvm::json::fixUTF8(S);
}

/// `["a", "b"]` / `[1, 2]` on one line.
template <typename Range> std::string inlineArray(const Range &Items) {
  std::string Out = "[";
  for (const auto &Item : Items) {
    if (Out.size() > 1)
      Out += ", ";
    if constexpr (std::is_arithmetic_v<std::decay_t<decltype(Item)>>)
      Out += llvm::formatv("{0}", llvm::json::Value(Item)).str();
    else
      Out += llvm::formatv("{0}", jsonString(Item)).str();
  }
  return Out + "]";
}

void rawAttribute(llvm::json::OStream &J, llvm::StringRef Key, llvm::StringRef Raw) {
  J.attributeBegin(Key);
  J.rawValue(Raw);
  J.attributeEnd();
}

void stringAttribute(llvm::json::OStream &J, llvm::StringRef Key, llvm::StringRef Value) {
  J.attribute(Key, jsonString(Value));
}

} // namespace

absl::StatusOr<FrozenFile> writeFrozenGraph(const FreezeResult &Result, llvm::StringRef Path,
                                            FrozenFormat Format, bool Hash, uint64_t SizeLimit) {
  if (Format == FrozenFormat::Text) {
    FROST_RETURN_IF_ERROR(writeStringAtomically(Path, printModelText(*Result.M)));
  } else {
    WriteOptions Write;
    Write.SizeLimit = SizeLimit;
    FROST_RETURN_IF_ERROR(writeModel(*Result.M, Path, Write));
  }
  FrozenFile F{Path.str(), Format, 0, ""};
  if (Path != "-") {
    F.Bytes = fileSize(Path).value_or(0);
    if (Hash)
      F.Sha256 = sha256File(Path);
  }
  return F;
}

std::string freezeReportJson(const FreezeResult &R, const FrozenFile &Output,
                             const TimingReport &Timing, double TotalSeconds) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::json::OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("tool", frostVersion());
    J.attributeObject("input", [&] {
      stringAttribute(J, "graph", R.GraphPath);
      J.attribute("container", containerKindName(R.Container));
      if (R.Checkpoint.empty())
        J.attribute("checkpoint", nullptr);
      else
        stringAttribute(J, "checkpoint", R.Checkpoint);
      if (R.Container == ContainerKind::SavedModel) {
        rawAttribute(J, "tags", inlineArray(R.Tags));
        rawAttribute(J, "assets", inlineArray(R.Assets));
      }
    });
    J.attributeArray("outputs", [&] {
      for (const FreezeOutput &O : R.Outputs)
        J.object([&] {
          stringAttribute(J, "requested", O.Requested);
          stringAttribute(J, "node", O.Node);
        });
    });
    rawAttribute(J, "initializers", inlineArray(R.Initializers));
    if (!R.Signature.empty())
      J.attributeObject("signature", [&] {
        stringAttribute(J, "name", R.Signature);
        for (const auto *Part : {&R.SignatureInputs, &R.SignatureOutputs})
          J.attributeObject(Part == &R.SignatureInputs ? "inputs" : "outputs", [&] {
            for (const auto &[Key, Tensor] : *Part)
              stringAttribute(J, Key, Tensor);
          });
      });
    J.attributeArray("variables", [&] {
      for (const FrozenVariable &V : R.Frozen)
        J.object([&] {
          stringAttribute(J, "name", V.Name);
          stringAttribute(J, "checkpoint_key", V.Source.Key);
          if (!V.Source.Slice.empty())
            stringAttribute(J, "slice", V.Source.Slice);
          stringAttribute(J, "origin", V.Source.Origin);
          J.attribute("dtype", dataTypeName(V.DType));
          rawAttribute(J, "shape", inlineArray(V.Shape));
          J.attribute("bytes", V.Bytes);
        });
    });
    J.attribute("variable_bytes", R.frozenBytes());
    J.attributeObject("nodes", [&] {
      J.attribute("before", static_cast<uint64_t>(R.NodesBefore));
      J.attribute("after", static_cast<uint64_t>(R.NodesAfter));
    });
    stringAttribute(J, "pipeline", R.Pipeline);
    J.attribute("checkpoints_opened", R.CheckpointsOpened);
    J.attributeObject("output", [&] {
      stringAttribute(J, "path", Output.Path);
      J.attribute("format", Output.Format == FrozenFormat::Text ? "pbtxt" : "pb");
      J.attribute("bytes", Output.Bytes);
      if (Output.Sha256.empty())
        J.attribute("sha256", nullptr);
      else
        J.attribute("sha256", Output.Sha256);
    });
    J.attributeObject("timings", [&] {
      for (const auto &[Name, Seconds] : Timing.rows())
        rawAttribute(J, Name, llvm::formatv("{0:f6}", Seconds).str());
      rawAttribute(J, "total", llvm::formatv("{0:f6}", TotalSeconds).str());
    });
  });
  OS << "\n";
  return Text;
}

} // namespace frost
