//===- SetInputShapes.cpp - Fix the shapes of the graph's inputs ----------===//
//
// What deployment wants and TensorFlow's tools cannot do (tensorflow#18945;
// strip_unused_nodes(shape=...) leaves an existing Placeholder as it is):
// Placeholders take the shapes given (`shapes=image:1,224,224,3`; `NAME:`
// for a scalar) and, with `batch-size=N`, every other Placeholder whose first
// dimension is unknown takes N there. A given shape must fit the declared one
// (its rank, its known dimensions). Then the graph's static shapes are
// inferred again (Utils/ShapeInference): `_output_shapes`, where a node has
// it, is refined with them, and a node that cannot take its inputs' shapes
// now (a MatMul's inner dimensions, a BiasAdd's or convolution's channels, a
// Reshape's element count, a broadcast) is an error naming it. Folding the
// Shape/Size/Rank chains that became constant is fold-constants' work, run
// after this pass by the pipelines that set shapes (Pipelines.h).
//
//===----------------------------------------------------------------------===//
#include "frost/IR/ConstValue.h"
#include "frost/IR/Model.h"
#include "frost/Tensor/Shape.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/Utils/ShapeInference.h"

#include "llvm/ADT/StringSet.h"

namespace frost {

namespace {

PartialShape declaredShape(const Node &N) {
  const tensorflow::AttrValue *A = N.findAttr("shape");
  return A ? partialShapeFromProto(A->shape()) : PartialShape();
}

/// N's shape becomes `Dims` (its recorded `_output_shapes` too), unless
/// that many elements cannot exist.
absl::Status setShape(Node &N, std::vector<int64_t> Dims) {
  std::vector<int64_t> Known;
  llvm::copy_if(Dims, std::back_inserter(Known), [](int64_t D) { return D >= 0; });
  PartialShape Shape(std::move(Dims));
  if (!numElements(Known).ok())
    return absl::InvalidArgumentError(absl::StrCat("input '", N.name().str(), "': shape ",
                                                   formatPartialShape(Shape),
                                                   " has more than 2^63 elements"));
  tensorflow::TensorShapeProto Proto = partialShapeToProto(Shape);
  if (const tensorflow::AttrValue *Old = N.findAttr("_output_shapes");
      Old && Old->list().shape_size() == 1)
    *N.attr("_output_shapes").mutable_list()->mutable_shape(0) = Proto;
  *N.attr("shape").mutable_shape() = std::move(Proto);
  return absl::OkStatus();
}

/// Why `N` cannot take its inputs' static shapes, or "" when it can (or
/// Frost does not know).
std::string conflictOf(const Node &N, const GraphShapes &Shapes) {
  auto In = [&](unsigned I) {
    const auto &E = N.input(I);
    return Shapes.of(*E.Src, E.Port);
  };
  auto Bool = [&](const char *Name) {
    const tensorflow::AttrValue *A = N.findAttr(Name);
    return A && A->b();
  };
  auto ChannelsLast = [&] {
    const tensorflow::AttrValue *A = N.findAttr("data_format");
    return !A || !llvm::StringRef(A->s()).starts_with("NC");
  };
  llvm::StringRef Op = N.op();
  const unsigned Data = N.numDataInputs();
  if (Op == "MatMul" && Data == 2) {
    PartialShape A = In(0), B = In(1);
    int64_t KA = A.dim(Bool("transpose_a") ? 0 : 1), KB = B.dim(Bool("transpose_b") ? 1 : 0);
    if (A.rank() == 2 && B.rank() == 2 && KA >= 0 && KB >= 0 && KA != KB)
      return absl::StrCat("a MatMul of ", formatPartialShape(A), " and ", formatPartialShape(B),
                          ": inner dimensions ", KA, " and ", KB, " differ");
  }
  if ((Op == "BiasAdd" || Op == "BiasAddV1") && Data == 2) {
    PartialShape V = In(0), B = In(1);
    if (V.rankKnown() && V.rank() >= 2 && B.rank() == 1) {
      int64_t C = V.dim(ChannelsLast() ? V.rank() - 1 : 1);
      if (C >= 0 && B.dim(0) >= 0 && C != B.dim(0))
        return absl::StrCat("a bias of ", B.dim(0), " values added to ", formatPartialShape(V),
                            ", whose channels are ", C);
    }
  }
  if ((Op == "Conv2D" || Op == "DepthwiseConv2dNative") && Data == 2) {
    PartialShape X = In(0), F = In(1);
    if (X.rank() == 4 && F.rank() == 4) {
      int64_t C = X.dim(ChannelsLast() ? 3 : 1), Depth = F.dim(2);
      bool Bad = Op == "Conv2D" ? C >= 0 && Depth > 0 && C % Depth != 0
                                : C >= 0 && Depth >= 0 && C != Depth;
      if (Bad)
        return absl::StrCat("input ", formatPartialShape(X), " has ", C, " channels, filter ",
                            formatPartialShape(F), " takes ", Depth);
    }
  }
  if (Op == "Reshape" && Data == 2) {
    PartialShape X = In(0);
    absl::StatusOr<TensorData> Target = N.input(1).Src->op() == "Const"
                                            ? constValue(*N.input(1).Src)
                                            : absl::NotFoundError("not a constant");
    absl::StatusOr<int64_t> Count =
        X.fullyDefined() ? numElements(X.dims()) : absl::UnknownError("unknown shape");
    if (Count.ok() && Target.ok() &&
        (Target->dtype() == tensorflow::DT_INT32 || Target->dtype() == tensorflow::DT_INT64)) {
      std::vector<int64_t> Dims;
      bool Wild = false;
      for (int64_t I = 0; I < Target->numElements(); ++I) {
        int64_t D = Target->dtype() == tensorflow::DT_INT32 ? Target->element<int32_t>(I)
                                                            : Target->element<int64_t>(I);
        if (D == -1)
          Wild = true;
        else
          Dims.push_back(D);
      }
      // A target Reshape itself refuses (negative, overflowing) is not ours to judge.
      absl::StatusOr<int64_t> Known = numElements(Dims);
      if (Known.ok() && (Wild ? *Known != 0 && *Count % *Known != 0 : *Known != *Count))
        return absl::StrCat("a Reshape of ", formatPartialShape(X), " (", *Count,
                            " elements) to a shape of ", *Known,
                            Wild ? " elements times -1" : " elements");
    }
  }
  static const llvm::StringSet<> Broadcasting = {
      "Add", "AddV2", "Sub", "Mul", "RealDiv", "Div", "Maximum", "Minimum",
      "SquaredDifference", "Pow", "FloorDiv", "FloorMod", "Equal", "NotEqual",
      "Less", "LessEqual", "Greater", "GreaterEqual", "SelectV2"};
  if (Broadcasting.contains(Op) && Data >= 2) {
    PartialShape A = In(Data - 2), B = In(Data - 1);
    if (A.rankKnown() && B.rankKnown())
      for (int64_t I = 1; I <= std::min(A.rank(), B.rank()); ++I) {
        int64_t DA = A.dim(A.rank() - I), DB = B.dim(B.rank() - I);
        if (DA > 1 && DB > 1 && DA != DB)
          return absl::StrCat("shapes ", formatPartialShape(A), " and ", formatPartialShape(B),
                              " do not broadcast");
      }
  }
  return "";
}

class SetInputShapesPass : public Pass {
public:
  SetInputShapesPass() = default;
  explicit SetInputShapesPass(const SetInputShapesOptions &O) {
    Shapes.set(O.Shapes);
    BatchSize.set(O.BatchSize);
  }

private:
  ListOption<std::string> Shapes{*this, "shapes",
                                 "NAME:D,D,... the shape each named input takes (NAME: a scalar)"};
  Option<int64_t> BatchSize{*this, "batch-size",
                            "The first dimension of every other input whose first dimension "
                            "is unknown (0: none)",
                            0};
  Statistic NumShaped{*this, "inputs-shaped", "Placeholders given a shape"};
  Statistic NumRefined{*this, "output-shapes-refined", "`_output_shapes` made more precise"};

  absl::Status validateOptions() const override {
    if (Shapes.empty() && *BatchSize == 0)
      return absl::InvalidArgumentError(
          "needs shapes=NAME:D,D,...[;NAME:...] or batch-size=N: the shapes to set");
    if (*BatchSize < 0)
      return absl::InvalidArgumentError(
          absl::StrCat("batch-size must be positive, not ", *BatchSize));
    for (const std::string &Item : Shapes)
      FROST_RETURN_IF_ERROR(parseItem(Item).status());
    return absl::OkStatus();
  }

  static absl::StatusOr<std::pair<std::string, std::vector<int64_t>>>
  parseItem(llvm::StringRef Item) {
    auto [Name, Dims] = Item.rsplit(':');
    if (Name.trim().empty() || !Item.contains(':'))
      return absl::InvalidArgumentError(
          absl::StrCat("shape item '", Item.str(), "' is not NAME:D,D,... (NAME: a scalar)"));
    absl::StatusOr<std::vector<int64_t>> Shape = parseDimensions(Dims);
    if (!Shape.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("shape item '", Item.str(), "': ", Shape.status().message()));
    return std::make_pair(Name.trim().str(), *std::move(Shape));
  }

  absl::Status run(Model &M, PassContext &) override {
    Graph &G = M.graph();
    llvm::StringSet<> Named;
    for (const std::string &Item : Shapes) {
      auto [Name, Dims] = *parseItem(Item);
      Node *N = G.findNode(Name);
      if (!N)
        return absl::NotFoundError(
            absl::StrCat("input '", Name, "': no such node (give a Placeholder's name)"));
      if (N->op() != "Placeholder" && N->op() != "PlaceholderWithDefault")
        return absl::InvalidArgumentError(absl::StrCat(
            "input '", Name, "' is a ", N->op().str(), ", not a Placeholder"));
      PartialShape Declared = declaredShape(*N);
      PartialShape Given(Dims);
      if (!refineShape(Declared, Given))
        return absl::InvalidArgumentError(
            absl::StrCat("input '", Name, "': shape ", formatPartialShape(Given),
                         " does not fit the declared ", formatPartialShape(Declared)));
      FROST_RETURN_IF_ERROR(setShape(*N, std::move(Dims)));
      Named.insert(Name);
      ++NumShaped;
    }
    if (*BatchSize > 0)
      for (Node &N : G) {
        if (N.op() != "Placeholder" || Named.contains(N.name()))
          continue;
        PartialShape Declared = declaredShape(N);
        if (!Declared.rankKnown() || Declared.rank() == 0 || Declared.dim(0) >= 0)
          continue;
        std::vector<int64_t> Dims(Declared.dims().begin(), Declared.dims().end());
        Dims[0] = *BatchSize;
        FROST_RETURN_IF_ERROR(setShape(N, std::move(Dims)));
        ++NumShaped;
      }
    return propagate(G);
  }

  /// The new shapes through the graph: conflicts found, `_output_shapes`
  /// refined.
  absl::Status propagate(Graph &G) {
    GraphShapes Inferred = inferGraphShapes(G);
    for (Node &N : G) {
      if (std::string Why = conflictOf(N, Inferred); !Why.empty())
        return absl::InvalidArgumentError(absl::StrCat(
            "node '", N.name().str(), "' (", N.op().str(), ") cannot take the shapes: ", Why));
      const tensorflow::AttrValue *Recorded = N.findAttr("_output_shapes");
      if (!Recorded)
        continue;
      for (int Port = 0; Port < Recorded->list().shape_size(); ++Port) {
        PartialShape Old = partialShapeFromProto(Recorded->list().shape(Port));
        std::optional<PartialShape> New = refineShape(Inferred.of(N, Port), Old);
        if (!New)
          return absl::InvalidArgumentError(absl::StrCat(
              "node '", N.name().str(), "' (", N.op().str(), "): output ", Port, " is now ",
              formatPartialShape(Inferred.of(N, Port)), ", but the graph records ",
              formatPartialShape(Old)));
        if (*New == Old)
          continue;
        *N.attr("_output_shapes").mutable_list()->mutable_shape(Port) = partialShapeToProto(*New);
        ++NumRefined;
      }
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createSetInputShapesPass() { return std::make_unique<SetInputShapesPass>(); }

std::unique_ptr<Pass> createSetInputShapesPass(const SetInputShapesOptions &Options) {
  return makeNamedPass<SetInputShapesPass>(PassName::createSetInputShapesPass, Options);
}

} // namespace frost
