//===- OpRegistry.cpp - The OpDefs a model carries ------------------------===//
#include "frost/IR/OpRegistry.h"

#include "frost/IR/Model.h"
#include "frost/Support/Wire.h"

#include "absl/strings/str_cat.h"
#include "google/protobuf/io/gzip_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <memory>
#include <mutex>

namespace frost {

namespace detail {
// lib/IR/StandardOpDefs.pb.zlib, embedded by the build (lib/CMakeLists.txt).
extern const unsigned char StandardOpDefsZlib[];
extern const size_t StandardOpDefsZlibSize;
} // namespace detail

void OpRegistry::add(const tensorflow::OpDef &Def) {
  if (ByName.count(Def.name()))
    return;
  Defs.push_back(Def);
  ByName[Def.name()] = &Defs.back();
}

namespace {

/// TensorFlow's standard OpDefs: the OpList, inflated and indexed by op name
/// when first needed; each OpDef is parsed the first time it is asked for
/// (parsing all 1908 of TensorFlow 2.21 would take a small model's whole
/// freezing time again). What find() returns never changes after.
class StandardOpDefs {
public:
  StandardOpDefs() {
    google::protobuf::io::ArrayInputStream Compressed(
        detail::StandardOpDefsZlib, static_cast<int>(detail::StandardOpDefsZlibSize));
    google::protobuf::io::GzipInputStream Stream(&Compressed,
                                                 google::protobuf::io::GzipInputStream::ZLIB);
    const void *Chunk;
    int Size;
    while (Stream.Next(&Chunk, &Size))
      Bytes.append(static_cast<const char *>(Chunk), Size);
    WireReader Ops(Bytes);
    WireRecord Op;
    while (Ops.next(Op)) {
      if (Op.Field != 1 || Op.Type != WireType::Bytes)
        continue;
      WireReader Def(Op.Payload);
      WireRecord Field;
      while (Def.next(Field))
        if (Field.Field == 1 && Field.Type == WireType::Bytes) {
          Spans.try_emplace(Field.Payload, Op.Payload);
          break;
        }
    }
    if (Stream.ZlibErrorCode() < 0 || Ops.failed() || Spans.empty())
      broken();
  }

  const tensorflow::OpDef *find(llvm::StringRef Op) const {
    auto Span = Spans.find(Op);
    if (Span == Spans.end())
      return nullptr;
    std::lock_guard<std::mutex> Lock(Mutex);
    std::unique_ptr<tensorflow::OpDef> &Def = Parsed[Op];
    if (!Def) {
      Def = std::make_unique<tensorflow::OpDef>();
      if (!Def->ParseFromArray(Span->second.data(), static_cast<int>(Span->second.size())))
        broken();
    }
    return Def.get();
  }

  size_t size() const { return Spans.size(); }

private:
  // The data is part of the build, not an input: a defect of the build.
  [[noreturn]] static void broken() {
    llvm::report_fatal_error("the standard OpDefs built into Frost do not parse: "
                             "rebuild from lib/IR/StandardOpDefs.pb.zlib");
  }

  std::string Bytes;
  llvm::StringMap<llvm::StringRef> Spans; // op name -> its serialized OpDef in Bytes
  mutable std::mutex Mutex;               // guards Parsed
  mutable llvm::StringMap<std::unique_ptr<tensorflow::OpDef>> Parsed;
};

const StandardOpDefs &standardOpDefs() {
  // Built on first use only (a model that carries every OpDef it needs never
  // pays for it), once, even when threads race to it.
  static const StandardOpDefs Standard;
  return Standard;
}

} // namespace

const tensorflow::OpDef *findStandardOpDef(llvm::StringRef Op) {
  return standardOpDefs().find(Op);
}

size_t numStandardOpDefs() { return standardOpDefs().size(); }

const tensorflow::OpDef *OpRegistry::find(llvm::StringRef Op) const {
  if (const tensorflow::OpDef *Def = ByName.lookup(Op))
    return Def;
  return FallBackToStandard ? findStandardOpDef(Op) : nullptr;
}

void OpRegistry::add(const tensorflow::OpList &Ops) {
  for (const tensorflow::OpDef &Def : Ops.op())
    add(Def);
}

void OpRegistry::add(const tensorflow::FunctionDefLibrary &Library) {
  for (const tensorflow::FunctionDef &F : Library.function())
    add(F.signature());
}

OpRegistry modelOpRegistry(const Model &M) {
  OpRegistry Ops;
  if (const tensorflow::MetaGraphDef *Meta = M.metaGraph())
    Ops.add(Meta->meta_info_def().stripped_op_list());
  Ops.add(M.graph().library());
  Ops.fallBackToStandardOps();
  return Ops;
}

absl::StatusOr<int> argLength(const tensorflow::OpDef::ArgDef &Arg, AttrLookup FindAttr) {
  if (!Arg.number_attr().empty()) {
    const tensorflow::AttrValue *A = FindAttr(Arg.number_attr());
    if (!A || A->value_case() != tensorflow::AttrValue::kI || A->i() < 0 || A->i() > (1 << 24))
      return absl::InvalidArgumentError(absl::StrCat("argument '", Arg.name(),
                                                     "' needs a count in attribute '",
                                                     Arg.number_attr(), "'"));
    return static_cast<int>(A->i());
  }
  if (!Arg.type_list_attr().empty()) {
    const tensorflow::AttrValue *A = FindAttr(Arg.type_list_attr());
    if (!A || !A->has_list())
      return absl::InvalidArgumentError(absl::StrCat("argument '", Arg.name(),
                                                     "' needs a type list in attribute '",
                                                     Arg.type_list_attr(), "'"));
    return A->list().type_size();
  }
  return 1;
}

absl::StatusOr<int> argLength(const tensorflow::OpDef::ArgDef &Arg, const ProtoAttrMap &Attrs) {
  return argLength(Arg, [&](llvm::StringRef Name) -> const tensorflow::AttrValue * {
    auto It = Attrs.find(std::string(Name));
    return It == Attrs.end() ? nullptr : &It->second;
  });
}

absl::StatusOr<int> flatOutputIndex(const tensorflow::OpDef &Def, const ProtoAttrMap &Attrs,
                                    llvm::StringRef OutputArg, int Index) {
  if (llvm::none_of(Def.output_arg(),
                    [&](const tensorflow::OpDef::ArgDef &A) { return A.name() == OutputArg; }))
    return absl::InvalidArgumentError(
        absl::StrCat("op ", Def.name(), " has no output named '", OutputArg.str(), "'"));
  int Flat = 0;
  for (const tensorflow::OpDef::ArgDef &Arg : Def.output_arg()) {
    FROST_ASSIGN_OR_RETURN(int Length, argLength(Arg, Attrs));
    if (Arg.name() != OutputArg) {
      Flat += Length;
      continue;
    }
    if (Index < 0 || Index >= Length)
      return absl::InvalidArgumentError(absl::StrCat("output '", OutputArg.str(), ":", Index,
                                                     "' of op ", Def.name(),
                                                     " is out of range (", Length, " tensors)"));
    return Flat + Index;
  }
  llvm_unreachable("the output was found above");
}

} // namespace frost
