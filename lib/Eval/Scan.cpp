//===- Scan.cpp - Cumulative sums and products ----------------------------===//
//
// TensorFlow's scan_ops.cc (Cumsum, Cumprod) on CPU: Eigen's scan along one
// axis, each running value starting from the reducer's identity (0 or 1) and
// combined with the next element in T's own arithmetic, one element at a
// time; `reverse` scans from the end, `exclusive` writes each running value
// before combining. That is the order TensorFlow's kernel computes in, so the
// results are its own bit for bit (a cumsum of -0.0 is +0.0, as 0 + -0).
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

#include <type_traits>

namespace frost::eval {

namespace {

enum class Scan { Sum, Product };

template <typename T> T combine(Scan Op, T Accum, T X) {
  if constexpr (std::is_integral_v<T>) {
    // Two's complement wrap-around, as the CPU computes it.
    using U = std::make_unsigned_t<T>;
    U A = static_cast<U>(Accum), B = static_cast<U>(X);
    return static_cast<T>(Op == Scan::Sum ? static_cast<U>(A + B) : static_cast<U>(A * B));
  } else {
    return Op == Scan::Sum ? T(Accum + X) : T(Accum * X);
  }
}

absl::StatusOr<Outputs> scan(const KernelContext &Ctx, Scan Op) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &In = Ctx.input(0), &AxisT = Ctx.input(1);
  FROST_ASSIGN_OR_RETURN(bool Exclusive, Ctx.boolAttr("exclusive", false));
  FROST_ASSIGN_OR_RETURN(bool Reverse, Ctx.boolAttr("reverse", false));
  if (!AxisT.shape().empty())
    return Ctx.invalid(
        absl::StrCat("ScanOp: axis must be a scalar, not ", shapeOf(AxisT)));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> AxisV, intElements(Ctx, 1));
  int64_t Rank = In.shape().size();
  int64_t Axis = AxisV[0] < 0 ? AxisV[0] + Rank : AxisV[0];
  if (Axis < 0 || Axis >= Rank)
    return Ctx.invalid(absl::StrCat("ScanOp: Expected scan axis in the range [", -Rank, ", ",
                                    Rank, "), but got ", Axis));
  int64_t Outer = 1, Length = In.shape()[Axis], Inner = 1;
  for (int64_t D = 0; D < Axis; ++D)
    Outer *= In.shape()[D];
  for (int64_t D = Axis + 1; D < Rank; ++D)
    Inner *= In.shape()[D];
  return dispatch<Numbers>(Ctx, In.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    ElementsOf<T> X(In);
    OutputOf<T> Out(shapeVector(In));
    const T Identity = Op == Scan::Sum ? T(0) : T(1);
    for (int64_t O = 0; O < Outer; ++O)
      for (int64_t I = 0; I < Inner; ++I) {
        T Accum = Identity;
        for (int64_t Step = 0; Step < Length; ++Step) {
          int64_t K = Reverse ? Length - 1 - Step : Step;
          int64_t At = (O * Length + K) * Inner + I;
          if (Exclusive) {
            Out[At] = Accum;
            Accum = combine(Op, Accum, X[At]);
          } else {
            Accum = combine(Op, Accum, X[At]);
            Out[At] = Accum;
          }
        }
      }
    return Outputs{std::move(Out).finish()};
  });
}

} // namespace

absl::StatusOr<Outputs> evalCumsum(const KernelContext &Ctx) { return scan(Ctx, Scan::Sum); }

absl::StatusOr<Outputs> evalCumprod(const KernelContext &Ctx) { return scan(Ctx, Scan::Product); }

} // namespace frost::eval
