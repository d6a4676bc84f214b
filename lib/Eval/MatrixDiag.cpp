//===- MatrixDiag.cpp - MatrixDiagV3, MatrixDiagPartV3, MatrixSetDiagV3 ---===//
//
// TensorFlow's matrix_diag_op.cc and matrix_set_diag_op.cc: diagonals
// `k = [lower, upper]` of the innermost matrices, each stored as a row of
// the longest diagonal's length, a shorter one aligned left or right by the
// `align` attribute (first word: superdiagonals, second: subdiagonals; the
// main diagonal is left aligned when either word says LEFT). Elements are
// copied, so the
// results are exact; TensorFlow's checks and messages, which differ between
// the three ops in small ways, are kept.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

#include <cstring>

namespace frost::eval {

namespace {

/// The dtypes of TensorFlow's TF_CALL_POD_TYPES registration.
constexpr DTypeMask DiagTypes = dtypes::Pod;

struct Alignment {
  bool LeftSuper = true, LeftSub = true;
};

absl::StatusOr<Alignment> alignmentAttr(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(std::string Align, Ctx.stringAttr("align", "RIGHT_LEFT"));
  if (Align != "LEFT_LEFT" && Align != "LEFT_RIGHT" && Align != "RIGHT_LEFT" &&
      Align != "RIGHT_RIGHT")
    return Ctx.invalid(absl::StrCat("align must be one of LEFT_RIGHT, RIGHT_LEFT, LEFT_LEFT, "
                                    "RIGHT_RIGHT, not \"",
                                    Align, "\""));
  return Alignment{Align == "LEFT_LEFT" || Align == "LEFT_RIGHT",
                   Align == "LEFT_LEFT" || Align == "RIGHT_LEFT"};
}

/// Length of diagonal `D` of a Rows x Cols matrix and where its content
/// starts in a row of `MaxLen` (TensorFlow's ComputeDiagLenAndContentOffset).
struct DiagPlace {
  int64_t Len, Offset;
};
DiagPlace placeOf(int64_t D, int64_t MaxLen, int64_t Rows, int64_t Cols, Alignment A) {
  const bool Left = (D >= 0 && A.LeftSuper) || (D <= 0 && A.LeftSub);
  const int64_t Len = std::min(Rows + std::min<int64_t>(0, D), Cols - std::max<int64_t>(0, D));
  return {Len, Left ? 0 : MaxLen - Len};
}

struct DiagRange {
  int32_t Lower, Upper;
};

/// The `k` input: a scalar or a vector of one or two int32 values.
/// `RequireElement` adds MatrixDiag's and MatrixDiagPart's empty-k check.
absl::StatusOr<DiagRange> diagRange(const KernelContext &Ctx, size_t I, bool RequireElement) {
  const TensorData &K = Ctx.input(I);
  if (K.shape().size() > 1)
    return Ctx.invalid(absl::StrCat("diag_index must be a scalar or vector, received shape: ",
                                    shapeOf(K)));
  if (RequireElement && K.numElements() == 0)
    return Ctx.invalid("Expected diag_index to have at least 1 element");
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> V,
                         intElements(Ctx, I, dtypeBit(tensorflow::DT_INT32)));
  if (K.shape().size() == 1 && (V.empty() || V.size() > 2))
    return Ctx.invalid(absl::StrCat("diag_index must have only one or two elements, received ",
                                    V.size(), " elements."));
  const int32_t Lower = static_cast<int32_t>(V[0]);
  return DiagRange{Lower, V.size() > 1 ? static_cast<int32_t>(V[1]) : Lower};
}

/// A copy of element `Index` of `T`, as bytes.
llvm::StringRef elementBytes(const TensorData &T, int64_t Index) {
  const size_t Size = dataTypeSize(T.dtype());
  return T.bytes().substr(static_cast<size_t>(Index) * Size, Size);
}

absl::Status checkBounds(const KernelContext &Ctx, DiagRange K, int64_t Rows, int64_t Cols,
                         llvm::StringRef LowerSeparator) {
  if (!((-Rows < K.Lower && K.Lower < Cols) || K.Lower == 0))
    return Ctx.invalid(absl::StrCat("lower_diag_index is out of bound: ", K.Lower,
                                    LowerSeparator.str(), " It must be between ", -Rows, " and ",
                                    Cols));
  if (!((-Rows < K.Upper && K.Upper < Cols) || K.Upper == 0))
    return Ctx.invalid(absl::StrCat("upper_diag_index is out of bound: ", K.Upper,
                                    " It must be between ", -Rows, " and ", Cols));
  if (K.Lower > K.Upper)
    return Ctx.invalid(absl::StrCat("lower_diag_index must not be larger than upper_diag_index: ",
                                    K.Lower, " > ", K.Upper));
  return absl::OkStatus();
}

} // namespace

absl::StatusOr<Outputs> evalMatrixDiagV3(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(5));
  FROST_ASSIGN_OR_RETURN(Alignment Align, alignmentAttr(Ctx));
  const TensorData &Diag = Ctx.input(0), &Padding = Ctx.input(4);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, Diag.dtype(), DiagTypes));
  if (Padding.dtype() != Diag.dtype())
    return Ctx.invalid("padding_value must have the dtype of diagonal");
  FROST_ASSIGN_OR_RETURN(DiagRange K, diagRange(Ctx, 1, /*RequireElement=*/true));
  if (!Ctx.input(2).shape().empty())
    return Ctx.invalid("num_rows must be a scalar");
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> RowsV,
                         intElements(Ctx, 2, dtypeBit(tensorflow::DT_INT32)));
  if (!Ctx.input(3).shape().empty())
    return Ctx.invalid("num_cols must be a scalar");
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> ColsV,
                         intElements(Ctx, 3, dtypeBit(tensorflow::DT_INT32)));
  if (!Padding.shape().empty())
    return Ctx.invalid("padding_value must be a scalar");
  const int64_t Rank = static_cast<int64_t>(Diag.shape().size());
  if (Rank < 1)
    return Ctx.invalid(
        absl::StrCat("diagonal must be at least 1-dim, received shape: ", shapeOf(Diag)));
  if (K.Lower > K.Upper)
    return Ctx.invalid(absl::StrCat("lower_diag_index must not be larger than upper_diag_index: ",
                                    K.Lower, " > ", K.Upper));
  const int64_t NumDiags = int64_t(K.Upper) - K.Lower + 1;
  if (NumDiags > 1 && (Rank < 2 || Diag.shape()[Rank - 2] != NumDiags))
    return Ctx.invalid("The number of diagonals provided in the input does not match the "
                       "lower_diag_index and upper_diag_index range.");
  const int64_t MaxLen = Diag.shape()[Rank - 1];
  const int64_t MinRows = MaxLen - std::min<int64_t>(K.Upper, 0);
  const int64_t MinCols = MaxLen + std::max<int64_t>(K.Lower, 0);
  int64_t Rows = RowsV[0], Cols = ColsV[0];
  if (Rows != -1 && Rows < MinRows)
    return Ctx.invalid("The number of rows is too small.");
  if (Cols != -1 && Cols < MinCols)
    return Ctx.invalid("The number of columns is too small.");
  if (Rows == -1 && Cols == -1)
    Rows = Cols = std::max(MinRows, MinCols);
  else if (Rows == -1)
    Rows = MinRows;
  else if (Cols == -1)
    Cols = MinCols;
  if (Rows != MinRows && Cols != MinCols)
    return Ctx.invalid("The number of rows or columns is not consistent with the specified "
                       "d_lower, d_upper, and diagonal.");
  std::vector<int64_t> OutShape = shapeVector(Diag);
  OutShape.resize(static_cast<size_t>(NumDiags == 1 ? Rank - 1 : Rank - 2));
  OutShape.push_back(Rows);
  OutShape.push_back(Cols);
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, Diag.dtype(), OutShape).status());
  int64_t Batch = 1;
  for (size_t D = 0; D + 2 < OutShape.size(); ++D)
    Batch *= OutShape[D];
  const size_t Size = dataTypeSize(Diag.dtype());
  std::string Bytes;
  Bytes.reserve(static_cast<size_t>(Batch * Rows * Cols) * Size);
  const llvm::StringRef Pad = elementBytes(Padding, 0);
  for (int64_t B = 0; B < Batch; ++B)
    for (int64_t I = 0; I < Rows; ++I)
      for (int64_t J = 0; J < Cols; ++J) {
        const int64_t D = J - I;
        if (D < K.Lower || D > K.Upper) {
          Bytes.append(Pad.data(), Size);
          continue;
        }
        const DiagPlace P = placeOf(D, MaxLen, Rows, Cols, Align);
        const int64_t Index = J - std::max<int64_t>(D, 0) + P.Offset;
        if (Index < 0 || Index >= MaxLen) // TensorFlow would read outside the diagonal.
          return Ctx.unimplemented("a matrix size that reads outside the diagonals");
        Bytes.append(elementBytes(Diag, (B * NumDiags + (K.Upper - D)) * MaxLen + Index).str());
      }
  return Outputs{TensorData::owned(Diag.dtype(), std::move(OutShape), std::move(Bytes))};
}

absl::StatusOr<Outputs> evalMatrixDiagPartV3(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  FROST_ASSIGN_OR_RETURN(Alignment Align, alignmentAttr(Ctx));
  const TensorData &In = Ctx.input(0), &Padding = Ctx.input(2);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), DiagTypes));
  if (Padding.dtype() != In.dtype())
    return Ctx.invalid("padding_value must have the dtype of input");
  FROST_ASSIGN_OR_RETURN(DiagRange K, diagRange(Ctx, 1, /*RequireElement=*/true));
  if (Padding.numElements() != 1)
    return Ctx.invalid("Padding must be scalar.");
  const int64_t Rank = static_cast<int64_t>(In.shape().size());
  if (Rank < 2)
    return Ctx.invalid(
        absl::StrCat("input must be at least 2-dim, received shape: ", shapeOf(In)));
  const int64_t Rows = In.shape()[Rank - 2], Cols = In.shape()[Rank - 1];
  FROST_RETURN_IF_ERROR(checkBounds(Ctx, K, Rows, Cols, "."));
  const int64_t NumDiags = int64_t(K.Upper) - K.Lower + 1;
  const int64_t MaxLen =
      std::min(Rows + std::min<int64_t>(K.Upper, 0), Cols - std::max<int64_t>(K.Lower, 0));
  std::vector<int64_t> OutShape = shapeVector(In);
  OutShape.resize(static_cast<size_t>(Rank - 2));
  int64_t Batch = 1;
  for (int64_t D : OutShape)
    Batch *= D;
  if (NumDiags > 1)
    OutShape.push_back(NumDiags);
  OutShape.push_back(MaxLen);
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, In.dtype(), OutShape).status());
  const size_t Size = dataTypeSize(In.dtype());
  std::string Bytes;
  Bytes.reserve(static_cast<size_t>(Batch * NumDiags * std::max<int64_t>(MaxLen, 0)) * Size);
  const llvm::StringRef Pad = elementBytes(Padding, 0);
  for (int64_t B = 0; B < Batch; ++B)
    for (int64_t M = 0; M < NumDiags; ++M) {
      const int64_t D = K.Upper - M;
      const DiagPlace P = placeOf(D, MaxLen, Rows, Cols, Align);
      for (int64_t N = 0; N < MaxLen; ++N) {
        const int64_t Y = N - P.Offset + std::max<int64_t>(0, -D);
        const int64_t X = N - P.Offset + std::max<int64_t>(0, D);
        if (N < P.Offset || N >= P.Offset + P.Len || Y >= Rows || X >= Cols)
          Bytes.append(Pad.data(), Size);
        else
          Bytes.append(elementBytes(In, (B * Rows + Y) * Cols + X).str());
      }
    }
  return Outputs{TensorData::owned(In.dtype(), std::move(OutShape), std::move(Bytes))};
}

absl::StatusOr<Outputs> evalMatrixSetDiagV3(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  FROST_ASSIGN_OR_RETURN(Alignment Align, alignmentAttr(Ctx));
  const TensorData &In = Ctx.input(0), &Diag = Ctx.input(1);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), DiagTypes));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 0, 2));
  FROST_ASSIGN_OR_RETURN(DiagRange K, diagRange(Ctx, 2, /*RequireElement=*/false));
  const int64_t Rank = static_cast<int64_t>(In.shape().size());
  if (Rank < 2)
    return Ctx.invalid(
        absl::StrCat("input must be at least 2-dim, received shape: ", shapeOf(In)));
  if (Diag.shape().empty())
    return Ctx.invalid(
        absl::StrCat("diagonal must be at least 1-dim, received shape: ", shapeOf(Diag)));
  const int64_t Rows = In.shape()[Rank - 2], Cols = In.shape()[Rank - 1];
  FROST_RETURN_IF_ERROR(checkBounds(Ctx, K, Rows, Cols, ""));
  const int64_t NumDiags = int64_t(K.Upper) - K.Lower + 1;
  if (NumDiags > 1 && static_cast<int64_t>(Diag.shape().size()) > Rank - 2 &&
      Diag.shape()[Rank - 2] != NumDiags)
    return Ctx.invalid("The number of diagonals provided in `diag` is not consistent with "
                       "`lower_diag_index` and `upper_diag_index`");
  std::vector<int64_t> Expected = shapeVector(In);
  Expected.resize(static_cast<size_t>(Rank - 2));
  int64_t Batch = 1;
  for (int64_t D : Expected)
    Batch *= D;
  if (NumDiags > 1)
    Expected.push_back(NumDiags);
  const int64_t MaxLen =
      std::min(Rows + std::min<int64_t>(K.Upper, 0), Cols - std::max<int64_t>(K.Lower, 0));
  Expected.push_back(MaxLen);
  if (llvm::ArrayRef<int64_t>(Expected) != Diag.shape())
    return Ctx.invalid(absl::StrCat(
        "Either first dimensions of diagonal don't match input.shape[:-2], or "
        "diagonal.shape[:-1] is not equal to the longests diagonal in range "
        "[lower_diag_index:upper_diag_index].\nInput shape: ",
        shapeOf(In), "\nDiagonal shape: ", shapeOf(Diag),
        "\nExpected diagonal shape: ", shapeString(Expected)));
  std::string Bytes = In.bytes().str();
  const size_t Size = dataTypeSize(In.dtype());
  for (int64_t B = 0; B < Batch; ++B)
    for (int64_t M = 0; M < NumDiags; ++M) {
      const int64_t D = K.Upper - M;
      const DiagPlace P = placeOf(D, MaxLen, Rows, Cols, Align);
      for (int64_t N = 0; N < P.Len; ++N) {
        const int64_t Y = D >= 0 ? N : N - D, X = D >= 0 ? N + D : N;
        const llvm::StringRef V = elementBytes(Diag, (B * NumDiags + M) * MaxLen + N + P.Offset);
        std::memcpy(Bytes.data() + static_cast<size_t>((B * Rows + Y) * Cols + X) * Size,
                    V.data(), Size);
      }
    }
  return Outputs{TensorData::owned(In.dtype(), shapeVector(In), std::move(Bytes))};
}

} // namespace frost::eval
