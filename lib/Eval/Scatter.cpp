//===- Scatter.cpp - Gathering and scattering slices by index tuples ------===//
//
// TensorFlow's gather_nd_op.cc and scatter_nd_op.cc (ScatterNd,
// TensorScatterUpdate, TensorScatterAdd) on CPU, with their checks and
// messages. An index tuple (the last dim of `indices`) names a slice of the
// params or output; scatters apply the updates in index order, one slice at
// a time, as TensorFlow's CPU functor does, so repeated indices sum (or the
// last update wins) in the same order and the results are bitwise TensorFlow's.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

#include "absl/strings/str_join.h"

#include <type_traits>

namespace frost::eval {

namespace {

using tensorflow::DataType;

/// TensorFlow's SliceDebugString: the position of flat index `Flat` in
/// `Shape`, "[1,2]", or "" for a scalar shape.
std::string slicePosition(llvm::ArrayRef<int64_t> Shape, int64_t Flat) {
  if (Shape.empty())
    return "";
  std::vector<int64_t> Pos(Shape.size());
  for (int64_t D = static_cast<int64_t>(Shape.size()) - 1; D >= 0; --D) {
    Pos[D] = Shape[D] ? Flat % Shape[D] : 0;
    Flat = Shape[D] ? Flat / Shape[D] : 0;
  }
  return absl::StrCat("[", absl::StrJoin(Pos, ","), "]");
}

/// The flat slice number each index tuple names in `Shape` (tuples of
/// `Depth` ints from `Indices`), or the number of the first tuple out of
/// range as `Bad`.
struct SliceLocations {
  std::vector<int64_t> Slices;
  int64_t Bad = -1;
};

SliceLocations locate(const std::vector<int64_t> &Indices, int64_t Depth,
                      llvm::ArrayRef<int64_t> Shape, bool StopAtBad) {
  SliceLocations L;
  int64_t Count = Depth ? static_cast<int64_t>(Indices.size()) / Depth : 0;
  L.Slices.assign(Count, 0);
  for (int64_t I = 0; I < Count; ++I) {
    int64_t Flat = 0;
    bool Bad = false;
    for (int64_t D = 0; D < Depth; ++D) {
      int64_t V = Indices[I * Depth + D];
      Bad |= V < 0 || V >= Shape[D];
      Flat = Flat * Shape[D] + V;
    }
    if (Bad) {
      L.Slices[I] = -1;
      if (L.Bad < 0)
        L.Bad = I;
      if (StopAtBad)
        return L;
    } else {
      L.Slices[I] = Flat;
    }
  }
  return L;
}

std::string tupleString(const std::vector<int64_t> &Indices, int64_t Tuple, int64_t Depth) {
  return absl::StrJoin(Indices.begin() + Tuple * Depth, Indices.begin() + (Tuple + 1) * Depth,
                       ", ");
}

} // namespace

// --- GatherNd ----------------------------------------------------------------

absl::StatusOr<Outputs> evalGatherNd(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &Params = Ctx.input(0), &IndicesT = Ctx.input(1);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, Params.dtype(),
                                   dtypes::Pod | dtypes::Float8 | dtypes::Quantized8And32 |
                                       dtypes::String | dtypes::Variant));
  FROST_ASSIGN_OR_RETURN(std::string Policy, Ctx.stringAttr("bad_indices_policy", ""));
  if (Policy != "" && Policy != "DEFAULT" && Policy != "ERROR" && Policy != "IGNORE")
    return Ctx.invalid(absl::StrCat("Unknown bad indices handling attribute: ", Policy));
  if (Params.shape().empty())
    return Ctx.invalid("params must be at least a vector");
  if (IndicesT.shape().empty())
    return Ctx.invalid("indices must be at least a vector");
  int64_t Depth = IndicesT.shape().back();
  int64_t Rank = Params.shape().size();
  if (Depth > Rank)
    return Ctx.invalid(absl::StrCat(
        "index innermost dimension length must be <= params rank; saw: ", Depth, " vs. ", Rank));
  DataType IndexType = IndicesT.dtype();
  int64_t IndexMax = IndexType == tensorflow::DT_INT16   ? INT16_MAX
                     : IndexType == tensorflow::DT_INT32 ? INT32_MAX
                                                         : INT64_MAX;
  if (Params.numElements() > IndexMax)
    return Ctx.invalid(absl::StrCat("params.NumElements() too large for ",
                                    dataTypeName(IndexType), " indexing: ",
                                    Params.numElements(), " > ", IndexMax));
  FROST_ASSIGN_OR_RETURN(
      std::vector<int64_t> Indices,
      intElements(Ctx, 1,
                  dtypeBit(tensorflow::DT_INT16) | dtypeBit(tensorflow::DT_INT32) |
                      dtypeBit(tensorflow::DT_INT64)));
  std::vector<int64_t> BatchShape(IndicesT.shape().begin(), IndicesT.shape().end() - 1);
  std::vector<int64_t> OutShape = BatchShape;
  int64_t SliceSize = 1;
  for (int64_t D = Depth; D < Rank; ++D) {
    OutShape.push_back(Params.shape()[D]);
    SliceSize *= Params.shape()[D];
  }
  FROST_ASSIGN_OR_RETURN(int64_t Count, checkOutputShape(Ctx, Params.dtype(), OutShape, {&Params}));
  if (Count > 0 && Params.numElements() == 0)
    return Ctx.invalid(absl::StrCat(
        "Requested more than 0 entries, but params is empty.  Params shape: ", shapeOf(Params)));
  int64_t Tuples = 1;
  for (int64_t D : BatchShape)
    Tuples *= D;
  std::vector<int64_t> Slices(Tuples, 0);
  if (Depth > 0) {
    SliceLocations L = locate(Indices, Depth, Params.shape(), false);
    if (L.Bad >= 0 && Policy != "IGNORE")
      return Ctx.invalid(absl::StrCat("indices", slicePosition(BatchShape, L.Bad), " = [",
                                      tupleString(Indices, L.Bad, Depth),
                                      "] does not index into param shape ", shapeOf(Params)));
    Slices = std::move(L.Slices);
  }
  TensorData Zero = zeroScalar(Params.dtype());
  ElementWriter Out(Params.dtype(), OutShape);
  if (Count > 0)
    for (int64_t Slice : Slices) {
      if (Slice < 0)
        Out.appendRepeated(Zero, 0, SliceSize); // IGNORE: a bad tuple gathers zeros.
      else
        Out.append(Params, Slice * SliceSize, SliceSize);
    }
  return Outputs{std::move(Out).finish()};
}

// --- ScatterNd, TensorScatterUpdate, TensorScatterAdd ------------------------

namespace {

enum class ScatterOp { Assign, Add };

/// Applies update slice I to output slice Slices[I], in order.
template <typename T>
void scatterTyped(T *Out, const T *Updates, const std::vector<int64_t> &Slices, int64_t SliceSize,
                  ScatterOp Op) {
  for (size_t I = 0; I < Slices.size(); ++I) {
    T *Dst = Out + Slices[I] * SliceSize;
    const T *Src = Updates + I * SliceSize;
    for (int64_t K = 0; K < SliceSize; ++K) {
      if (Op == ScatterOp::Assign)
        Dst[K] = Src[K];
      else if constexpr (std::is_same_v<T, bool>)
        Dst[K] = Dst[K] || Src[K]; // Eigen's bool sum.
      else if constexpr (std::is_integral_v<T>)
        Dst[K] = static_cast<T>(static_cast<std::make_unsigned_t<T>>(Dst[K]) +
                                static_cast<std::make_unsigned_t<T>>(Src[K])); // Wraps.
      else
        Dst[K] = Dst[K] + Src[K];
    }
  }
}

/// DoScatterNd's ValidateUpdateShape. It reads indices of rank 1 as tuples
/// of one index where checkSliceShapes reads one tuple: only such indices
/// reach its errors (checkSliceShapes refuses the others first, so updates
/// have at least the batch dims here).
absl::Status validateUpdateShape(const KernelContext &Ctx, llvm::ArrayRef<int64_t> Shape,
                                 const TensorData &Indices, const TensorData &Updates) {
  int64_t IndicesRank = Indices.shape().size(), UpdatesRank = Updates.shape().size();
  int64_t Rank = Shape.size();
  int64_t SliceDim = IndicesRank > 1 ? Indices.shape().back() : 1;
  int64_t BatchDim = IndicesRank > 1 ? IndicesRank - 1 : 1;
  for (int64_t D = 0; D < BatchDim; ++D)
    if (Updates.shape()[D] != Indices.shape()[D])
      return Ctx.invalid(absl::StrCat("Dimensions [0,", BatchDim, ") of indices[shape=",
                                      shapeOf(Indices), "] = ", Indices.shape()[D],
                                      " must match dimensions [0,", BatchDim,
                                      ") of updates[shape=", shapeOf(Updates),
                                      "] = ", Updates.shape()[D]));
  auto SuffixError = [&] {
    return Ctx.invalid(absl::StrCat("Dimensions [", SliceDim, ",", Rank, ") of input[shape=",
                                    shapeString(Shape), "] must match dimensions [", BatchDim,
                                    ",", UpdatesRank, ") of updates[shape=", shapeOf(Updates),
                                    "]"));
  };
  if (Rank < SliceDim + (UpdatesRank - BatchDim))
    return SuffixError();
  if (UpdatesRank != BatchDim + Rank - SliceDim)
    return SuffixError();
  for (int64_t D = 0; D < UpdatesRank - BatchDim; ++D)
    if (Updates.shape()[D + BatchDim] != Shape[D + SliceDim])
      return SuffixError();
  return absl::OkStatus();
}

/// ScatterNdOp::Compute's own shape checks, before DoScatterNd's
/// (validateUpdateShape): the outer dims of indices and updates match, and
/// the inner dims of updates are the output's dims past the index depth.
absl::Status checkSliceShapes(const KernelContext &Ctx, llvm::ArrayRef<int64_t> Shape,
                              const TensorData &Indices, const TensorData &Updates) {
  const int64_t Outer = Indices.shape().size() - 1, Depth = Indices.shape().back();
  const int64_t UpdatesRank = Updates.shape().size(), Rank = Shape.size();
  for (int64_t D = 0; D < Outer; ++D)
    if (D >= UpdatesRank || Indices.shape()[D] != Updates.shape()[D])
      return Ctx.invalid(absl::StrCat("Dimensions [0,", Outer, ") of indices[shape=",
                                      shapeOf(Indices), "] must match dimensions [0,", Outer,
                                      ") of updates[shape=", shapeOf(Updates), "]"));
  auto SuffixError = [&] {
    return Ctx.invalid(absl::StrCat("Dimensions [", Depth, ",", Rank, ") of input[shape=",
                                    shapeString(Shape), "] must match dimensions [", Outer, ",",
                                    UpdatesRank, ") of updates[shape=", shapeOf(Updates), "]"));
  };
  if (UpdatesRank - Outer != Rank - Depth)
    return SuffixError();
  for (int64_t D = 0; D + Outer < UpdatesRank; ++D)
    if (Updates.shape()[D + Outer] != Shape[Depth + D])
      return SuffixError();
  return absl::OkStatus();
}

/// Scatters `Updates` into a tensor of `Shape` holding `Base` (the input of
/// the TensorScatter ops) or, without one, zeros (ScatterNd).
absl::StatusOr<Outputs> scatter(const KernelContext &Ctx, std::vector<int64_t> Shape,
                                const TensorData *Base, size_t IndicesInput,
                                const TensorData &Updates, ScatterOp Op) {
  const TensorData &IndicesT = Ctx.input(IndicesInput);
  const DataType DType = Updates.dtype();
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Indices, intElements(Ctx, IndicesInput));
  int64_t Depth = IndicesT.shape().back();
  int64_t SliceSize = 1, Count = 1;
  for (size_t D = 0; D < Shape.size(); ++D) {
    Count *= Shape[D];
    if (static_cast<int64_t>(D) >= Depth)
      SliceSize *= Shape[D];
  }
  if (Count == 0)
    return Outputs{DType == tensorflow::DT_STRING
                       ? TensorData::strings(DType, std::move(Shape), {})
                       : TensorData::owned(DType, std::move(Shape), std::string())};
  SliceLocations L;
  if (Depth > 0) {
    L = locate(Indices, Depth, Shape, true);
  } else {
    // An empty tuple names the whole tensor, once per update.
    L.Slices.assign(Updates.numElements() / std::max<int64_t>(SliceSize, 1), 0);
  }
  if (L.Bad >= 0) {
    std::vector<int64_t> Batch(IndicesT.shape().begin(), IndicesT.shape().end() - 1);
    return Ctx.invalid(absl::StrCat("indices", slicePosition(Batch, L.Bad), " = [",
                                    tupleString(Indices, L.Bad, Depth),
                                    "] does not index into shape ", shapeString(Shape)));
  }
  if (DType == tensorflow::DT_STRING) {
    std::vector<std::string> Out =
        Base ? std::vector<std::string>(Base->elements().begin(), Base->elements().end())
             : std::vector<std::string>(static_cast<size_t>(Count));
    for (size_t I = 0; I < L.Slices.size(); ++I)
      for (int64_t K = 0; K < SliceSize; ++K) {
        std::string &Dst = Out[L.Slices[I] * SliceSize + K];
        const std::string &Src = Updates.elements()[I * SliceSize + K];
        if (Op == ScatterOp::Assign)
          Dst = Src;
        else
          Dst += Src; // tstring's sum: concatenation.
      }
    return Outputs{TensorData::strings(DType, std::move(Shape), std::move(Out))};
  }
  return dispatch<AllFixed>(Ctx, DType, [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    ElementsOf<T> Upd(Updates);
    OutputOf<T> Out(std::move(Shape)); // Zeros.
    if (Base) {
      ElementsOf<T> In(*Base);
      std::copy(In.begin(), In.end(), Out.data());
    }
    scatterTyped<T>(Out.data(), Upd.data(), L.Slices, SliceSize, Op);
    return Outputs{std::move(Out).finish()};
  });
}

constexpr DTypeMask ScatterTypes =
    (dtypes::Pod & ~(dtypeBit(tensorflow::DT_COMPLEX64) | dtypeBit(tensorflow::DT_COMPLEX128))) |
    dtypes::String;

} // namespace

absl::StatusOr<Outputs> evalScatterNd(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  const TensorData &IndicesT = Ctx.input(0), &Updates = Ctx.input(1), &ShapeT = Ctx.input(2);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, Updates.dtype(), ScatterTypes));
  // TensorFlow checks the shape input's rank after the slice shapes, which
  // read its values as a shape whatever its rank.
  if (IndicesT.shape().empty())
    return Ctx.invalid(absl::StrCat("Indices shape must have rank at least one. Found:",
                                    shapeOf(IndicesT)));
  if (Updates.shape().empty())
    return Ctx.invalid(absl::StrCat("Updates shape must have rank at least one. Found:",
                                    shapeOf(Updates)));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Dims, intElements(Ctx, 2));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Shape, makeShape(Ctx, Updates.dtype(), Dims));
  // TensorFlow's ValidEmptyOutputShape: no indices and no updates, or all three non-empty.
  const bool NoIndices = IndicesT.numElements() == 0, NoUpdates = Updates.numElements() == 0;
  if (!(NoIndices && NoUpdates) && (ShapeT.numElements() == 0 || NoIndices || NoUpdates))
    return Ctx.invalid("Indices and updates specified for empty output shape");
  FROST_RETURN_IF_ERROR(checkSliceShapes(Ctx, Shape, IndicesT, Updates));
  if (ShapeT.shape().size() != 1)
    return Ctx.invalid("Shape must be a vector");
  int64_t Count = 1;
  for (int64_t D : Shape)
    Count *= D;
  if (Count == 0 && (IndicesT.numElements() != 0 || Updates.numElements() != 0))
    return Ctx.invalid(absl::StrCat(
        "Indices and updates specified for empty output.  indices shape: ", shapeOf(IndicesT)));
  FROST_RETURN_IF_ERROR(validateUpdateShape(Ctx, Shape, IndicesT, Updates));
  return scatter(Ctx, std::move(Shape), nullptr, 0, Updates, ScatterOp::Add);
}

namespace {

absl::StatusOr<Outputs> tensorScatter(const KernelContext &Ctx, ScatterOp Op) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  const TensorData &Base = Ctx.input(0), &IndicesT = Ctx.input(1), &Updates = Ctx.input(2);
  DTypeMask Types = ScatterTypes;
  if (Op == ScatterOp::Add)
    Types &= ~(dtypeBit(tensorflow::DT_BOOL) | dtypes::String);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, Base.dtype(), Types));
  if (Base.dtype() != Updates.dtype())
    return Ctx.invalid("tensor and updates have different dtypes");
  int64_t IndicesRank = IndicesT.shape().size();
  if (IndicesRank < 1)
    return Ctx.invalid(
        absl::StrCat("Indices shape must have rank at least one. Found:", shapeOf(IndicesT)));
  int64_t Outer = IndicesRank - 1;
  std::string OuterError =
      absl::StrCat("Outer dimensions of indices and update must match. Indices shape: ",
                   shapeOf(IndicesT), ", updates shape:", shapeOf(Updates));
  // TensorFlow reads updates dims past their rank here (a CHECK failure).
  if (static_cast<int64_t>(Updates.shape().size()) < Outer)
    return Ctx.invalid(OuterError);
  for (int64_t D = 0; D < Outer; ++D)
    if (IndicesT.shape()[D] != Updates.shape()[D])
      return Ctx.invalid(OuterError);
  int64_t Depth = IndicesT.shape().back(), Rank = Base.shape().size();
  std::string InnerError = absl::StrCat(
      "Inner dimensions of output shape must match inner dimensions of updates shape. Output: ",
      shapeOf(Base), " updates: ", shapeOf(Updates));
  int64_t UpdatesRank = Updates.shape().size();
  if (UpdatesRank - Outer != Rank - Depth)
    return Ctx.invalid(InnerError);
  for (int64_t D = 0; D + Outer < UpdatesRank; ++D)
    if (Updates.shape()[D + Outer] != Base.shape()[Depth + D])
      return Ctx.invalid(InnerError);
  if (Base.numElements() == 0 && (IndicesT.numElements() != 0 || Updates.numElements() != 0))
    return Ctx.invalid("Indices and updates specified for empty output shape");
  return scatter(Ctx, shapeVector(Base), &Base, 1, Updates, Op);
}

} // namespace

absl::StatusOr<Outputs> evalTensorScatterAdd(const KernelContext &Ctx) {
  return tensorScatter(Ctx, ScatterOp::Add);
}

absl::StatusOr<Outputs> evalTensorScatterUpdate(const KernelContext &Ctx) {
  return tensorScatter(Ctx, ScatterOp::Assign);
}

// --- SparseToDense -----------------------------------------------------------

// SparseToDense (sparse_to_dense_op.cc): the default value everywhere, then
// each value at its index tuple in index order (with validate_indices, the
// tuples must be in bounds, increasing and distinct, as SparseTensor's
// IndicesValid checks them).
absl::StatusOr<Outputs> evalSparseToDense(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(4));
  const TensorData &IndicesT = Ctx.input(0), &ShapeT = Ctx.input(1), &Values = Ctx.input(2),
                   &Default = Ctx.input(3);
  const DataType DType = Values.dtype();
  FROST_RETURN_IF_ERROR(checkDType(Ctx, DType, dtypes::Pod | dtypes::String));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 2, 4));
  FROST_ASSIGN_OR_RETURN(bool Validate, Ctx.boolAttr("validate_indices", true));
  if (IndicesT.shape().size() > 2)
    return Ctx.invalid(absl::StrCat(
        "sparse_indices should be a scalar, vector, or matrix, got shape ", shapeOf(IndicesT)));
  const int64_t Count = IndicesT.shape().empty() ? 1 : IndicesT.shape()[0];
  const int64_t Depth = IndicesT.shape().size() > 1 ? IndicesT.shape()[1] : 1;
  if (ShapeT.shape().size() != 1)
    return Ctx.invalid(absl::StrCat("output_shape must be rank 1, got shape ", shapeOf(ShapeT)));
  if (ShapeT.numElements() != Depth)
    return Ctx.invalid(absl::StrCat("output_shape has incorrect number of elements: ",
                                    ShapeT.numElements(), " should be: ", Depth));
  if (!(Values.shape().empty() ||
        (Values.shape().size() == 1 && Values.numElements() == Count)))
    return Ctx.invalid(absl::StrCat("sparse_values has incorrect shape ", shapeOf(Values),
                                    ", should be [] or [", Count, "]"));
  if (!Default.shape().empty())
    return Ctx.invalid("default_value should be a scalar.");
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Indices, intElements(Ctx, 0));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Dims, intElements(Ctx, 1));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Shape, makeShape(Ctx, DType, Dims));
  auto TupleNoSpace = [&](int64_t I) {
    return absl::StrCat("[",
                        absl::StrJoin(Indices.begin() + I * Depth,
                                      Indices.begin() + (I + 1) * Depth, ","),
                        "]");
  };
  if (Validate) {
    for (int64_t I = 0; I < Count; ++I) {
      bool InBounds = true, Different = I == 0, Increasing = true;
      for (int64_t D = 0; D < Depth; ++D) {
        int64_t V = Indices[I * Depth + D];
        InBounds &= V >= 0 && V < Shape[D];
        if (I > 0) {
          int64_t Diff = V - Indices[(I - 1) * Depth + D];
          if (Diff > 0)
            Different = true;
          if (!Different && Diff < 0)
            Increasing = false;
        }
      }
      if (!InBounds)
        return Ctx.invalid(absl::StrCat("indices[", I, "] = ", TupleNoSpace(I),
                                        " is out of bounds: need 0 <= index < ",
                                        shapeString(Shape)));
      if (!Increasing)
        return Ctx.invalid(absl::StrCat(
            "indices[", I, "] = ", TupleNoSpace(I),
            " is out of order. Many sparse ops require sorted indices.\n"
            "    Use `tf.sparse.reorder` to create a correctly ordered copy.\n\n"));
      if (!Different)
        return Ctx.invalid(absl::StrCat("indices[", I, "] = ", TupleNoSpace(I), " is repeated"));
    }
  }
  SliceLocations L = locate(Indices, Depth, Shape, /*StopAtBad=*/true);
  if (Depth == 0) // Every (empty) tuple names the one element of a scalar.
    L.Slices.assign(static_cast<size_t>(Count), 0);
  if (L.Bad >= 0)
    return Ctx.invalid(
        absl::StrCat("Indices are not valid (out of bounds).  Shape: ", shapeString(Shape)));
  int64_t Elements = 1;
  for (int64_t D : Shape)
    Elements *= D;
  const bool Broadcast = Values.shape().empty();
  if (!Values.isFixedSize()) {
    std::vector<std::string> Out(static_cast<size_t>(Elements), Default.elements()[0]);
    for (int64_t I = 0; I < Count; ++I)
      Out[L.Slices[I]] = Values.elements()[Broadcast ? 0 : I];
    return Outputs{TensorData::strings(DType, std::move(Shape), std::move(Out))};
  }
  const size_t Size = dataTypeSize(DType);
  std::string Bytes;
  Bytes.reserve(static_cast<size_t>(Elements) * Size);
  for (int64_t E = 0; E < Elements; ++E)
    Bytes.append(Default.bytes().data(), Size);
  for (int64_t I = 0; I < Count; ++I)
    std::memcpy(Bytes.data() + L.Slices[I] * Size,
                Values.bytes().data() + (Broadcast ? 0 : I) * Size, Size);
  return Outputs{TensorData::owned(DType, std::move(Shape), std::move(Bytes))};
}

} // namespace frost::eval
