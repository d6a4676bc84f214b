//===- StripUnusedNodes.cpp - Keep what the outputs need, from the inputs -===//
//
// graph_transforms' strip_unused_nodes: a node is kept when it is one of the
// `inputs` or an output reaches it through data and control inputs without
// passing through an input (an input's own inputs go). Each kept input that
// is not already a Placeholder becomes one, same name, no inputs, no device,
// only `dtype` and `shape`: the dtype is `type` (TensorFlow's spelling,
// default float) or the `type-for-name` entry at the position of its `name`
// entry; the shape is `shape` ("1,224,224,3", default scalar) or the
// `shape-for-name` entry likewise. Order is kept. Differences:
// - colocation targets (`_class: loc:@x`) of kept nodes are kept, as prune
//   keeps them: TensorFlow cannot import a graph without them;
// - a dimension may be -1 (unknown); TensorFlow aborted on it;
// - option mistakes are errors before anything runs: no outputs, an empty
//   shape, a `name` that is not an input, `type-for-name`/`shape-for-name`
//   without `name` or with another count (either may be left out: the
//   default applies);
// - an unknown output is an error with close names suggested.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/IR/TensorName.h"
#include "frost/Support/Suggest.h"
#include "frost/Tensor/DataType.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <limits>

namespace frost {

namespace {

/// TensorFlow's DataTypeFromString: "float", "int32", "quint8", "float_ref".
absl::StatusOr<tensorflow::DataType> parseDataType(llvm::StringRef Text, llvm::StringRef What) {
  const google::protobuf::EnumDescriptor *Types = tensorflow::DataType_descriptor();
  std::vector<std::string> Names;
  for (int I = 0; I < Types->value_count(); ++I) {
    auto Type = static_cast<tensorflow::DataType>(Types->value(I)->number());
    if (Type == tensorflow::DT_INVALID)
      continue;
    if (dataTypeName(Type) == Text)
      return Type;
    Names.push_back(dataTypeName(Type));
  }
  std::vector<llvm::StringRef> Candidates(Names.begin(), Names.end());
  std::vector<std::string> Close = closestNames(Text, Candidates);
  std::string Message =
      absl::StrCat(What.str(), " '", Text.str(), "' is not a TensorFlow type");
  if (!Close.empty())
    absl::StrAppend(&Message, "; did you mean ", quotedAlternatives(Close), "?");
  return absl::InvalidArgumentError(Message);
}

/// "1,224,224,3" -> dims; -1 is an unknown dimension.
absl::StatusOr<tensorflow::TensorShapeProto> parseShape(llvm::StringRef Text,
                                                        llvm::StringRef What) {
  // TensorFlow's TensorShape::MaxDimensions().
  constexpr size_t MaxRank = 254;
  auto bad = [&](const std::string &Why) {
    return absl::InvalidArgumentError(absl::StrCat(What.str(), " '", Text.str(), "' ", Why));
  };
  if (Text.trim().empty())
    return bad("is empty: leave it out for a scalar");
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Text.split(Parts, ',');
  if (Parts.size() > MaxRank)
    return bad(absl::StrCat("has ", Parts.size(), " dimensions; TensorFlow allows ", MaxRank));
  tensorflow::TensorShapeProto Shape;
  int64_t Elements = 1;
  for (llvm::StringRef Part : Parts) {
    int64_t Dim;
    if (Part.trim().getAsInteger(10, Dim) || Dim < -1)
      return bad(absl::StrCat("is not a shape: '", Part.trim().str(),
                              "' is not a dimension (a size, or -1 for unknown)"));
    if (Dim > 0 && Elements > std::numeric_limits<int64_t>::max() / Dim)
      return bad("has more elements than an int64 counts");
    if (Dim >= 0)
      Elements *= Dim;
    Shape.add_dim()->set_size(Dim);
  }
  return Shape;
}

class StripUnusedNodesPass : public Pass {
public:
  StripUnusedNodesPass() = default;
  explicit StripUnusedNodesPass(const StripUnusedNodesOptions &O) {
    Inputs.setIfGiven(O.Inputs);
    Outputs.setIfGiven(O.Outputs);
    Type.setIfGiven(O.Type);
    Names.setIfGiven(O.Names);
    TypeForName.setIfGiven(O.TypeForName);
  }

private:
  ListOption<std::string> Inputs{*this, "inputs",
                                 "Nodes that become Placeholders; what only they need goes"};
  ListOption<std::string> Outputs{*this, "outputs", "Nodes to keep, with what they need"};
  GraphEnds graphEnds() override { return {&Inputs, &Outputs}; }
  Option<std::string> Type{*this, "type", "dtype of new Placeholders (TensorFlow's spelling)",
                           "float"};
  Option<std::string> Shape{*this, "shape",
                            "Shape of new Placeholders, e.g. \"1,224,224,3\" (-1: unknown); "
                            "default scalar"};
  ListOption<std::string> Names{*this, "name",
                                "Inputs with their own type-for-name/shape-for-name entry"};
  ListOption<std::string> TypeForName{*this, "type-for-name",
                                      "dtype of the Placeholder of each `name`, in order"};
  ListOption<std::string> ShapeForName{*this, "shape-for-name",
                                       "Shape of the Placeholder of each `name`, in order"};
  Statistic NumRemoved{*this, "nodes-removed", "Nodes removed"};
  Statistic NumPlaceholders{*this, "placeholders-created",
                            "Inputs replaced by a new Placeholder"};

  absl::Status validateOptions() const override {
    if (Outputs.empty())
      return absl::InvalidArgumentError("needs outputs=NAME[;NAME...]: the nodes to keep");
    FROST_RETURN_IF_ERROR(parseDataType(*Type, "type").status());
    if (Shape.isSet())
      FROST_RETURN_IF_ERROR(parseShape(*Shape, "shape").status());
    if (Names.empty() && (!TypeForName.empty() || !ShapeForName.empty()))
      return absl::InvalidArgumentError(
          "type-for-name and shape-for-name need name=INPUT[;INPUT...]: the inputs they are for");
    for (const ListOption<std::string> *List : {&TypeForName, &ShapeForName})
      if (!List->empty() && List->end() - List->begin() != Names.end() - Names.begin())
        return absl::InvalidArgumentError(absl::StrCat(
            List->name().str(), " has ", List->end() - List->begin(), " entries for ",
            Names.end() - Names.begin(), " names: give one per name, in the same order"));
    for (const std::string &T : TypeForName)
      FROST_RETURN_IF_ERROR(parseDataType(T, "type-for-name").status());
    for (const std::string &S : ShapeForName)
      FROST_RETURN_IF_ERROR(parseShape(S, "shape-for-name").status());
    for (const std::string &N : Names)
      if (!llvm::any_of(*Inputs, [&](const std::string &In) { return nodeName(In) == N; }))
        return absl::InvalidArgumentError(
            absl::StrCat("name '", N, "' is not one of the inputs"));
    return absl::OkStatus();
  }

  static llvm::StringRef nodeName(llvm::StringRef Text) {
    Text = Text.trim();
    Text.consume_front("^");
    return Text.take_front(Text.rfind(':'));
  }

  /// The dtype and shape of the Placeholder replacing input `Name`.
  void placeholderFor(llvm::StringRef Name, tensorflow::DataType &DType,
                      tensorflow::TensorShapeProto &Proto) const {
    // Checked by validateOptions.
    DType = *parseDataType(*Type, "type");
    Proto = Shape.isSet() ? *parseShape(*Shape, "shape") : tensorflow::TensorShapeProto();
    for (size_t I = 0; I < Names->size(); ++I) {
      if ((*Names)[I] != Name)
        continue;
      if (!TypeForName.empty())
        DType = *parseDataType((*TypeForName)[I], "type-for-name");
      if (!ShapeForName.empty())
        Proto = *parseShape((*ShapeForName)[I], "shape-for-name");
    }
  }

  absl::Status run(Model &M, PassContext &) override {
    Graph &G = M.graph();
    std::vector<char> IsInput(G.idBound()), Keep(G.idBound());
    std::vector<Node *> Work;
    auto keep = [&](Node *N) {
      if (N && !Keep[N->id()]) {
        Keep[N->id()] = true;
        Work.push_back(N);
      }
    };
    for (const std::string &Output : Outputs) {
      FROST_ASSIGN_OR_RETURN(TensorRef Ref, resolveTensorName(G, Output, "output"));
      keep(Ref.N);
    }
    std::vector<Node *> InputNodes;
    for (const std::string &In : Inputs)
      if (Node *N = G.findNode(nodeName(In)); N && !IsInput[N->id()]) {
        IsInput[N->id()] = true;
        InputNodes.push_back(N);
        keep(N);
      }
    while (!Work.empty()) {
      Node *N = Work.back();
      Work.pop_back();
      if (IsInput[N->id()])
        continue;
      for (const Input &In : N->inputs())
        keep(In.Src);
      if (const tensorflow::AttrValue *Class = N->findAttr("_class"))
        for (const std::string &Entry : Class->list().s())
          if (llvm::StringRef Target(Entry); Target.consume_front("loc:@"))
            keep(G.findNode(Target));
    }

    for (Node *N : InputNodes) {
      if (N->op() == "Placeholder")
        continue;
      tensorflow::DataType DType;
      tensorflow::TensorShapeProto ShapeProto;
      placeholderFor(N->name(), DType, ShapeProto);
      N->removeInputsIf([](const Input &) { return true; });
      std::vector<std::string> AttrNames;
      for (const auto &Entry : N->attrs())
        AttrNames.push_back(Entry.first);
      for (const std::string &AttrName : AttrNames)
        N->eraseAttr(AttrName);
      N->setOp("Placeholder");
      N->setDevice("");
      if (N->extraFields())
        N->mutableExtraFields().Clear();
      N->attr("dtype").set_type(DType);
      *N->attr("shape").mutable_shape() = std::move(ShapeProto);
      ++NumPlaceholders;
    }
    size_t Before = G.size();
    G.eraseNodesIf([&](const Node &N) { return !Keep[N.id()]; });
    NumRemoved += Before - G.size();
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createStripUnusedNodesPass() {
  return std::make_unique<StripUnusedNodesPass>();
}

std::unique_ptr<Pass> createStripUnusedNodesPass(const StripUnusedNodesOptions &Options) {
  return makeNamedPass<StripUnusedNodesPass>(PassName::createStripUnusedNodesPass, Options);
}

} // namespace frost
