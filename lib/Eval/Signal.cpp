//===- Signal.cpp - Real FFTs and complex magnitudes ----------------------===//
//
// TensorFlow's RFFT and IRFFT (innermost dimension, fft_length points,
// float and complex64) and ComplexAbs. TensorFlow transforms with DUCC's
// FFT in float; Frost, linking no FFT library, sums the discrete Fourier
// transform directly in double with twiddles exact to double (k*j reduced
// modulo n before the cosine), then rounds to float: each output is within
// a few float ulps of the exact transform of the input, so it differs from
// TensorFlow's by at most TensorFlow's own rounding, a few float epsilons of
// the largest output of the row (scripts/compare_elementwise_with_tf.py
// measures it). O(n^2) per row: enough for audio frames, not for long
// signals. ComplexAbs is glibc's hypot of each element, as TensorFlow's;
// Complex, Real and Imag build and take apart complex numbers.
//
//===----------------------------------------------------------------------===//
#include "ElementwiseSupport.h"

#include <complex>
#include <numbers>

namespace frost::eval {

using namespace elementwise;

namespace {

/// cos and sin of 2 pi K / N for 0 <= K < N.
std::vector<std::complex<double>> twiddles(int64_t N) {
  std::vector<std::complex<double>> W(static_cast<size_t>(N));
  for (int64_t K = 0; K < N; ++K) {
    const double Angle = 2 * std::numbers::pi * static_cast<double>(K) / static_cast<double>(N);
    W[K] = {std::cos(Angle), std::sin(Angle)};
  }
  return W;
}

/// The fft_length input: one positive (RFFT: non-negative) int32.
absl::StatusOr<int64_t> fftLength(const KernelContext &Ctx) {
  const TensorData &L = Ctx.input(1);
  if (L.shape().size() != 1 || L.numElements() != 1)
    return Ctx.invalid("fft_length must have shape [1]");
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> V, intVectorInput(Ctx, 1, "fft_length"));
  if (V[0] < 0)
    return Ctx.invalid(absl::StrCat("fft_length[0] must >= 0, but got: ", V[0]));
  // TensorFlow 2.21 aborts (a failed DUCC assertion) on a zero length with
  // a non-empty input; Frost refuses it.
  if (V[0] == 0)
    return Ctx.invalid("fft_length[0] must be positive");
  return V[0];
}

/// What RFFT and IRFFT share: the transform of `N` points over the
/// innermost dim of input 0 (of `InLength` elements, `Rows` rows), into an
/// output of `Shape` (N / 2 + 1 bins for RFFT, N points for the inverse).
struct Transform {
  int64_t N, InLength, Rows;
  std::vector<int64_t> Shape;
};

absl::StatusOr<Transform> transform(const KernelContext &Ctx, tensorflow::DataType InType,
                                    bool Inverse, size_t OutElementBytes) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &In = Ctx.input(0);
  if (In.dtype() != InType)
    return Ctx.unimplementedType(In.dtype());
  if (In.shape().empty())
    return Ctx.invalid("Input must have rank of at least 1 but got: []");
  Transform T;
  FROST_ASSIGN_OR_RETURN(T.N, fftLength(Ctx));
  T.InLength = In.shape().back();
  if (!Inverse && T.InLength < T.N)
    return Ctx.invalid(absl::StrCat("Input dimension ", In.shape().size() - 1,
                                    " must have length of at least ", T.N, " but got: ",
                                    T.InLength));
  T.Shape = shapeOf(In);
  T.Shape.back() = Inverse ? T.N : T.N / 2 + 1;
  FROST_RETURN_IF_ERROR(checkedOutputSize(Ctx, T.Shape, OutElementBytes).status());
  T.Rows = T.InLength == 0 ? 0 : In.numElements() / T.InLength;
  return T;
}

} // namespace

absl::StatusOr<Outputs> evalRFFT(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(Transform Plan, transform(Ctx, tensorflow::DT_FLOAT, false, 8));
  const int64_t N = Plan.N, Bins = Plan.Shape.back();
  ElementsOf<float> X(Ctx.input(0));
  std::string Out(static_cast<size_t>(Plan.Rows * Bins) * 8, '\0');
  const std::vector<std::complex<double>> W = twiddles(N);
  // The input is cropped to N points.
  for (int64_t R = 0; R < Plan.Rows; ++R)
    for (int64_t K = 0; K < Bins; ++K) {
      std::complex<double> Sum = 0;
      for (int64_t J = 0; J < N; ++J)
        Sum += static_cast<double>(X[R * Plan.InLength + J]) * std::conj(W[(K * J) % N]);
      const float Parts[2] = {static_cast<float>(Sum.real()), static_cast<float>(Sum.imag())};
      std::memcpy(Out.data() + (R * Bins + K) * 8, Parts, 8);
    }
  return Outputs{
      TensorData::owned(tensorflow::DT_COMPLEX64, std::move(Plan.Shape), std::move(Out))};
}

absl::StatusOr<Outputs> evalIRFFT(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(Transform Plan, transform(Ctx, tensorflow::DT_COMPLEX64, true, 4));
  const int64_t N = Plan.N, InLength = Plan.InLength, Bins = N / 2 + 1;
  ElementsOf<std::complex<float>> X(Ctx.input(0));
  OutputOf<float> Out(std::move(Plan.Shape));
  const std::vector<std::complex<double>> W = twiddles(N);
  // The first N/2 + 1 bins (zero-padded) describe a Hermitian spectrum; the
  // imaginary parts of bin 0 and (even N) bin N/2 are ignored.
  const int64_t Used = std::min(InLength, Bins);
  for (int64_t R = 0; R < Plan.Rows; ++R)
    for (int64_t J = 0; J < N; ++J) {
      double Sum = 0;
      for (int64_t K = 0; K < Used; ++K) {
        const std::complex<double> V(X[R * InLength + K]);
        const std::complex<double> T = V * W[(K * J) % N];
        const bool SelfConjugate = K == 0 || (N % 2 == 0 && K == N / 2);
        Sum += SelfConjugate ? V.real() * W[(K * J) % N].real() : 2 * T.real();
      }
      Out[R * N + J] = static_cast<float>(Sum / static_cast<double>(N));
    }
  return Outputs{std::move(Out).finish()};
}

absl::StatusOr<Outputs> evalComplexAbs(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  const TensorData &In = Ctx.input(0);
  auto Abs = [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    ElementsOf<std::complex<T>> X(In);
    OutputOf<T> Out(shapeOf(In));
    for (int64_t I = 0; I < X.size(); ++I)
      Out[I] = std::hypot(X[I].real(), X[I].imag());
    return Outputs{std::move(Out).finish()};
  };
  if (In.dtype() == tensorflow::DT_COMPLEX64)
    return Abs(TypeTag<float>{});
  if (In.dtype() == tensorflow::DT_COMPLEX128)
    return Abs(TypeTag<double>{});
  return Ctx.unimplementedType(In.dtype());
}

namespace {

/// The real (`Part` 0) or imaginary (1) part of each complex element.
absl::StatusOr<Outputs> complexPart(const KernelContext &Ctx, int Part) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  const TensorData &In = Ctx.input(0);
  const llvm::StringRef Bytes = In.bytes();
  auto Parts = [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    OutputOf<T> Out(shapeOf(In));
    for (int64_t I = 0; I < In.numElements(); ++I)
      std::memcpy(&Out[I], Bytes.data() + (2 * I + Part) * sizeof(T), sizeof(T));
    return Outputs{std::move(Out).finish()};
  };
  if (In.dtype() == tensorflow::DT_COMPLEX64)
    return Parts(TypeTag<float>{});
  if (In.dtype() == tensorflow::DT_COMPLEX128)
    return Parts(TypeTag<double>{});
  return Ctx.unimplementedType(In.dtype());
}

} // namespace

absl::StatusOr<Outputs> evalReal(const KernelContext &Ctx) { return complexPart(Ctx, 0); }
absl::StatusOr<Outputs> evalImag(const KernelContext &Ctx) { return complexPart(Ctx, 1); }

absl::StatusOr<Outputs> evalComplex(const KernelContext &Ctx) {
  // real + i imag, the two inputs broadcast against each other.
  FROST_RETURN_IF_ERROR(checkBinary(Ctx));
  const TensorData &Re = Ctx.input(0), &Im = Ctx.input(1);
  auto Build = [&](auto Tag, tensorflow::DataType Complex) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Shape, broadcastShapes(Ctx, Re.shape(), Im.shape()));
    FROST_ASSIGN_OR_RETURN(int64_t N, checkedOutputSize(Ctx, Shape, 2 * sizeof(T)));
    BroadcastOf<T> A(Re, Shape, N), B(Im, Shape, N);
    std::string Out(static_cast<size_t>(N) * 2 * sizeof(T), '\0');
    for (int64_t I = 0; I < N; ++I) {
      const T Parts[2] = {A.array(N)[I], B.array(N)[I]};
      std::memcpy(Out.data() + I * 2 * sizeof(T), Parts, sizeof(Parts));
    }
    return Outputs{TensorData::owned(Complex, std::move(Shape), std::move(Out))};
  };
  if (Re.dtype() == tensorflow::DT_FLOAT)
    return Build(TypeTag<float>{}, tensorflow::DT_COMPLEX64);
  if (Re.dtype() == tensorflow::DT_DOUBLE)
    return Build(TypeTag<double>{}, tensorflow::DT_COMPLEX128);
  return Ctx.unimplementedType(Re.dtype());
}

} // namespace frost::eval
