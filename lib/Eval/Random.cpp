//===- Random.cpp - Stateless random ops: Philox-4x32-10, bit for bit -----===//
//
// TensorFlow's stateless random ops are functions of their seed (v1: a seed
// pair) or of a Philox key and counter (v2), so their outputs are constants
// TensorFlow computes the same way everywhere. The generator is Philox-4x32-10
// (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11): a
// 128-bit counter and a 64-bit key, ten rounds, four 32-bit words per counter
// value. On top of it, as TensorFlow's CPU kernels do:
//   - a seed pair becomes a key and counter by one Philox call on the seed
//     (StatelessRandomGetKeyCounter);
//   - uniform floats fill a mantissa with random bits ([1, 2) minus 1);
//   - normals are Box-Muller pairs; truncated normals reject |x| >= 2 and each
//     group of outputs starts at its own reserved stretch of the counter, so
//     the rejections of one group never shift another;
//   - integers in [lo, hi) are lo + bits mod (hi - lo).
// Only Philox runs on CPU: the ThreeFry algorithm id is refused as TensorFlow
// refuses it there, and "auto select" means Philox.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace frost::eval {

namespace {

using tensorflow::DataType;

/// TensorFlow's RNG algorithm ids (rng_alg.h).
constexpr int64_t AlgPhilox = 1, AlgAutoSelect = 3;

class Philox {
public:
  using Block = std::array<uint32_t, 4>;
  using Key = std::array<uint32_t, 2>;

  Philox(Block Counter, Key K) : Counter(Counter), K(K) {}

  /// The four words of the current counter value; then the counter moves on.
  Block next() {
    Block C = Counter;
    Key KK = K;
    for (int Round = 0; Round < 10; ++Round) {
      if (Round > 0) {
        KK[0] += 0x9E3779B9u; // the golden ratio's bits (the paper's Weyl constants)
        KK[1] += 0xBB67AE85u; // sqrt(3) - 1
      }
      uint64_t P0 = uint64_t(0xD2511F53u) * C[0];
      uint64_t P1 = uint64_t(0xCD9E8D57u) * C[2];
      C = {uint32_t(P1 >> 32) ^ C[1] ^ KK[0], uint32_t(P1), uint32_t(P0 >> 32) ^ C[3] ^ KK[1],
           uint32_t(P0)};
    }
    skip(1);
    return C;
  }

  /// Moves the 128-bit counter on by `N`.
  void skip(uint64_t N) {
    uint64_t Low = uint64_t(Counter[0]) | uint64_t(Counter[1]) << 32;
    uint64_t Sum = Low + N;
    Counter[0] = uint32_t(Sum);
    Counter[1] = uint32_t(Sum >> 32);
    if (Sum < Low && ++Counter[2] == 0)
      ++Counter[3];
  }

  const Block &counter() const { return Counter; }
  const Key &key() const { return K; }

private:
  Block Counter;
  Key K;
};

/// Draws words one at a time (truncated normals take as many as they need).
class SingleWords {
public:
  explicit SingleWords(Philox &Gen) : Gen(Gen) {}
  uint32_t operator()() {
    if (Used == 4) {
      Words = Gen.next();
      Used = 0;
    }
    return Words[Used++];
  }

private:
  Philox &Gen;
  Philox::Block Words{};
  int Used = 4;
};

/// The key and counter of a seed pair: one Philox call on the seed.
Philox fromSeed(uint64_t Seed0, uint64_t Seed1) {
  Philox Mix({uint32_t(Seed0), uint32_t(Seed0 >> 32), uint32_t(Seed1), uint32_t(Seed1 >> 32)},
             {0x3EC8F720u, 0x02461E29u});
  Philox::Block M = Mix.next();
  return Philox({0, 0, M[2], M[3]}, {M[0], M[1]});
}

// --- From random words to numbers ---------------------------------------------

/// Uniform in [0, 1): random mantissa bits under a fixed exponent, minus one.
float uniformFloat(uint32_t X) {
  return llvm::bit_cast<float>((X & 0x7FFFFFu) | 0x3F800000u) - 1.0f;
}
double uniformDouble(uint32_t High, uint32_t Low) {
  uint64_t Mantissa = uint64_t(High & 0xFFFFFu) << 32 | Low;
  return llvm::bit_cast<double>(Mantissa | uint64_t(1023) << 52) - 1.0;
}
Eigen::half uniformHalf(uint32_t X) {
  return Eigen::numext::bit_cast<Eigen::half>(uint16_t((X & 0x3FFu) | (15u << 10))) -
         Eigen::half(1.0f);
}
Eigen::bfloat16 uniformBFloat16(uint32_t X) {
  return Eigen::numext::bit_cast<Eigen::bfloat16>(uint16_t((X & 0x7Fu) | (127u << 7))) -
         Eigen::bfloat16(1.0f);
}

/// A Box-Muller pair in float, as TensorFlow computes it on Linux (sincosf).
std::array<float, 2> boxMullerFloat(uint32_t X0, uint32_t X1) {
  float U1 = std::max(uniformFloat(X0), 1.0e-7f);
  // 2 * pi in double times the float, rounded once to float.
  const float V1 = static_cast<float>(2.0f * M_PI * uniformFloat(X1));
  const float U2 = std::sqrt(-2.0f * std::log(U1));
  float S, C;
  sincosf(V1, &S, &C);
  return {S * U2, C * U2};
}
std::array<double, 2> boxMullerDouble(uint32_t X0, uint32_t X1, uint32_t X2, uint32_t X3) {
  double U1 = std::max(uniformDouble(X0, X1), 1.0e-7);
  const double V1 = 2 * M_PI * uniformDouble(X2, X3);
  const double U2 = std::sqrt(-2.0 * std::log(U1));
  double S, C;
  sincos(V1, &S, &C);
  return {S * U2, C * U2};
}

// --- Distributions: a group of outputs per call -------------------------------

/// Uniform [0, 1): four outputs per counter value (two for double).
template <typename T> struct Uniform {
  static constexpr int GroupSize = std::is_same_v<T, double> ? 2 : 4;
  static constexpr bool VariableWords = false;
  std::array<T, GroupSize> operator()(Philox &Gen) const {
    Philox::Block W = Gen.next();
    std::array<T, GroupSize> Out;
    if constexpr (std::is_same_v<T, double>) {
      Out = {uniformDouble(W[0], W[1]), uniformDouble(W[2], W[3])};
    } else {
      for (int I = 0; I < 4; ++I) {
        if constexpr (std::is_same_v<T, float>)
          Out[I] = uniformFloat(W[I]);
        else if constexpr (std::is_same_v<T, Eigen::half>)
          Out[I] = uniformHalf(W[I]);
        else
          Out[I] = uniformBFloat16(W[I]);
      }
    }
    return Out;
  }
};

/// Standard normal: Box-Muller over pairs of words (over two pairs for
/// double); half and bfloat16 round the float pair.
template <typename T> struct Normal {
  static constexpr int GroupSize = std::is_same_v<T, double> ? 2 : 4;
  static constexpr bool VariableWords = false;
  std::array<T, GroupSize> operator()(Philox &Gen) const {
    Philox::Block W = Gen.next();
    if constexpr (std::is_same_v<T, double>) {
      return boxMullerDouble(W[0], W[1], W[2], W[3]);
    } else {
      std::array<float, 2> A = boxMullerFloat(W[0], W[1]), B = boxMullerFloat(W[2], W[3]);
      return {T(A[0]), T(A[1]), T(B[0]), T(B[1])};
    }
  }
};

/// Normal with |x| >= 2 rejected: draws words until the group is full.
template <typename T> struct TruncatedNormal {
  static constexpr int GroupSize = std::is_same_v<T, double> ? 2 : 4;
  static constexpr bool VariableWords = true;
  std::array<T, GroupSize> operator()(Philox &Gen) const {
    SingleWords Words(Gen);
    std::array<T, GroupSize> Out;
    int Filled = 0;
    while (true) {
      if constexpr (std::is_same_v<T, double>) {
        uint32_t X0 = Words(), X1 = Words(), X2 = Words(), X3 = Words();
        for (double D : boxMullerDouble(X0, X1, X2, X3))
          if (std::abs(D) < 2.0) {
            Out[Filled++] = D;
            if (Filled == GroupSize)
              return Out;
          }
      } else {
        uint32_t X0 = Words(), X1 = Words();
        for (float F : boxMullerFloat(X0, X1))
          if (std::abs(F) < 2.0f) {
            Out[Filled++] = T(F);
            if (Filled == GroupSize)
              return Out;
          }
      }
    }
  }
};

/// Random bits as the unsigned type U, from word I of a counter value (words
/// 2I and 2I + 1 for 64-bit types).
template <typename U> U wordsAs(const Philox::Block &W, int I) {
  if constexpr (sizeof(U) == 8)
    return U(uint64_t(W[2 * I]) | uint64_t(W[2 * I + 1]) << 32);
  else
    return U(W[I]);
}

/// Integers in [Lo, Lo + Range): one word each (two for 64-bit types).
template <typename T> struct UniformInt {
  using U = std::make_unsigned_t<T>;
  static constexpr int GroupSize = sizeof(T) == 8 ? 2 : 4;
  static constexpr bool VariableWords = false;
  T Lo;
  U Range;
  std::array<T, GroupSize> operator()(Philox &Gen) const {
    Philox::Block W = Gen.next();
    std::array<T, GroupSize> Out;
    for (int I = 0; I < GroupSize; ++I)
      Out[I] = static_cast<T>(static_cast<U>(static_cast<U>(Lo) + wordsAs<U>(W, I) % Range));
    return Out;
  }
};

/// Every value of T equally likely: the words themselves.
template <typename T> struct FullInt {
  using U = std::make_unsigned_t<T>;
  static constexpr int GroupSize = sizeof(T) == 8 ? 2 : 4;
  static constexpr bool VariableWords = false;
  std::array<T, GroupSize> operator()(Philox &Gen) const {
    Philox::Block W = Gen.next();
    std::array<T, GroupSize> Out;
    for (int I = 0; I < GroupSize; ++I)
      Out[I] = static_cast<T>(wordsAs<U>(W, I));
    return Out;
  }
};

/// Fills a tensor of `Shape` group by group. Fixed-consumption distributions
/// use one counter value per group; variable ones start group g at counter
/// + g * GroupSize * 256 / 4 (TensorFlow reserves 256 words per output).
template <typename T, typename Dist>
TensorData fill(const Philox &Base, std::vector<int64_t> Shape, const Dist &D) {
  OutputOf<T> Out(std::move(Shape));
  const int64_t Size = Out.size();
  Philox Gen = Base;
  for (int64_t Offset = 0, Group = 0; Offset < Size; Offset += Dist::GroupSize, ++Group) {
    if constexpr (Dist::VariableWords) {
      Gen = Base;
      Gen.skip(uint64_t(Group) * (Dist::GroupSize * 256 / 4));
    }
    auto Samples = D(Gen);
    int64_t N = std::min<int64_t>(Dist::GroupSize, Size - Offset);
    std::copy(Samples.begin(), Samples.begin() + N, Out.data() + Offset);
  }
  return std::move(Out).finish();
}

// --- Inputs -------------------------------------------------------------------

/// The output shape from a shape input (a vector of int32 or int64).
absl::StatusOr<std::vector<int64_t>> shapeInput(const KernelContext &Ctx, DataType DType) {
  const TensorData &S = Ctx.input(0);
  if (S.shape().size() > 1)
    return Ctx.invalid(
        absl::StrCat("shape must be a vector of {int32,int64}, got shape ", shapeOf(S)));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Dims, intElements(Ctx, 0));
  return makeShape(Ctx, DType, std::move(Dims));
}

/// The generator of a v1 op's seed input (shape [2]).
absl::StatusOr<Philox> seedInput(const KernelContext &Ctx, size_t I) {
  const TensorData &Seed = Ctx.input(I);
  if (Seed.shape().size() != 1 || Seed.shape()[0] != 2)
    return Ctx.invalid(absl::StrCat("seed must have shape [2], not ", shapeOf(Seed)));
  uint64_t S[2] = {0, 0};
  FROST_RETURN_IF_ERROR(visitType<absl::Status>(
      Ctx, Seed.dtype(), Int32 | Int64 | UInt32 | UInt64, [&](auto Tag) {
        using E = typename decltype(Tag)::type;
        for (int J = 0; J < 2; ++J) // A negative seed is sign-extended.
          S[J] = static_cast<uint64_t>(Seed.element<E>(J));
        return absl::OkStatus();
      }));
  return fromSeed(S[0], S[1]);
}

/// The generator of a v2 op's key, counter and algorithm inputs (1, 2, 3).
absl::StatusOr<Philox> keyCounterInput(const KernelContext &Ctx) {
  const TensorData &Key = Ctx.input(1), &Counter = Ctx.input(2), &Alg = Ctx.input(3);
  if (Alg.dtype() != tensorflow::DT_INT32 || Key.dtype() != tensorflow::DT_UINT64 ||
      Counter.dtype() != tensorflow::DT_UINT64)
    return Ctx.invalid("key and counter must be uint64 and alg int32");
  if (!Alg.shape().empty())
    return Ctx.invalid(absl::StrCat("input 3 (0-based) must have shape [], not ", shapeOf(Alg)));
  if (Key.shape().size() != 1 || Key.shape()[0] != 1)
    return Ctx.invalid(absl::StrCat("key must have shape [1], not ", shapeOf(Key),
                                    ". (Note that batched keys are not supported yet.)"));
  // TensorFlow 2.21 lets a one-element counter through and reads past its
  // end (its results vary): no value to match, so Frost refuses it.
  if (Counter.shape().size() != 1 || Counter.shape()[0] < 2)
    return Ctx.invalid(absl::StrCat("counter must be a vector with length at least 2; got shape: ",
                                    shapeOf(Counter),
                                    ". (Note that batched counters are not supported yet.)"));
  uint64_t K = ElementsOf<uint64_t>(Key)[0];
  ElementsOf<uint64_t> C(Counter);
  return Philox({uint32_t(C[0]), uint32_t(C[0] >> 32), uint32_t(C[1]), uint32_t(C[1] >> 32)},
                {uint32_t(K), uint32_t(K >> 32)});
}

/// The shape and generator of a v1 (seed at 1) or v2 (key, counter, alg) op.
struct Setup {
  std::vector<int64_t> Shape;
  Philox Gen;
  int64_t Alg = AlgPhilox;

  bool empty() const {
    return std::find(Shape.begin(), Shape.end(), 0) != Shape.end();
  }
  /// TensorFlow checks the algorithm only when there is something to fill.
  absl::Status checkAlg(const KernelContext &Ctx) const {
    if (Alg != AlgPhilox && Alg != AlgAutoSelect) // ThreeFry: not on CPU
      return Ctx.invalid(absl::StrCat("Unsupported algorithm id: ", Alg));
    return absl::OkStatus();
  }
};
absl::StatusOr<Setup> setup(const KernelContext &Ctx, DataType DType, bool V2) {
  // TensorFlow checks a v1 op's shape before its seed, a v2 op's key and
  // counter before its shape.
  std::optional<Philox> Gen;
  int64_t Alg = AlgPhilox;
  if (V2) {
    FROST_ASSIGN_OR_RETURN(Gen, keyCounterInput(Ctx));
    Alg = ElementsOf<int32_t>(Ctx.input(3))[0];
  }
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Shape, shapeInput(Ctx, DType));
  if (!V2) {
    FROST_ASSIGN_OR_RETURN(Gen, seedInput(Ctx, 1));
  }
  return Setup{std::move(Shape), *Gen, Alg};
}

constexpr unsigned FloatTypes = Float32 | Float64 | Half | BFloat16;

template <template <typename> class Dist>
absl::StatusOr<Outputs> floatOp(const KernelContext &Ctx, bool V2) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(V2 ? 4 : 2));
  FROST_ASSIGN_OR_RETURN(DataType DType, Ctx.typeAttr("dtype"));
  FROST_ASSIGN_OR_RETURN(Setup S, setup(Ctx, DType, V2));
  return dispatch<FloatTypes>(Ctx, DType, [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    if (!S.empty())
      FROST_RETURN_IF_ERROR(S.checkAlg(Ctx));
    return Outputs{fill<T>(S.Gen, std::move(S.Shape), Dist<T>{})};
  });
}

/// Integers in [minval, maxval): inputs `First` and `First + 1`.
absl::StatusOr<Outputs> uniformIntOp(const KernelContext &Ctx, bool V2) {
  size_t First = V2 ? 4 : 2;
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(First + 2));
  FROST_ASSIGN_OR_RETURN(DataType DType, Ctx.typeAttr("dtype"));
  const TensorData &Min = Ctx.input(First), &Max = Ctx.input(First + 1);
  if (Min.dtype() != DType || Max.dtype() != DType)
    return Ctx.invalid("minval and maxval must have the output's dtype");
  FROST_ASSIGN_OR_RETURN(Setup S, setup(Ctx, DType, V2));
  // TensorFlow's CPU kernels: int32 and int64 (uint32 and uint64 only under XLA).
  return dispatch<Int32 | Int64>(Ctx, DType, [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    // Bounds are checked only when there is something to fill.
    if (S.empty())
      return Outputs{OutputOf<T>(std::move(S.Shape)).finish()};
    if (!Min.shape().empty())
      return Ctx.invalid(absl::StrCat("minval must be 0-D, got shape ", shapeOf(Min)));
    if (!Max.shape().empty())
      return Ctx.invalid(absl::StrCat("maxval must be 0-D, got shape ", shapeOf(Max)));
    T Lo = Min.element<T>(0), Hi = Max.element<T>(0);
    if (!(Lo < Hi))
      return Ctx.invalid(absl::StrCat("Need minval < maxval, got ", Lo, " >= ", Hi));
    FROST_RETURN_IF_ERROR(S.checkAlg(Ctx));
    using U = std::make_unsigned_t<T>;
    return Outputs{fill<T>(S.Gen, std::move(S.Shape),
                           UniformInt<T>{Lo, static_cast<U>(static_cast<U>(Hi) - static_cast<U>(Lo))})};
  });
}

absl::StatusOr<Outputs> fullIntOp(const KernelContext &Ctx, bool V2) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(V2 ? 4 : 2));
  FROST_ASSIGN_OR_RETURN(DataType DType, Ctx.typeAttr("dtype"));
  FROST_ASSIGN_OR_RETURN(Setup S, setup(Ctx, DType, V2));
  return dispatch<Int32 | Int64 | UInt32 | UInt64>(Ctx, DType,
                                                   [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    if (!S.empty())
      FROST_RETURN_IF_ERROR(S.checkAlg(Ctx));
    return Outputs{fill<T>(S.Gen, std::move(S.Shape), FullInt<T>{})};
  });
}

TensorData uint64Vector(std::vector<uint64_t> Values) {
  OutputOf<uint64_t> Out({int64_t(Values.size())});
  std::copy(Values.begin(), Values.end(), Out.data());
  return std::move(Out).finish();
}

TensorData int32Scalar(int32_t V) {
  OutputOf<int32_t> Out({});
  Out[0] = V;
  return std::move(Out).finish();
}

/// StatelessRandomGetKeyCounter's outputs: key [1], counter [2], as uint64.
Outputs keyAndCounter(const Philox &Gen) {
  const Philox::Block &C = Gen.counter();
  const Philox::Key &K = Gen.key();
  return {uint64Vector({uint64_t(K[0]) | uint64_t(K[1]) << 32}),
          uint64Vector({uint64_t(C[0]) | uint64_t(C[1]) << 32, uint64_t(C[2]) | uint64_t(C[3]) << 32})};
}

} // namespace

absl::StatusOr<Outputs> evalStatelessRandomUniform(const KernelContext &Ctx) {
  return floatOp<Uniform>(Ctx, false);
}
absl::StatusOr<Outputs> evalStatelessRandomUniformV2(const KernelContext &Ctx) {
  return floatOp<Uniform>(Ctx, true);
}
absl::StatusOr<Outputs> evalStatelessRandomNormal(const KernelContext &Ctx) {
  return floatOp<Normal>(Ctx, false);
}
absl::StatusOr<Outputs> evalStatelessRandomNormalV2(const KernelContext &Ctx) {
  return floatOp<Normal>(Ctx, true);
}
absl::StatusOr<Outputs> evalStatelessTruncatedNormal(const KernelContext &Ctx) {
  return floatOp<TruncatedNormal>(Ctx, false);
}
absl::StatusOr<Outputs> evalStatelessTruncatedNormalV2(const KernelContext &Ctx) {
  return floatOp<TruncatedNormal>(Ctx, true);
}
absl::StatusOr<Outputs> evalStatelessRandomUniformInt(const KernelContext &Ctx) {
  return uniformIntOp(Ctx, false);
}
absl::StatusOr<Outputs> evalStatelessRandomUniformIntV2(const KernelContext &Ctx) {
  return uniformIntOp(Ctx, true);
}
absl::StatusOr<Outputs> evalStatelessRandomUniformFullInt(const KernelContext &Ctx) {
  return fullIntOp(Ctx, false);
}
absl::StatusOr<Outputs> evalStatelessRandomUniformFullIntV2(const KernelContext &Ctx) {
  return fullIntOp(Ctx, true);
}

absl::StatusOr<Outputs> evalStatelessRandomGetKeyCounter(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_ASSIGN_OR_RETURN(Philox Gen, seedInput(Ctx, 0));
  return keyAndCounter(Gen);
}

absl::StatusOr<Outputs> evalStatelessRandomGetKeyCounterAlg(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_ASSIGN_OR_RETURN(Philox Gen, seedInput(Ctx, 0));
  Outputs Out = keyAndCounter(Gen);
  Out.push_back(int32Scalar(AlgPhilox));
  return Out;
}

absl::StatusOr<Outputs> evalStatelessRandomGetAlg(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(0));
  // The CPU's algorithm: what TensorFlow picks for a graph placed on a CPU.
  return Outputs{int32Scalar(AlgPhilox)};
}

} // namespace frost::eval
