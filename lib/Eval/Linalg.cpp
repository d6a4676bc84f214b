//===- Linalg.cpp - Factorizations, inverses, solves and band parts ------===//
//
// TensorFlow's CPU linear-algebra kernels (LinearAlgebraOp in
// linalg_ops_common.h and the triangular solve) take each matrix of a batch
// [..., rows, cols] as a row-major Eigen matrix and call Eigen: Cholesky is
// LLT, MatrixInverse and MatrixSolve are PartialPivLU, MatrixDeterminant and
// LogMatrixDeterminant sum the logs of a column-major PartialPivLU's
// diagonal, MatrixTriangularSolve is a triangular view's solve. Frost calls
// the same decompositions on the same storage orders, but its Eigen (3.4,
// SSE2 packets) blocks and vectorizes them differently from TensorFlow's, so
// the last bits can differ: these are run kernels (Kernels.def), within the
// bounds scripts/compare_linalg_with_tf.py measures. float and double only;
// complex matrices (which TensorFlow also registers) are not computed.
// MatrixBandPart only copies elements: bit for bit, every dtype.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include <cmath>
#include <limits>

namespace frost::eval {

namespace {

template <typename T>
using RowMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T> using ConstRowMap = Eigen::Map<const RowMatrix<T>>;
template <typename T> using RowMap = Eigen::Map<RowMatrix<T>>;

/// The product of `Shape`'s dims but the last two: the number of matrices.
int64_t matrixCount(llvm::ArrayRef<int64_t> Shape) {
  int64_t N = 1;
  for (size_t I = 0; I + 2 < Shape.size(); ++I)
    N *= Shape[I];
  return N;
}

/// LinearAlgebraOp's checks of input I: rank at least 2 and, with `Square`,
/// square matrices (TensorFlow's messages).
absl::Status checkMatrices(const KernelContext &Ctx, size_t I, bool Square,
                           llvm::StringRef NotSquare = "Input matrix must be square.") {
  llvm::ArrayRef<int64_t> Shape = Ctx.input(I).shape();
  if (Shape.size() < 2)
    return Ctx.invalid(
        absl::StrCat("Input tensor ", I, " must have rank >= 2, got ", Shape.size()));
  if (Square && Shape[Shape.size() - 1] != Shape[Shape.size() - 2])
    return Ctx.invalid(NotSquare);
  return absl::OkStatus();
}

/// The dtypes TensorFlow registers these kernels for on CPU (MatrixInverse
/// also for half): checked before the shapes, as TensorFlow has no kernel
/// for the others.
constexpr DTypeMask Registered =
    dtypeBit(tensorflow::DT_FLOAT) | dtypeBit(tensorflow::DT_DOUBLE) |
    dtypeBit(tensorflow::DT_COMPLEX64) | dtypeBit(tensorflow::DT_COMPLEX128);

/// Runs `F(TypeTag<float|double>)` for a float or double input 0; complex
/// (and half) matrices are Unimplemented with a reason.
template <typename Fn>
absl::StatusOr<Outputs> realMatrices(const KernelContext &Ctx, Fn &&F) {
  tensorflow::DataType DType = Ctx.input(0).dtype();
  if (DType == tensorflow::DT_COMPLEX64 || DType == tensorflow::DT_COMPLEX128 ||
      DType == tensorflow::DT_HALF)
    return Ctx.unimplemented(absl::StrCat(dataTypeName(DType), " matrices are not computed"));
  return dispatch<Float32 | Float64>(Ctx, DType, F);
}

/// What TensorFlow's LinearAlgebraOp-based inverse and solve refuse: an
/// exactly zero pivot of the LU decomposition.
template <typename T> bool hasZeroPivot(const Eigen::PartialPivLU<RowMatrix<T>> &LU) {
  return !(LU.matrixLU().diagonal().cwiseAbs().minCoeff() > T(0));
}

/// log|det| and the sign of det as SLogDet in determinant_op.cc computes
/// them (column-major LU, the logs of the pivots summed).
template <typename T> std::pair<T, T> signAndLogAbsDet(const T *Data, int64_t N) {
  T LogAbsDet = 0, Sign = 1;
  if (N > 0) {
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> M = ConstRowMap<T>(Data, N, N);
    Eigen::PartialPivLU<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>> LU(M);
    auto Diag = LU.matrixLU().diagonal().array().eval();
    auto AbsDiag = Diag.cwiseAbs().eval();
    Sign = LU.permutationP().determinant();
    LogAbsDet += AbsDiag.log().sum();
    Sign *= (Diag / AbsDiag).prod();
  }
  // TensorFlow 2.21 zeroes the sign of an infinite log only: a NaN stays.
  if (std::isinf(LogAbsDet)) {
    Sign = 0;
    LogAbsDet = LogAbsDet > 0 ? std::numeric_limits<T>::infinity()
                              : -std::numeric_limits<T>::infinity();
  }
  return {Sign, LogAbsDet};
}

/// The batch shape of `Shape` (all but the last two dims).
std::vector<int64_t> batchShape(llvm::ArrayRef<int64_t> Shape) {
  return std::vector<int64_t>(Shape.begin(), Shape.end() - 2);
}

} // namespace

// Eigen's LLT of each matrix's lower triangle (the upper one is not read).
// Where it fails (a matrix that is not positive definite), TensorFlow 2.21
// does not refuse: it fills the lower triangle with NaN and leaves the upper
// one unwritten; Frost writes zeros there.
absl::StatusOr<Outputs> evalCholesky(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_RETURN_IF_ERROR(checkDType(Ctx, Ctx.input(0).dtype(), Registered));
  FROST_RETURN_IF_ERROR(checkMatrices(Ctx, 0, true));
  return realMatrices(Ctx, [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    const TensorData &In = Ctx.input(0);
    const int64_t N = In.shape().back();
    ElementsOf<T> X(In);
    OutputOf<T> Out(shapeVector(In));
    for (int64_t B = 0; B < matrixCount(In.shape()); ++B) {
      RowMap<T> L(Out.data() + B * N * N, N, N);
      Eigen::LLT<RowMatrix<T>> LLT(ConstRowMap<T>(X.data() + B * N * N, N, N));
      if (LLT.info() == Eigen::Success) {
        L = LLT.matrixL();
        continue;
      }
      L.setZero();
      L.template triangularView<Eigen::Lower>().setConstant(std::numeric_limits<T>::quiet_NaN());
    }
    return Outputs{std::move(Out).finish()};
  });
}

absl::StatusOr<Outputs> evalMatrixDeterminant(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_RETURN_IF_ERROR(checkDType(Ctx, Ctx.input(0).dtype(), Registered));
  FROST_RETURN_IF_ERROR(checkMatrices(Ctx, 0, true));
  return realMatrices(Ctx, [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    const TensorData &In = Ctx.input(0);
    const int64_t N = In.shape().back();
    ElementsOf<T> X(In);
    OutputOf<T> Det(batchShape(In.shape()));
    for (int64_t B = 0; B < Det.size(); ++B) {
      auto [Sign, LogAbsDet] = signAndLogAbsDet(X.data() + B * N * N, N);
      Det[B] = Sign * std::exp(LogAbsDet);
    }
    return Outputs{std::move(Det).finish()};
  });
}

absl::StatusOr<Outputs> evalLogMatrixDeterminant(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_RETURN_IF_ERROR(checkDType(Ctx, Ctx.input(0).dtype(), Registered));
  FROST_RETURN_IF_ERROR(checkMatrices(Ctx, 0, true));
  return realMatrices(Ctx, [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    const TensorData &In = Ctx.input(0);
    const int64_t N = In.shape().back();
    ElementsOf<T> X(In);
    OutputOf<T> Sign(batchShape(In.shape())), LogAbsDet(batchShape(In.shape()));
    for (int64_t B = 0; B < Sign.size(); ++B)
      std::tie(Sign[B], LogAbsDet[B]) = signAndLogAbsDet(X.data() + B * N * N, N);
    return Outputs{std::move(Sign).finish(), std::move(LogAbsDet).finish()};
  });
}

absl::StatusOr<Outputs> evalMatrixInverse(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_RETURN_IF_ERROR(
      checkDType(Ctx, Ctx.input(0).dtype(), Registered | dtypeBit(tensorflow::DT_HALF)));
  FROST_RETURN_IF_ERROR(checkMatrices(Ctx, 0, true));
  FROST_ASSIGN_OR_RETURN(bool Adjoint, Ctx.boolAttr("adjoint", false));
  return realMatrices(Ctx, [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    const TensorData &In = Ctx.input(0);
    const int64_t N = In.shape().back();
    ElementsOf<T> X(In);
    OutputOf<T> Out(shapeVector(In));
    Eigen::PartialPivLU<RowMatrix<T>> LU;
    for (int64_t B = 0; B < matrixCount(In.shape()) && N > 0; ++B) {
      ConstRowMap<T> M(X.data() + B * N * N, N, N);
      if (Adjoint)
        LU.compute(M.adjoint());
      else
        LU.compute(M);
      if (hasZeroPivot(LU))
        return Ctx.invalid("Input is not invertible.");
      RowMap<T>(Out.data() + B * N * N, N, N).noalias() = LU.inverse();
    }
    return Outputs{std::move(Out).finish()};
  });
}

absl::StatusOr<Outputs> evalMatrixSolve(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  FROST_RETURN_IF_ERROR(checkDType(Ctx, Ctx.input(0).dtype(), Registered));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 0, 2));
  FROST_RETURN_IF_ERROR(checkMatrices(Ctx, 0, false));
  FROST_RETURN_IF_ERROR(checkMatrices(Ctx, 1, false));
  llvm::ArrayRef<int64_t> MShape = Ctx.input(0).shape(), RShape = Ctx.input(1).shape();
  if (MShape.size() != RShape.size() || !std::equal(MShape.begin(), MShape.end() - 2,
                                                    RShape.begin()))
    return Ctx.invalid("All input tensors must have the same outer dimensions.");
  const int64_t N = MShape.back(), K = RShape.back();
  if (MShape[MShape.size() - 2] != N)
    return Ctx.invalid("First input (lhs) must be a square matrix.");
  if (RShape[RShape.size() - 2] != N)
    return Ctx.invalid("Input matrix and rhs are incompatible.");
  FROST_ASSIGN_OR_RETURN(bool Adjoint, Ctx.boolAttr("adjoint", false));
  return realMatrices(Ctx, [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    ElementsOf<T> A(Ctx.input(0)), Rhs(Ctx.input(1));
    OutputOf<T> Out(shapeVector(Ctx.input(1)));
    Eigen::PartialPivLU<RowMatrix<T>> LU;
    for (int64_t B = 0; B < matrixCount(MShape) && N > 0 && K > 0; ++B) {
      ConstRowMap<T> M(A.data() + B * N * N, N, N);
      if (Adjoint)
        LU.compute(M.adjoint());
      else
        LU.compute(M);
      if (hasZeroPivot(LU))
        return Ctx.invalid("Input matrix is not invertible.");
      RowMap<T>(Out.data() + B * N * K, N, K) = LU.solve(ConstRowMap<T>(Rhs.data() + B * N * K, N, K));
    }
    return Outputs{std::move(Out).finish()};
  });
}

// Batch dims broadcast as MatMulBCast does; a singular triangle is not
// refused (its solution holds infinities and NaNs, as TensorFlow's).
absl::StatusOr<Outputs> evalMatrixTriangularSolve(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  FROST_RETURN_IF_ERROR(checkDType(Ctx, Ctx.input(0).dtype(), Registered));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 0, 2));
  FROST_ASSIGN_OR_RETURN(bool Lower, Ctx.boolAttr("lower", true));
  FROST_ASSIGN_OR_RETURN(bool Adjoint, Ctx.boolAttr("adjoint", false));
  llvm::ArrayRef<int64_t> MShape = Ctx.input(0).shape(), RShape = Ctx.input(1).shape();
  for (int I = 0; I < 2; ++I)
    if (Ctx.input(I).shape().size() < 2)
      return Ctx.invalid(
          absl::StrCat("In[", I, "] ndims must be >= 2: ", Ctx.input(I).shape().size()));
  absl::StatusOr<std::vector<int64_t>> Batch =
      broadcastShapes(Ctx, MShape.drop_back(2), RShape.drop_back(2));
  if (!Batch.ok())
    return Ctx.invalid(absl::StrCat("In[0] and In[1] must have compatible batch dimensions: ",
                                    shapeString(MShape), " vs. ", shapeString(RShape)));
  const int64_t Rows = MShape[MShape.size() - 2], N = MShape.back();
  const int64_t RhsRows = RShape[RShape.size() - 2], K = RShape.back();
  if (Rows != N)
    return Ctx.invalid(absl::StrCat(
        "In[0] matrices in the last dimensions must be square (", N, " =/= ", Rows, ")"));
  if (N != RhsRows)
    return Ctx.invalid(absl::StrCat("In[0] mismatch In[1] shape: ", N, " vs. ", RhsRows, ": ",
                                    shapeString(MShape), " ", shapeString(RShape), " ",
                                    Lower ? 1 : 0, " ", Adjoint ? 1 : 0));
  return realMatrices(Ctx, [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    ElementsOf<T> A(Ctx.input(0)), Rhs(Ctx.input(1));
    std::vector<int64_t> OutShape = *Batch;
    OutShape.push_back(N);
    OutShape.push_back(K);
    FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, dataTypeOf<T>(), OutShape).status());
    OutputOf<T> Out(OutShape);
    std::vector<int64_t> MIndex = broadcastIndex(MShape.drop_back(2), *Batch);
    std::vector<int64_t> RIndex = broadcastIndex(RShape.drop_back(2), *Batch);
    for (size_t B = 0; B < MIndex.size() && N > 0 && K > 0; ++B) {
      ConstRowMap<T> M(A.data() + MIndex[B] * N * N, N, N);
      ConstRowMap<T> R(Rhs.data() + RIndex[B] * N * K, N, K);
      RowMap<T> X(Out.data() + B * N * K, N, K);
      if (Lower && Adjoint)
        X.noalias() = M.template triangularView<Eigen::Lower>().adjoint().solve(R);
      else if (Lower)
        X.noalias() = M.template triangularView<Eigen::Lower>().solve(R);
      else if (Adjoint)
        X.noalias() = M.template triangularView<Eigen::Upper>().adjoint().solve(R);
      else
        X.noalias() = M.template triangularView<Eigen::Upper>().solve(R);
    }
    return Outputs{std::move(Out).finish()};
  });
}

// Element (i, j) of each matrix is kept when it lies within num_lower
// diagonals below and num_upper above the main one (a negative count keeps
// the whole triangle); the rest are zero. Every dtype TensorFlow registers
// on CPU (numbers, bool, complex).
absl::StatusOr<Outputs> evalMatrixBandPart(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  const TensorData &In = Ctx.input(0);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), dtypes::Pod));
  if (In.shape().size() < 2)
    return Ctx.invalid(
        absl::StrCat("input must be at least 2-dim, received shape: ", shapeOf(In)));
  const int64_t Rows = In.shape()[In.shape().size() - 2], Cols = In.shape().back();
  int64_t Bands[2];
  const char *Names[2] = {"num_lower", "num_upper"};
  for (int I = 0; I < 2; ++I) {
    const TensorData &Count = Ctx.input(I + 1);
    if (!Count.shape().empty())
      return Ctx.invalid(
          absl::StrCat(Names[I], " must be scalar, got shape ", shapeOf(Count)));
    FROST_ASSIGN_OR_RETURN(std::vector<int64_t> V, intElements(Ctx, I + 1));
    Bands[I] = V[0];
    int64_t Limit = I == 0 ? Rows : Cols;
    if (Bands[I] > Limit)
      return Ctx.invalid(absl::StrCat(Names[I], " must be negative or less or equal to number of ",
                                      I == 0 ? "rows" : "columns", " (", Limit,
                                      ") got: ", Bands[I]));
  }
  const size_t Size = dataTypeSize(In.dtype());
  std::string Bytes(In.bytes().size(), '\0');
  for (int64_t B = 0; B < matrixCount(In.shape()); ++B)
    for (int64_t R = 0; R < Rows; ++R)
      for (int64_t C = 0; C < Cols; ++C) {
        bool Keep = (Bands[0] < 0 || R - C <= Bands[0]) && (Bands[1] < 0 || C - R <= Bands[1]);
        if (!Keep)
          continue;
        size_t At = static_cast<size_t>((B * Rows + R) * Cols + C) * Size;
        std::memcpy(Bytes.data() + At, In.bytes().data() + At, Size);
      }
  return Outputs{TensorData::owned(In.dtype(), shapeVector(In), std::move(Bytes))};
}

} // namespace frost::eval
