//===- MatMul.cpp - Matrix products ---------------------------------------===//
//
// TensorFlow's MatMul, BatchMatMul, BatchMatMulV2 and BatchMatMulV3, which
// its CPU build computes with one kernel (BaseBatchMatMulOp in
// matmul_op_impl.h): batch dimensions broadcast as MatMulBCast does, then
// each product is an Eigen Tensor contraction or, for small ones and
// matrix-vector products, an Eigen matrix product, chosen by the same
// heuristic as LaunchBatchMatMul. half and bfloat16 are multiplied in float
// (bfloat16 results truncated, as FloatToBFloat16 does); signed integers
// wrap, computed in unsigned types where wrapping is defined.
//
// Rounding: integer, half and bfloat16 products match TensorFlow 2.21 (half
// and bfloat16 up to one ulp in rare cases); float and double products are
// Eigen's, but Frost's Eigen (3.4, the compiler's baseline SSE2 packets)
// blocks and groups the inner dimension differently from TensorFlow's (a
// newer Eigen on AVX, possibly its custom contraction kernel), so they differ
// in the last bits: scripts/compare_reduction_with_tf.py measures at most
// 6.5e-7 (float) and 9e-16 (double) of the largest |result|, the same with
// TF_ENABLE_ONEDNN_OPTS on or off (TensorFlow's eager MatMul stays on Eigen).
//
//===----------------------------------------------------------------------===//
#include "Kernel.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <cstring>

namespace frost::eval {

namespace {

using Index = Eigen::DenseIndex;

/// Products larger than this are not evaluated (a constant that large is
/// not worth folding, and its allocation could fail).
constexpr int64_t MaxOutputElements = int64_t(1) << 30;

enum class MatMulOp { MatMul, BatchMatMul, BatchMatMulV2, BatchMatMulV3 };

/// The shapes of one (batched) product: each input seen as [batches, rows,
/// cols], output batch B reading input batches XBatch[B] and YBatch[B].
struct MatMulPlan {
  std::vector<int64_t> OutShape;
  std::vector<int64_t> XBatch, YBatch;
  int64_t XRows = 0, XCols = 0, YRows = 0, YCols = 0;
  bool TransX = false, TransY = false;

  int64_t batches() const { return static_cast<int64_t>(XBatch.size()); }
  int64_t m() const { return TransX ? XCols : XRows; }
  int64_t k() const { return TransX ? XRows : XCols; }
  int64_t n() const { return TransY ? YRows : YCols; }
};

/// The inputs' ranks as each op requires them (ValidateInputTensors).
absl::Status checkRanks(const KernelContext &Ctx, MatMulOp Op) {
  llvm::ArrayRef<int64_t> X = Ctx.input(0).shape(), Y = Ctx.input(1).shape();
  if (Op == MatMulOp::MatMul || Op == MatMulOp::BatchMatMul) {
    if (X.size() != Y.size())
      return Ctx.invalid(absl::StrCat("In[0] and In[1] has different ndims: ", shapeString(X),
                                      " vs. ", shapeString(Y)));
    if (Op == MatMulOp::MatMul && X.size() != 2)
      return Ctx.invalid(absl::StrCat("In[0] and In[1] ndims must be == 2: ", X.size()));
    if (X.size() < 2)
      return Ctx.invalid(absl::StrCat("In[0] and In[1] ndims must be >= 2: ", X.size()));
    for (size_t I = 0; I + 2 < X.size(); ++I)
      if (X[I] != Y[I])
        return Ctx.invalid(absl::StrCat("In[0].dim(", I, ") and In[1].dim(", I,
                                        ") must be the same: ", shapeString(X), " vs ",
                                        shapeString(Y)));
    return absl::OkStatus();
  }
  if (X.size() < 2)
    return Ctx.invalid(absl::StrCat("In[0] ndims must be >= 2: ", X.size()));
  if (Y.size() < 2)
    return Ctx.invalid(absl::StrCat("In[1] ndims must be >= 2: ", Y.size()));
  return absl::OkStatus();
}

absl::StatusOr<MatMulPlan> planMatMul(const KernelContext &Ctx, MatMulOp Op) {
  FROST_RETURN_IF_ERROR(checkRanks(Ctx, Op));
  MatMulPlan Plan;
  if (Op == MatMulOp::MatMul) {
    FROST_ASSIGN_OR_RETURN(Plan.TransX, Ctx.boolAttr("transpose_a", false));
    FROST_ASSIGN_OR_RETURN(Plan.TransY, Ctx.boolAttr("transpose_b", false));
  } else {
    // adj_x and adj_y: the adjoint is the transpose for real numbers.
    FROST_ASSIGN_OR_RETURN(Plan.TransX, Ctx.boolAttr("adj_x", false));
    FROST_ASSIGN_OR_RETURN(Plan.TransY, Ctx.boolAttr("adj_y", false));
  }
  llvm::ArrayRef<int64_t> X = Ctx.input(0).shape(), Y = Ctx.input(1).shape();
  llvm::ArrayRef<int64_t> XBatchShape = X.drop_back(2), YBatchShape = Y.drop_back(2);
  absl::StatusOr<std::vector<int64_t>> BatchShape = broadcastShapes(Ctx, XBatchShape, YBatchShape);
  if (!BatchShape.ok())
    return Ctx.invalid(absl::StrCat("In[0] and In[1] must have compatible batch dimensions: ",
                                    shapeString(X), " vs. ", shapeString(Y)));
  Plan.XRows = X[X.size() - 2];
  Plan.XCols = X.back();
  Plan.YRows = Y[Y.size() - 2];
  Plan.YCols = Y.back();
  if (Plan.k() != (Plan.TransY ? Plan.YCols : Plan.YRows))
    return Ctx.invalid(absl::StrCat("Matrix size-incompatible: In[0]: ", shapeString(X),
                                    ", In[1]: ", shapeString(Y)));

  Plan.OutShape = *BatchShape;
  Plan.OutShape.push_back(Plan.m());
  Plan.OutShape.push_back(Plan.n());
  int64_t Elements = 1;
  for (int64_t D : Plan.OutShape)
    if (__builtin_mul_overflow(Elements, D, &Elements) || Elements > MaxOutputElements)
      return Ctx.unimplemented(absl::StrCat("output of shape ", shapeString(Plan.OutShape),
                                            " has more than ", MaxOutputElements, " elements"));
  FROST_RETURN_IF_ERROR(
      Ctx.checkTensorBytes(static_cast<uint64_t>(Elements) *
                               std::max<size_t>(dataTypeSize(Ctx.input(0).dtype()), 1),
                           Plan.OutShape));
  Plan.XBatch = broadcastIndex(XBatchShape, *BatchShape);
  Plan.YBatch = broadcastIndex(YBatchShape, *BatchShape);
  return Plan;
}

/// One product as LaunchBatchMatMul<CPUDevice> computes it, on elements of
/// C: an Eigen contraction for products with every dimension above 1 that
/// are alone or large, an Eigen matrix product otherwise.
template <typename C> void multiply(const MatMulPlan &P, const C *X, const C *Y, C *Z) {
  const int64_t XSize = P.XRows * P.XCols, YSize = P.YRows * P.YCols, ZSize = P.m() * P.n();
  const int64_t Cost = XSize * P.n();
  const int64_t SmallDim = std::min({P.XRows, P.XCols, P.n()});
  constexpr int64_t MaxCostOuterParallelism = 128 * 128;
  if (SmallDim > 1 && (P.batches() == 1 || Cost > MaxCostOuterParallelism)) {
    using ConstMap = Eigen::TensorMap<Eigen::Tensor<const C, 2, Eigen::RowMajor, Index>>;
    using Map = Eigen::TensorMap<Eigen::Tensor<C, 2, Eigen::RowMajor, Index>>;
    Eigen::array<Eigen::IndexPair<Index>, 1> Pairs{
        Eigen::IndexPair<Index>(P.TransX ? 0 : 1, P.TransY ? 1 : 0)};
    for (int64_t B = 0; B < P.batches(); ++B) {
      Map Out(Z + B * ZSize, P.m(), P.n());
      Out = ConstMap(X + P.XBatch[B] * XSize, P.XRows, P.XCols)
                .contract(ConstMap(Y + P.YBatch[B] * YSize, P.YRows, P.YCols), Pairs);
    }
    return;
  }
  // SequentialMatMulKernel (and, for one large matrix-vector product,
  // SingleBatchParallelMatMulKernel, which computes the same product in
  // blocks of the output).
  using Matrix = Eigen::Matrix<C, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  for (int64_t B = 0; B < P.batches(); ++B) {
    Eigen::Map<const Matrix> A(X + P.XBatch[B] * XSize, P.XRows, P.XCols);
    Eigen::Map<const Matrix> Bm(Y + P.YBatch[B] * YSize, P.YRows, P.YCols);
    Eigen::Map<Matrix> Out(Z + B * ZSize, P.m(), P.n());
    if (!P.TransX && !P.TransY)
      Out.noalias() = A * Bm;
    else if (!P.TransX)
      Out.noalias() = A * Bm.transpose();
    else if (!P.TransY)
      Out.noalias() = A.transpose() * Bm;
    else
      Out.noalias() = A.transpose() * Bm.transpose();
  }
}

/// The type a product of T is computed in: float for half and bfloat16
/// (TensorFlow converts them), the unsigned type of at least 32 bits for
/// integers (so their wrapping is defined and no uint16 product overflows
/// int).
template <typename T> struct ComputeTypeOf {
  using type = T;
};
template <> struct ComputeTypeOf<Eigen::half> {
  using type = float;
};
template <> struct ComputeTypeOf<int16_t> {
  using type = uint32_t;
};
template <> struct ComputeTypeOf<int32_t> {
  using type = uint32_t;
};
template <> struct ComputeTypeOf<int64_t> {
  using type = uint64_t;
};


/// `V` as TensorFlow's FloatToBFloat16 stores it: the upper half of the
/// float's bits (truncated, not rounded).
Eigen::bfloat16 truncateToBFloat16(float V) {
  uint32_t Bits;
  std::memcpy(&Bits, &V, sizeof(Bits));
  return Eigen::numext::bit_cast<Eigen::bfloat16>(static_cast<uint16_t>(Bits >> 16));
}

/// The product of inputs 0 (of A) and 1 (of B), computed in C, as an output
/// tensor of R. A bfloat16 product of bfloat16s is computed in float.
template <typename A, typename B, typename R>
TensorData product(const KernelContext &Ctx, const MatMulPlan &Plan) {
  OutputOf<R> Out(Plan.OutShape);
  if (Out.size() == 0)
    return std::move(Out).finish();
  if (Ctx.input(0).numElements() == 0 || Ctx.input(1).numElements() == 0) {
    std::fill(Out.data(), Out.data() + Out.size(), R(0));
    return std::move(Out).finish();
  }
  constexpr bool SameInputs = std::is_same_v<A, B>;
  using C = std::conditional_t<SameInputs && std::is_same_v<A, Eigen::bfloat16>, float,
                               typename ComputeTypeOf<R>::type>;
  std::vector<C> X = elementsAs<A, C>(Ctx.input(0));
  std::vector<C> Y = elementsAs<B, C>(Ctx.input(1));
  std::vector<C> Z(static_cast<size_t>(Out.size()));
  multiply<C>(Plan, X.data(), Y.data(), Z.data());
  for (int64_t I = 0; I < Out.size(); ++I) {
    if constexpr (std::is_same_v<R, Eigen::bfloat16> && std::is_same_v<C, float>)
      Out[I] = truncateToBFloat16(Z[I]);
    else
      Out[I] = static_cast<R>(Z[I]);
  }
  return std::move(Out).finish();
}

/// The TypeSet bit of the dtypes a product can have; 0 for others.
unsigned typeSetBit(tensorflow::DataType DType) {
  switch (DType) {
  case tensorflow::DT_FLOAT:
    return Float32;
  case tensorflow::DT_DOUBLE:
    return Float64;
  case tensorflow::DT_HALF:
    return Half;
  case tensorflow::DT_BFLOAT16:
    return BFloat16;
  case tensorflow::DT_INT16:
    return Int16;
  case tensorflow::DT_INT32:
    return Int32;
  case tensorflow::DT_INT64:
    return Int64;
  default:
    return 0;
  }
}

/// MatMul, BatchMatMul, BatchMatMulV2: both inputs and the output of one
/// dtype in `Types`.
absl::StatusOr<Outputs> sameTypeProduct(const KernelContext &Ctx, MatMulOp Op, unsigned Types) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  tensorflow::DataType DType = Ctx.input(0).dtype();
  if (Ctx.input(1).dtype() != DType)
    return Ctx.invalid(absl::StrCat("inputs of different dtypes: ", dataTypeName(DType), " and ",
                                    dataTypeName(Ctx.input(1).dtype())));
  FROST_ASSIGN_OR_RETURN(MatMulPlan Plan, planMatMul(Ctx, Op));
  // Dispatched here rather than with visitType, so that the heavy Eigen
  // products are instantiated for these types only.
  switch (Types & typeSetBit(DType)) {
  case Float32:
    return Outputs{product<float, float, float>(Ctx, Plan)};
  case Float64:
    return Outputs{product<double, double, double>(Ctx, Plan)};
  case Half:
    return Outputs{product<Eigen::half, Eigen::half, Eigen::half>(Ctx, Plan)};
  case BFloat16:
    return Outputs{product<Eigen::bfloat16, Eigen::bfloat16, Eigen::bfloat16>(Ctx, Plan)};
  case Int16:
    return Outputs{product<int16_t, int16_t, int16_t>(Ctx, Plan)};
  case Int32:
    return Outputs{product<int32_t, int32_t, int32_t>(Ctx, Plan)};
  case Int64:
    return Outputs{product<int64_t, int64_t, int64_t>(Ctx, Plan)};
  default:
    return Ctx.unimplementedType(DType);
  }
}

} // namespace

// TensorFlow's CPU registrations (matmul_op_real.cc and friends): MatMul and
// BatchMatMul for float, double, half, bfloat16, int32, int64; BatchMatMulV2
// also for int16. Complex products are not computed.
absl::StatusOr<Outputs> evalMatMul(const KernelContext &Ctx) {
  return sameTypeProduct(Ctx, MatMulOp::MatMul, Floats | Int32 | Int64);
}

absl::StatusOr<Outputs> evalBatchMatMul(const KernelContext &Ctx) {
  return sameTypeProduct(Ctx, MatMulOp::BatchMatMul, Floats | Int32 | Int64);
}

absl::StatusOr<Outputs> evalBatchMatMulV2(const KernelContext &Ctx) {
  return sameTypeProduct(Ctx, MatMulOp::BatchMatMulV2, Floats | Int16 | Int32 | Int64);
}

// BatchMatMulV3's CPU registrations: Ta = Tb = Tout for float, double,
// bfloat16, int16, int32, int64; int8 and uint8 inputs into int32; bfloat16
// with int8 or uint8 into bfloat16 (computed in bfloat16, as TensorFlow casts
// the integers to it).
absl::StatusOr<Outputs> evalBatchMatMulV3(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  FROST_ASSIGN_OR_RETURN(tensorflow::DataType Ta, Ctx.typeAttr("Ta"));
  FROST_ASSIGN_OR_RETURN(tensorflow::DataType Tb, Ctx.typeAttr("Tb"));
  FROST_ASSIGN_OR_RETURN(tensorflow::DataType Tout, Ctx.typeAttr("Tout"));
  if (Ctx.input(0).dtype() != Ta || Ctx.input(1).dtype() != Tb)
    return Ctx.invalid(absl::StrCat("inputs of dtypes ", dataTypeName(Ctx.input(0).dtype()),
                                    " and ", dataTypeName(Ctx.input(1).dtype()),
                                    " do not match Ta=", dataTypeName(Ta),
                                    " and Tb=", dataTypeName(Tb)));
  if (Ta == Tb && Ta == Tout && Ta != tensorflow::DT_HALF)
    return sameTypeProduct(Ctx, MatMulOp::BatchMatMulV3,
                           Float32 | Float64 | BFloat16 | Int16 | Int32 | Int64);
  auto IsByte = [](tensorflow::DataType T) {
    return T == tensorflow::DT_INT8 || T == tensorflow::DT_UINT8;
  };
  using tensorflow::DT_BFLOAT16, tensorflow::DT_INT32, tensorflow::DT_INT8;
  bool IntoInt32 = IsByte(Ta) && IsByte(Tb) && Tout == DT_INT32;
  bool IntoBFloat16 = Tout == DT_BFLOAT16 &&
                      ((Ta == DT_BFLOAT16 && IsByte(Tb)) || (IsByte(Ta) && Tb == DT_BFLOAT16));
  if (!IntoInt32 && !IntoBFloat16)
    return Ctx.unimplemented(absl::StrCat("no kernel for Ta=", dataTypeName(Ta), ", Tb=",
                                          dataTypeName(Tb), ", Tout=", dataTypeName(Tout)));
  FROST_ASSIGN_OR_RETURN(MatMulPlan Plan, planMatMul(Ctx, MatMulOp::BatchMatMulV3));
  using BF16 = Eigen::bfloat16;
  if (IntoInt32) {
    if (Ta == DT_INT8)
      return Outputs{Tb == DT_INT8 ? product<int8_t, int8_t, int32_t>(Ctx, Plan)
                                   : product<int8_t, uint8_t, int32_t>(Ctx, Plan)};
    return Outputs{Tb == DT_INT8 ? product<uint8_t, int8_t, int32_t>(Ctx, Plan)
                                 : product<uint8_t, uint8_t, int32_t>(Ctx, Plan)};
  }
  if (Ta == DT_BFLOAT16)
    return Outputs{Tb == DT_INT8 ? product<BF16, int8_t, BF16>(Ctx, Plan)
                                 : product<BF16, uint8_t, BF16>(Ctx, Plan)};
  return Outputs{Ta == DT_INT8 ? product<int8_t, BF16, BF16>(Ctx, Plan)
                               : product<uint8_t, BF16, BF16>(Ctx, Plan)};
}

} // namespace frost::eval
