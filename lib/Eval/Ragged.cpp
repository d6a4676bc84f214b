//===- Ragged.cpp - RaggedTensorToTensor ----------------------------------===//
//
// TensorFlow's RaggedTensorToTensor (ragged_tensor_to_tensor_op.cc), the op
// behind RaggedTensor.to_tensor() and Keras' ragged preprocessing outputs: a
// ragged tensor (flat values and row partitions, ROW_SPLITS or
// FIRST_DIM_SIZE then VALUE_ROWIDS) written into a dense tensor of a given
// (or the smallest) shape, rows cut to it and padded with the default value.
// Elements are moved, never computed: the output is TensorFlow's bit for bit.
// Where TensorFlow's kernel trusts its inputs and reads or writes out of
// bounds (row partitions that cover more values than there are, unsorted
// row ids), Frost refuses them.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

#include "absl/strings/str_join.h"

#include <algorithm>

namespace frost::eval {

namespace {

enum class PartitionType { FirstDimSize, ValueRowIds, RowSplits };

/// Index vectors bigger than this are refused: TensorFlow would build them
/// whatever their size, from a few numbers of a row partition.
constexpr int64_t MaxIndexEntries = int64_t(1) << 28;

/// The output index of each element of one level of the ragged tensor: where
/// its first value goes in the output (in elements of the innermost dense
/// part), or -1 when it is cut off. The first level is implicit: rows below
/// `Known` go to i * multiplier, the rest (up to `Size`) are cut off.
struct LevelIndex {
  std::vector<int64_t> Known;
  int64_t Size = 0;

  int64_t at(int64_t I) const { return I < static_cast<int64_t>(Known.size()) ? Known[I] : -1; }
};

/// The element count of a shape that passed makeShape.
int64_t elementCount(llvm::ArrayRef<int64_t> Shape) {
  int64_t N = 1;
  for (int64_t D : Shape)
    N *= D;
  return N;
}

/// "[2,?]" for a partial shape, "<unknown>" for an unknown rank.
std::string partialShapeString(const std::optional<std::vector<int64_t>> &Shape) {
  if (!Shape)
    return "<unknown>";
  std::vector<std::string> Dims;
  for (int64_t D : *Shape)
    Dims.push_back(D < 0 ? "?" : absl::StrCat(D));
  return absl::StrCat("[", absl::StrJoin(Dims, ","), "]");
}

class RaggedToDense {
public:
  explicit RaggedToDense(const KernelContext &Ctx) : Ctx(Ctx) {}

  absl::StatusOr<Outputs> run();

private:
  absl::Status readPartitionTypes();
  /// The partition from dimension `D` to D + 1, and its type.
  const TensorData &partition(int D) const { return Ctx.input(3 + D + FirstDimGiven); }
  PartitionType partitionType(int D) const { return Types[D + FirstDimGiven]; }
  absl::StatusOr<std::vector<int64_t>> partitionValues(int D) const;
  absl::StatusOr<int64_t> firstDimension() const;
  absl::StatusOr<std::vector<int64_t>> outputShape(int64_t FirstDim) const;
  absl::StatusOr<int64_t> maxWidth(int D) const;
  absl::StatusOr<LevelIndex> nextLevel(int D, const LevelIndex &Parent, int64_t Multiplier,
                                       int64_t Width) const;
  absl::StatusOr<TensorData> defaultRow(llvm::ArrayRef<int64_t> RowShape) const;
  absl::StatusOr<TensorData> write(const std::vector<int64_t> &Shape, int64_t RowSize,
                                   const LevelIndex &Index) const;

  const KernelContext &Ctx;
  std::vector<PartitionType> Types;
  bool FirstDimGiven = false;
  int RaggedRank = 0;
};

absl::Status RaggedToDense::readPartitionTypes() {
  if (const tensorflow::AttrValue *A = Ctx.attr("row_partition_types"))
    for (const std::string &Name : A->list().s()) {
      if (Name == "FIRST_DIM_SIZE")
        Types.push_back(PartitionType::FirstDimSize);
      else if (Name == "VALUE_ROWIDS")
        Types.push_back(PartitionType::ValueRowIds);
      else if (Name == "ROW_SPLITS")
        Types.push_back(PartitionType::RowSplits);
      else
        return Ctx.invalid(absl::StrCat("Unknown string for partition info type: ", Name));
    }
  if (Types.empty())
    return Ctx.invalid("No row_partition_types given.");
  FirstDimGiven = Types[0] == PartitionType::FirstDimSize;
  RaggedRank = static_cast<int>(Types.size()) - FirstDimGiven;
  return Ctx.checkNumInputs(3 + Types.size());
}

absl::StatusOr<std::vector<int64_t>> RaggedToDense::partitionValues(int D) const {
  return intElements(Ctx, 3 + D + FirstDimGiven);
}

absl::StatusOr<int64_t> RaggedToDense::firstDimension() const {
  const TensorData &First = Ctx.input(3);
  switch (Types[0]) {
  case PartitionType::FirstDimSize: {
    if (First.numElements() != 1)
      return Ctx.invalid(absl::StrCat("FIRST_DIM_SIZE must be a scalar, got shape ",
                                      shapeOf(First)));
    FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Size, intElements(Ctx, 3));
    if (Size[0] < 0)
      return Ctx.invalid(absl::StrCat("FIRST_DIM_SIZE must be non-negative, got ", Size[0]));
    return Size[0];
  }
  case PartitionType::ValueRowIds:
    return Ctx.invalid("Cannot handle VALUE_ROWIDS in first dimension.");
  case PartitionType::RowSplits:
    if (First.shape().empty())
      return Ctx.invalid("row_splits must be a vector, got a scalar");
    return First.shape()[0] - 1;
  }
  return 0;
}

/// The longest row of the partition into dimension `D` (D >= 1).
absl::StatusOr<int64_t> RaggedToDense::maxWidth(int D) const {
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> V, partitionValues(D - 1));
  int64_t Max = 0;
  switch (partitionType(D - 1)) {
  case PartitionType::RowSplits:
    for (size_t I = 0; I + 1 < V.size(); ++I)
      Max = std::max(Max, V[I + 1] - V[I]);
    return Max;
  case PartitionType::ValueRowIds: {
    if (V.empty())
      return 0;
    // The longest run of equal ids (TensorFlow counts runs, not ids).
    int64_t RunStart = 0;
    for (int64_t I = 1; I < static_cast<int64_t>(V.size()); ++I)
      if (V[I] != V[RunStart]) {
        Max = std::max(Max, I - RunStart);
        RunStart = I;
      }
    return std::max<int64_t>(Max, V.size() - RunStart);
  }
  case PartitionType::FirstDimSize:
    break;
  }
  return Ctx.invalid("Cannot handle partition type FIRST_DIM_SIZE");
}

/// TensorFlow's CalculateOutputSize: the shape input (a partial shape, or -1
/// for an unknown rank) combined with the values' shape; unknown ragged dims
/// are the longest rows.
absl::StatusOr<std::vector<int64_t>> RaggedToDense::outputShape(int64_t FirstDim) const {
  llvm::ArrayRef<int64_t> Values = Ctx.input(1).shape(), Default = Ctx.input(2).shape();
  const int64_t ValuesRank = Values.size(), DefaultRank = Default.size();
  if (DefaultRank >= ValuesRank)
    return Ctx.invalid(absl::StrCat(
        "default_value.shape=", shapeString(Default), " and rt_input.flat_values.shape=",
        shapeString(Values), " are incompatible: default_value.rank = ", DefaultRank,
        "  must be less than rt_input.flat_values.rank = ", ValuesRank));
  // TensorFlow compares default_value's dims with the values' from the
  // second on, aligned left (and then broadcasts it aligned right).
  for (int64_t I = 0; I < DefaultRank; ++I)
    if (Default[I] != 1 && Default[I] != Values[I + 1])
      return Ctx.invalid(absl::StrCat(
          "default_value.shape=", shapeString(Default), " and rt_input.flat_values.shape=",
          shapeString(Values), " are incompatible: default_value.shape[", I - DefaultRank,
          "] = ", Default[I], " but rt_input.flat_values.shape[", I - DefaultRank,
          "] = ", Values[I + 1]));

  const TensorData &ShapeInput = Ctx.input(0);
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Given, intElements(Ctx, 0));
  std::optional<std::vector<int64_t>> Requested;
  if (ShapeInput.shape().empty()) {
    if (Given[0] != -1)
      return Ctx.invalid("The only valid scalar shape tensor is the fully unknown shape "
                         "specified as -1.");
  } else if (ShapeInput.shape().size() != 1) {
    return Ctx.invalid(
        absl::StrCat("Shape must be at most rank 1 but is rank ", ShapeInput.shape().size()));
  } else {
    for (int64_t D : Given)
      if (D < -1)
        return Ctx.invalid(absl::StrCat("Dimension ", D, " must be >= -1"));
    Requested = Given;
  }
  const int64_t Rank = RaggedRank + ValuesRank;
  std::vector<int64_t> Shape = Requested ? *Requested : std::vector<int64_t>(Rank, -1);
  if (static_cast<int64_t>(Shape.size()) != Rank)
    return Ctx.invalid(absl::StrCat("rt_input.shape and shape=", partialShapeString(Requested),
                                    " are incompatible: rt_input.rank = ", Rank,
                                    " but shape.rank = ", Shape.size()));
  for (int64_t I = 1; I < ValuesRank; ++I) {
    int64_t &Dim = Shape[Rank - ValuesRank + I];
    if (Dim >= 0 && Dim != Values[I])
      return Ctx.invalid(absl::StrCat("rt_input.shape and shape=", partialShapeString(Requested),
                                      " are incompatible: rt_input.shape[", I + RaggedRank,
                                      "] = ", Values[I], " but shape[", I + RaggedRank,
                                      "] = ", Dim));
    Dim = Values[I];
  }
  if (Shape[0] < 0)
    Shape[0] = FirstDim;
  for (int D = 1; D <= RaggedRank; ++D)
    if (Shape[D] < 0) {
      FROST_ASSIGN_OR_RETURN(Shape[D], maxWidth(D));
    }
  return makeShape(Ctx, Ctx.input(1).dtype(), std::move(Shape));
}

/// TensorFlow's CalculateOutputIndex: the output index of each element of
/// the level below `Parent` (partition `D`), each row cut to `Width`.
absl::StatusOr<LevelIndex> RaggedToDense::nextLevel(int D, const LevelIndex &Parent,
                                                    int64_t Multiplier, int64_t Width) const {
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> V, partitionValues(D));
  LevelIndex Out;
  std::vector<int64_t> &Index = Out.Known;
  switch (partitionType(D)) {
  case PartitionType::ValueRowIds: {
    int64_t Column = 0;
    for (size_t I = 0; I < V.size(); ++I) {
      if (I > 0 && V[I] == V[I - 1]) {
        int64_t Previous = Index.back();
        Index.push_back(Previous >= 0 && ++Column < Width ? Previous + Multiplier : -1);
        continue;
      }
      if (V[I] < 0 || V[I] >= Parent.Size)
        return Ctx.invalid(absl::StrCat("Got ", I ? "next" : "current", "_value_rowid=", V[I],
                                        " which is not less than ", Parent.Size));
      if (I > 0 && V[I] < V[I - 1])
        return Ctx.invalid(
            absl::StrCat("value_rowids must be sorted, got ", V[I], " after ", V[I - 1]));
      Column = 0;
      Index.push_back(Parent.at(V[I]));
    }
    break;
  }
  case PartitionType::RowSplits: {
    const int64_t Rows = static_cast<int64_t>(V.size()) - 1;
    // TensorFlow compares unsigned: an empty row_splits is "-1 > size" too.
    if (Rows > Parent.Size || V.empty())
      return Ctx.invalid(absl::StrCat("Row partition size is greater than output size: ", Rows,
                                      " > ", Parent.Size));
    const int64_t Total = V.empty() ? 0 : V.back();
    for (int64_t I = 0; I < Rows; ++I) {
      const int64_t Length = V[I + 1] - V[I], Start = Parent.at(I);
      const int64_t Kept = Start == -1 ? 0 : std::min(Width, Length);
      if (Length > 0 && static_cast<int64_t>(Index.size()) + Length > Total)
        return Ctx.invalid("Invalid row split size.");
      for (int64_t J = 0; J < Kept; ++J)
        Index.push_back(Start + J * Multiplier);
      Index.insert(Index.end(), std::max<int64_t>(Length - std::max<int64_t>(Kept, 0), 0), -1);
    }
    if (!V.empty() && static_cast<int64_t>(Index.size()) != Total)
      return Ctx.invalid("Invalid row split size.");
    break;
  }
  case PartitionType::FirstDimSize:
    return Ctx.invalid("Unsupported partition type:FIRST_DIM_SIZE");
  }
  Out.Size = static_cast<int64_t>(Index.size());
  return Out;
}

/// default_value broadcast to one row of the output (`RowShape`).
absl::StatusOr<TensorData> RaggedToDense::defaultRow(llvm::ArrayRef<int64_t> RowShape) const {
  const TensorData &Default = Ctx.input(2);
  llvm::ArrayRef<int64_t> From = Default.shape();
  bool Broadcasts = From.size() <= RowShape.size();
  for (size_t I = 0; Broadcasts && I < From.size(); ++I) {
    int64_t To = RowShape[RowShape.size() - From.size() + I];
    Broadcasts = From[I] == 1 || From[I] == To;
  }
  if (!Broadcasts)
    return Ctx.invalid("Error broadcasting default_value");
  return gatherIndexed(Ctx, Default, 0, broadcastOffsets(From, RowShape),
                       std::vector<int64_t>(RowShape.begin(), RowShape.end()));
}

/// TensorFlow's SetOutput: the values whose output index is not -1 copied in
/// runs, the gaps filled with default rows, in output order.
absl::StatusOr<TensorData> RaggedToDense::write(const std::vector<int64_t> &Shape,
                                                int64_t RowSize, const LevelIndex &Index) const {
  const TensorData &Values = Ctx.input(1), &Default = Ctx.input(2);
  const int64_t OutRows = elementCount(Shape) / RowSize;
  const int64_t ValueRows = Values.shape()[0];
  llvm::ArrayRef<int64_t> RowShape = llvm::ArrayRef<int64_t>(Shape).drop_front(RaggedRank + 1);
  // Like TensorFlow, a default of one element or of a whole row is used as
  // it is; others are broadcast to a row.
  const bool AsIs = Default.numElements() == 1 || Default.numElements() == RowSize;
  FROST_ASSIGN_OR_RETURN(TensorData Row, AsIs ? Default : defaultRow(RowShape));
  ElementWriter Out(Values.dtype(), Shape);
  int64_t Written = 0;
  auto Pad = [&](int64_t Until) {
    if (Row.numElements() == 1)
      Out.appendRepeated(Row, 0, (Until - Written) * RowSize);
    else
      for (int64_t R = Written; R < Until; ++R)
        Out.append(Row, 0, RowSize);
    Written = Until;
  };
  const std::vector<int64_t> &Dest = Index.Known;
  const int64_t N = static_cast<int64_t>(Dest.size());
  if (N > ValueRows)
    return Ctx.invalid(absl::StrCat("the row partitions cover ", N,
                                    " values but flat_values has ", ValueRows));
  // A run of values goes to consecutive rows from `Written`; an index that
  // jumps ahead pads first, -1 skips the value.
  int64_t RunStart = 0, RunEnd = 0; // In values.
  auto Flush = [&]() -> absl::Status {
    const int64_t Count = RunEnd - RunStart;
    if (Written + Count > OutRows)
      return Ctx.invalid("value_rowids must be sorted");
    Out.append(Values, RunStart * RowSize, Count * RowSize);
    Written += Count;
    return absl::OkStatus();
  };
  for (int64_t I = 0; I < N; ++I) {
    if (Dest[I] == Written + (RunEnd - RunStart)) {
      ++RunEnd;
      continue;
    }
    FROST_RETURN_IF_ERROR(Flush());
    if (Dest[I] > Written)
      Pad(Dest[I]);
    RunStart = Dest[I] < 0 ? I + 1 : I;
    RunEnd = I + 1;
  }
  FROST_RETURN_IF_ERROR(Flush());
  Pad(OutRows);
  return std::move(Out).finish();
}

absl::StatusOr<Outputs> RaggedToDense::run() {
  FROST_RETURN_IF_ERROR(readPartitionTypes());
  const TensorData &Values = Ctx.input(1);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, Values.dtype(),
                                   dtypes::Pod | dtypes::String | dtypes::Quantized));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 1, 3));
  if (Ctx.input(3).numElements() == 0)
    return Ctx.invalid("Invalid first partition input. Tensor requires at least one element.");
  FROST_ASSIGN_OR_RETURN(int64_t FirstDim, firstDimension());
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Shape, outputShape(FirstDim));
  if (elementCount(Shape) == 0)
    return Outputs{ElementWriter(Values.dtype(), Shape).finish()};
  // Multiplier[D]: the output rows (of the dense part below the ragged
  // dims) one step along dimension D moves.
  std::vector<int64_t> Multiplier(RaggedRank + 1, 1);
  for (int D = RaggedRank - 1; D >= 0; --D)
    Multiplier[D] = Multiplier[D + 1] * Shape[D + 1];
  int64_t RowSize = 1;
  for (size_t D = RaggedRank + 1; D < Shape.size(); ++D)
    RowSize *= Shape[D];
  LevelIndex Index;
  Index.Size = FirstDim;
  for (int64_t I = 0; I < std::min(FirstDim, Shape[0]); ++I)
    Index.Known.push_back(I * Multiplier[0]);
  for (int D = 1; D <= RaggedRank; ++D) {
    FROST_ASSIGN_OR_RETURN(std::vector<int64_t> V, partitionValues(D - 1));
    if (!V.empty() && std::abs(V.back()) > MaxIndexEntries)
      return Ctx.unimplemented(absl::StrCat("a row partition of ", V.back(), " values"));
    FROST_ASSIGN_OR_RETURN(Index, nextLevel(D - 1, Index, Multiplier[D], Shape[D]));
  }
  FROST_ASSIGN_OR_RETURN(TensorData Out, write(Shape, RowSize, Index));
  return Outputs{std::move(Out)};
}

} // namespace

absl::StatusOr<Outputs> evalRaggedTensorToTensor(const KernelContext &Ctx) {
  return RaggedToDense(Ctx).run();
}

} // namespace frost::eval
