//===- FunctionRetyper.cpp - Retyping functions a variable reaches --------===//
#include "frost/Transforms/Utils/FunctionRetyper.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace frost {

using tensorflow::DataType;

std::optional<CallerKind> callerKind(llvm::StringRef Op) {
  if (Op == "If" || Op == "StatelessIf")
    return CallerKind{1, "Tin", {"then_branch", "else_branch"}};
  if (Op == "Case" || Op == "StatelessCase")
    return CallerKind{1, "Tin", {"branches"}};
  if (Op == "PartitionedCall" || Op == "StatefulPartitionedCall")
    return CallerKind{0, "Tin", {"f"}};
  if (Op == "While" || Op == "StatelessWhile")
    return CallerKind{0, "T", {"body", "cond"}, true};
  return std::nullopt;
}

bool isIntermediate(llvm::StringRef Op) {
  return Op == "Identity" || Op == "Enter" || Op == "Exit" || Op == "Switch" ||
         Op == "_SwitchN" || Op == "NextIteration";
}

namespace {

/// Sets entry `Index` of a type attribute (a list, or a single type for
/// index 0); false when there is no such entry.
bool setTypeAt(tensorflow::AttrValue &Attr, unsigned Index, DataType DT) {
  if (Attr.has_list()) {
    if (Index >= static_cast<unsigned>(Attr.list().type_size()))
      return false;
    Attr.mutable_list()->set_type(Index, DT);
    return true;
  }
  if (Attr.value_case() == tensorflow::AttrValue::kType && Index == 0) {
    Attr.set_type(DT);
    return true;
  }
  return false;
}

} // namespace

int FunctionRetyper::indexOf(llvm::StringRef Original) {
  if (Index.empty()) {
    const tensorflow::FunctionDefLibrary &Lib = G.library();
    for (int I = 0; I < Lib.function_size(); ++I)
      Index.emplace(Lib.function(I).signature().name(), I);
    // convert_to_constants names every function `<base>_frozen_<uid>`, in the
    // order of (trailing number, base, name); the uid is process-global, so
    // Frost counts from 1 instead.
    std::vector<std::tuple<int64_t, std::string, std::string>> Parsed;
    for (const auto &[Name, I] : Index) {
      llvm::StringRef Base(Name);
      int64_t Number = -1;
      auto [Head, Tail] = Base.rsplit('_');
      if (!Tail.empty() && Head != Base && llvm::all_of(Tail, llvm::isDigit) &&
          !Tail.getAsInteger(10, Number))
        Base = Head;
      else
        Number = -1;
      Parsed.emplace_back(Number, Base.str(), Name);
    }
    std::sort(Parsed.begin(), Parsed.end());
    std::set<std::string> Taken;
    for (const auto &Entry : Index)
      Taken.insert(Entry.first);
    unsigned Counter = 0;
    for (const auto &[Number, Base, Name] : Parsed) {
      std::string New;
      do
        New = absl::StrCat(Base, "_frozen_", ++Counter);
      while (Taken.count(New));
      Taken.insert(New);
      NewNames[Name] = New;
    }
  }
  auto It = Index.find(Original);
  return It == Index.end() ? -1 : It->second;
}

tensorflow::FunctionDef &FunctionRetyper::converted(const std::string &Original) {
  tensorflow::FunctionDef &F = *library().mutable_function(indexOf(Original));
  if (!Originals.count(Original)) {
    Originals.emplace(Original, F);
    F.mutable_signature()->set_name(NewNames[Original]);
  }
  return F;
}

const FunctionRetyper::Body &FunctionRetyper::bodyOf(const std::string &Original) {
  auto [It, New] = Bodies.try_emplace(Original);
  if (!New)
    return It->second;
  const tensorflow::FunctionDef &F = library().function(indexOf(Original));
  std::map<std::string, int, std::less<>> Nodes, Args;
  for (int I = 0; I < F.node_def_size(); ++I)
    Nodes.emplace(F.node_def(I).name(), I);
  for (int I = 0; I < F.signature().input_arg_size(); ++I)
    Args.emplace(F.signature().input_arg(I).name(), I);
  for (int I = 0; I < F.node_def_size(); ++I)
    for (int J = 0; J < F.node_def(I).input_size(); ++J) {
      // convert_to_constants' resolve_input: "src", "src:k" or
      // "src:out:k"; a bare name that is no node is an argument.
      llvm::StringRef Text(F.node_def(I).input(J));
      if (Text.starts_with("^"))
        continue;
      auto [Source, Rest] = Text.split(':');
      llvm::StringRef Last = Text.rsplit(':').second;
      int64_t Port = 0;
      if (!Rest.empty() && !Last.empty() && llvm::all_of(Last, llvm::isDigit))
        Last.getAsInteger(10, Port);
      auto NodeIt = Nodes.find(Source);
      if (Port != 0 || NodeIt != Nodes.end()) {
        if (NodeIt != Nodes.end())
          It->second.FromNode[NodeIt->second].push_back({I, J});
      } else if (auto ArgIt = Args.find(Source); ArgIt != Args.end()) {
        It->second.FromArg[ArgIt->second].push_back({I, J});
      }
    }
  return It->second;
}

template <typename AttrMapT> void FunctionRetyper::renameCalls(AttrMapT &Attrs) {
  for (auto &Entry : Attrs) {
    tensorflow::AttrValue &V = Entry.second;
    auto rename = [&](tensorflow::NameAttrList &Func) {
      if (Originals.count(Func.name()))
        Func.set_name(NewNames[Func.name()]);
    };
    if (V.has_func())
      rename(*V.mutable_func());
    else if (V.has_list())
      for (tensorflow::NameAttrList &Func : *V.mutable_list()->mutable_func())
        rename(Func);
  }
}

template <typename AttrMapT>
void FunctionRetyper::convertCaller(const CallerKind &Kind, AttrMapT &Attrs, unsigned Index,
                                    DataType DT, llvm::ArrayRef<int64_t> Shape) {
  if (Index < Kind.First)
    return;
  unsigned Arg = Index - Kind.First;
  for (const char *Name : Kind.FuncAttrs) {
    auto It = Attrs.find(Name);
    if (It == Attrs.end())
      continue;
    std::vector<std::string> Callees;
    if (It->second.has_func())
      Callees.push_back(It->second.func().name());
    else if (It->second.has_list())
      for (const tensorflow::NameAttrList &Func : It->second.list().func())
        Callees.push_back(Func.name());
    for (const std::string &Callee : Callees) {
      // A callee converted for an earlier argument is called by its new name.
      std::string Original = originalOf(Callee);
      if (indexOf(Original) >= 0)
        convertArg(Original, static_cast<int>(Arg), DT, Shape);
    }
  }
  renameCalls(Attrs);
  if (auto It = Attrs.find(Kind.TypeAttr); It != Attrs.end())
    setTypeAt(It->second, Arg, DT);
  if (!Kind.IsWhile)
    return;
  // A While's body returns what it takes: its output type changes too, and
  // the loop variable's shape is the value's.
  // TensorFlow leaves `_output_shapes` (written by Saver's add_shapes=True)
  // saying resource scalar, and its frozen graph then fails to import
  // ("_output_shapes attribute inconsistent"): Frost updates both.
  for (const char *Name : {"output_shapes", "_output_shapes"})
    if (auto It = Attrs.find(Name);
        It != Attrs.end() && It->second.has_list() &&
        Index < static_cast<unsigned>(It->second.list().shape_size())) {
      tensorflow::TensorShapeProto &S = *It->second.mutable_list()->mutable_shape(Index);
      S.Clear();
      for (int64_t D : Shape)
        S.add_dim()->set_size(D);
    }
  if (auto It = Attrs.find("body"); It != Attrs.end() && It->second.has_func()) {
    // The attribute was renamed above; find the original.
    std::string Body = originalOf(It->second.func().name());
    if (indexOf(Body) >= 0) {
      tensorflow::OpDef &Sig = *converted(Body).mutable_signature();
      if (Index < static_cast<unsigned>(Sig.output_arg_size()))
        Sig.mutable_output_arg(Index)->set_type(DT);
    }
  }
}

void FunctionRetyper::convertArg(const std::string &Original, int Arg, DataType DT,
                                 llvm::ArrayRef<int64_t> Shape) {
  std::vector<std::pair<int, int>> Uses;
  if (auto It = bodyOf(Original).FromArg.find(Arg); It != bodyOf(Original).FromArg.end())
    Uses = It->second;
  converted(Original);
  for (auto [NodeIndex, InputIndex] : Uses)
    convertBodyUse(Original, NodeIndex, InputIndex, DT, Shape);
  tensorflow::FunctionDef &F = converted(Original);
  if (Arg < F.signature().input_arg_size())
    F.mutable_signature()->mutable_input_arg(Arg)->set_type(DT);
  // Shape information about the argument is no longer known.
  if (auto It = F.mutable_attr()->find("_input_shapes");
      It != F.mutable_attr()->end() && It->second.has_list() &&
      Arg < It->second.list().shape_size()) {
    tensorflow::TensorShapeProto &S = *It->second.mutable_list()->mutable_shape(Arg);
    S.clear_dim();
    S.set_unknown_rank(true);
  }
  auto &ArgAttrs = *(*F.mutable_arg_attr())[Arg].mutable_attr();
  if (auto It = ArgAttrs.find("_output_shapes");
      It != ArgAttrs.end() && It->second.has_list() && It->second.list().shape_size() > 0) {
    tensorflow::TensorShapeProto &S = *It->second.mutable_list()->mutable_shape(0);
    S.clear_dim();
    S.set_unknown_rank(true);
  }
}

void FunctionRetyper::convertBodyUse(const std::string &Original, int NodeIndex,
                                     int InputIndex, DataType DT,
                                     llvm::ArrayRef<int64_t> Shape) {
  tensorflow::FunctionDef &F = converted(Original);
  tensorflow::NodeDef &N = *F.mutable_node_def(NodeIndex);
  llvm::StringRef Op = N.op();
  auto consumers = [&] {
    std::vector<std::pair<int, int>> Out;
    if (auto It = bodyOf(Original).FromNode.find(NodeIndex);
        It != bodyOf(Original).FromNode.end())
      Out = It->second;
    return Out;
  };
  auto keepOnly = [&](int NumInputs, std::initializer_list<const char *> Keep,
                      std::initializer_list<std::pair<const char *, const char *>> Renamed) {
    tensorflow::NodeDef Old = N;
    N.Clear();
    N.set_name(Old.name());
    for (int I = 0; I < NumInputs && I < Old.input_size(); ++I)
      N.add_input(Old.input(I));
    for (const char *K : Keep)
      if (auto It = Old.attr().find(K); It != Old.attr().end())
        (*N.mutable_attr())[K] = It->second;
    for (auto [To, From] : Renamed)
      if (auto It = Old.attr().find(From); It != Old.attr().end())
        (*N.mutable_attr())[To] = It->second;
  };
  if (Op == "ReadVariableOp") {
    keepOnly(1, {"_class"}, {{"T", "dtype"}});
    N.set_op("Identity");
    // Its output was `name:value:k`; an Identity's is `name:output:k`.
    for (auto [UserIndex, UserInput] : consumers()) {
      tensorflow::NodeDef &User = *F.mutable_node_def(UserIndex);
      llvm::SmallVector<llvm::StringRef, 3> Parts;
      llvm::StringRef(User.input(UserInput)).split(Parts, ':');
      if (Parts.size() > 1 && Parts[1] == "value")
        User.set_input(UserInput,
                       absl::StrCat(Parts[0].str(), ":output",
                                    Parts.size() > 2 ? absl::StrCat(":", Parts[2].str()) : ""));
    }
    return;
  }
  if (Op == "ResourceGatherNd") {
    keepOnly(2, {"Tindices", "_class"}, {{"Tparams", "dtype"}});
    N.set_op("GatherNd");
    return;
  }
  if (isIntermediate(Op) || Op == "Merge") {
    auto T = N.mutable_attr()->find("T");
    if (InputIndex != 0 && Op != "Merge")
      return;
    if (Op == "Merge" &&
        (T == N.mutable_attr()->end() || T->second.type() != tensorflow::DT_RESOURCE))
      return;
    (*N.mutable_attr())["T"].set_type(DT);
    N.mutable_attr()->erase("_output_shapes");
    for (auto [UserIndex, UserInput] : consumers())
      convertBodyUse(Original, UserIndex, UserInput, DT, Shape);
    return;
  }
  if (std::optional<CallerKind> Kind = callerKind(Op))
    convertCaller(*Kind, *N.mutable_attr(), static_cast<unsigned>(InputIndex), DT, Shape);
}

void FunctionRetyper::finish() {
  if (Originals.empty())
    return;
  // Whatever still names an original (a caller that passed no variable) gets
  // the original back.
  std::set<std::string> Needed;
  auto collect = [&](const auto &Attrs) {
    for (const auto &Entry : Attrs) {
      const tensorflow::AttrValue &V = Entry.second;
      if (V.has_func() && Originals.count(V.func().name()))
        Needed.insert(V.func().name());
      if (V.has_list())
        for (const tensorflow::NameAttrList &Func : V.list().func())
          if (Originals.count(Func.name()))
            Needed.insert(Func.name());
    }
  };
  for (const Node &N : G)
    collect(N.attrs());
  for (const tensorflow::FunctionDef &F : G.library().function())
    for (const tensorflow::NodeDef &N : F.node_def())
      collect(N.attr());
  for (const std::string &Name : Needed)
    *library().add_function() = Originals[Name];
}

template void FunctionRetyper::convertCaller(const CallerKind &, AttrMap &, unsigned, DataType,
                                              llvm::ArrayRef<int64_t>);
template void FunctionRetyper::convertCaller(
    const CallerKind &, google::protobuf::Map<std::string, tensorflow::AttrValue> &, unsigned,
    DataType, llvm::ArrayRef<int64_t>);

} // namespace frost
