//===- TensorFlowMath.cpp - TensorFlow's x86 float math, in scalar code ---===//
//
// Eigen's packet math as TensorFlow 2.21's x86 wheels run it (AVX, no FMA),
// one element at a time, on the steps of PacketArithmetic.h: exp, log,
// generic_expm1, generic_log1p, generic_fast_erf, the float logistic, and
// the Newton steps on the processor's approximate rsqrt and reciprocal,
// with the same constants and the same IEEE operations in the same order.
// The scalar tails call glibc, as TensorFlow's tails do, under the flush
// mode lib/Eval sets around every kernel (Eval.cpp). Verified bit-exact
// against TensorFlow 2.21 (float and double, both paths, millions of
// inputs: every float for exp and expm1; thresholds, subnormals, infinities
// and NaN) and in lit by scripts/compare_elementwise_with_tf.py.
//
//===----------------------------------------------------------------------===//
#include "PacketArithmetic.h"

#include <algorithm>

#include <xmmintrin.h>

namespace frost::eval::tfmath {

namespace packet {
namespace {

// ---------------------------------------------------------------------------
// generic_expm1 (Kahan): u = exp(x); (u-1) * x / log(u)
// ---------------------------------------------------------------------------
template <class T> T genericExpm1(T x) {
  const T u = pexp(x);
  const bool one_mask = eq(u, T(1));
  const T u_minus_one = sub(u, T(1));
  const bool neg_one_mask = eq(u_minus_one, T(-1));
  const T logu = plog(u);
  const bool pos_inf_mask = eq(logu, u);
  T r = mul(u_minus_one, div(x, logu));
  r = pos_inf_mask ? u : r;
  return one_mask ? x : (neg_one_mask ? T(-1) : r);
}

// --- Erf ----------------------------------------------------------------------


/// generic_fast_erf<float>: an [11/10] rational in x, x^2 clamped at 16, the
/// result clamped to [-1, 1].
float erfOfFloat(float x) {
  static constexpr float kAlpha[] = {2.123732201653183437883853912353515625e-06f,
                                     2.861979592125862836837768554687500000e-04f,
                                     3.658048342913389205932617187500000000e-03f,
                                     5.243302136659622192382812500000000000e-02f,
                                     1.874160766601562500000000000000000000e-01f,
                                     1.128379106521606445312500000000000000e+00f};
  static constexpr float kBeta[] = {3.89185734093189239501953125000e-05f,
                                    1.14329601638019084930419921875e-03f,
                                    1.47520881146192550659179687500e-02f,
                                    1.12945675849914550781250000000e-01f,
                                    4.99425798654556274414062500000e-01f, 1.0f};
  const float x2 = pmin(16.0f, mul(x, x));
  const float p = mul(x, horner(x2, kAlpha));
  return pmax(pmin(div(p, horner(x2, kBeta)), 1.0f), -1.0f);
}

/// erf(x)/x for x^2 <= 1: a [9/10] rational in x^2.
double erfOverXSmall(double x2) {
  static constexpr double kAlpha[] = {
      1.9493725660006057018823477644531294572516344487667083740234375e-04,
      1.8272566210022942682217328425053892715368419885635375976562500e-03,
      4.5303363351690106863856044583371840417385101318359375000000000e-02,
      1.4215015503619179981775744181504705920815467834472656250000000e-01,
      1.1283791670955125585606992899556644260883331298828125000000000e+00};
  static constexpr double kBeta[] = {
      2.0294484101083099089526257108317963684385176748037338256835938e-05,
      6.8117805899186819641732970609382391558028757572174072265625000e-04,
      1.0582026056098614921752165685120417037978768348693847656250000e-02,
      9.3252603143757495374188692949246615171432495117187500000000000e-02,
      4.5931062818368939559832142549566924571990966796875000000000000e-01,
      1.0};
  return div(horner(x2, kAlpha), horner(x2, kBeta));
}

/// erfc(x) for 1 < x^2: exp(-x^2) (with x^2's rounding error) times a
/// [9/9] rational in 1/x^2. `Exp` is pexp in packets, glibc's in the tail.
template <typename ExpFn> double erfcLarge(double x, double x2, ExpFn Exp) {
  static constexpr double kGamma[] = {
      1.5252844933226974316088642158462107545346952974796295166015625e-04,
      1.0909912393738931124520519233556115068495273590087890625000000e-02,
      1.0628604636755033252537572252549580298364162445068359375000000e-01,
      3.3492472973137982217295416376146022230386734008789062500000000e-01,
      4.5065776215933289750026347064704168587923049926757812500000000e-01,
      2.9433039130294824659017649537418037652969360351562500000000000e-01,
      9.8792676360600226170838311645638896152377128601074218750000000e-02,
      1.7095935395503719655962981960328761488199234008789062500000000e-02,
      1.4249109729504577659398023570247460156679153442382812500000000e-03,
      4.4567378313647954771875570045835956989321857690811157226562500e-05};
  static constexpr double kDelta[] = {
      2.041985103115789845773520028160419315099716186523437500000000e-03,
      5.316030659946043707142493417450168635696172714233398437500000e-02,
      3.426242193784684864077405563875799998641014099121093750000000e-01,
      8.565637124308049799026321124983951449394226074218750000000000e-01,
      1.000000000000000000000000000000000000000000000000000000000000e+00,
      5.968805280570776972126623149961233139038085937500000000000000e-01,
      1.890922854723317836356244470152887515723705291748046875000000e-01,
      3.152505418656005586885981983868987299501895904541015625000000e-02,
      2.565085751861882583380047861965067568235099315643310546875000e-03,
      7.899362131678837697403017248376499992446042597293853759765625e-05};
  double x2_hi, x2_lo;
  twoProd(x, x, x2_hi, x2_lo);
  const double e = Exp(pnegate(x2));
  const double z = sub(e, mul(e, x2_lo));
  const double q2 = div(1.0, x2);
  const double r = div(horner(q2, kGamma), mul(x, horner(q2, kDelta)));
  return madd(z, r, lt(x, 0.0) ? 2.0 : 0.0);
}

template <typename ExpFn> double erfOfDouble(double x, ExpFn Exp) {
  const double x2 = mul(x, x);
  if (!lt(1.0, x2))
    return mul(x, erfOverXSmall(x2));
  return sub(1.0, erfcLarge(x, x2, Exp));
}

// --- Erfc -------------------------------------------------------------------

/// generic_fast_erfc<float>: 1 + x S(x^2) for x^2 <= 1; beyond,
/// exp(-x^2) (with x^2's rounding error) times a [3/4] rational in 1/x^2, on
/// x clamped to [-11, 11]. `Exp` and `Reciprocal` are pexp and the Newton
/// step on the approximate reciprocal in packets; expf and 1 / x in the tail.
template <typename ExpFn, typename ReciprocalFn>
float erfcOfFloat(float x_in, ExpFn Exp, ReciprocalFn Reciprocal) {
  static constexpr float kAlpha[] = {5.61802298761904239654541015625e-04f,
                                     -4.91381669417023658752441406250e-03f,
                                     2.67075151205062866210937500000e-02f,
                                     -1.12800106406211853027343750000e-01f,
                                     3.76122951507568359375000000000e-01f,
                                     -1.12837910652160644531250000000e+00f};
  static constexpr float kGamma[] = {1.0208116471767425537109375e-01f,
                                     4.2920666933059692382812500e-01f,
                                     3.2379078865051269531250000e-01f,
                                     5.3971976041793823242187500e-02f};
  static constexpr float kDelta[] = {1.7251677811145782470703125e-02f,
                                     3.9137163758277893066406250e-01f, 1.0f,
                                     6.2173241376876831054687500e-01f,
                                     9.5662862062454223632812500e-02f};
  const float x = pmin(pmax(x_in, -11.0f), 11.0f);
  float x2_hi, x2_lo;
  twoProd(x, x, x2_hi, x2_lo);
  if (!lt(1.0f, x2_hi))
    return madd(x, horner(x2_hi, kAlpha), 1.0f);
  const float e = Exp(pnegate(x2_hi));
  const float z = sub(e, mul(e, x2_lo));
  const float q2 = Reciprocal(x2_hi);
  const float r = div(horner(q2, kGamma), mul(x, horner(q2, kDelta)));
  return madd(z, r, lt(x, 0.0f) ? 2.0f : 0.0f);
}

/// generic_fast_erfc<double>: 1 - x erf(x)/x for x^2 <= 1, erfcLarge beyond,
/// on x clamped to [-28, 28].
template <typename ExpFn> double erfcOfDouble(double x_in, ExpFn Exp) {
  const double x = pmin(pmax(x_in, -28.0), 28.0);
  const double x2 = mul(x, x);
  if (!lt(1.0, x2))
    return sub(1.0, mul(x, erfOverXSmall(x2)));
  return erfcLarge(x, x2, Exp);
}

// --- Sine and cosine ----------------------------------------------------------

/// Payne-Hanek reduction of a float |x| >= the threshold of psincos_float: x
/// minus the nearest multiple of pi/2, and that multiple's quadrant, from
/// 192 bits of 2/pi in 2.62-bit fixed point.
float reduceHugeAngle(float X, int32_t &Quadrant) {
  static constexpr uint32_t TwoOverPi[] = {
      0x00000028, 0x000028be, 0x0028be60, 0x28be60db, 0xbe60db93, 0x60db9391, 0xdb939105,
      0x9391054a, 0x91054a7f, 0x054a7f09, 0x4a7f09d5, 0x7f09d5f4, 0x09d5f47d, 0xd5f47d4d,
      0xf47d4d37, 0x7d4d3770, 0x4d377036, 0x377036d8, 0x7036d8a5, 0x36d8a566, 0xd8a5664f,
      0xa5664f10, 0x664f10e4, 0x4f10e410, 0x10e41000, 0xe4100000};
  uint32_t Bits = toBits(X);
  // The exponent, offset so that 2/pi's bits are read 8-aligned.
  const uint32_t E = (Bits >> 23) - 118;
  Bits = ((Bits & 0x007fffffu) | 0x00800000u) << (E & 0x7);
  const uint32_t I = E >> 3;
  uint64_t P = uint64_t(Bits) * TwoOverPi[I + 7];
  P = uint64_t(Bits) * TwoOverPi[I + 3] + (P >> 32);
  P = (uint64_t(Bits * TwoOverPi[I - 1]) << 32) + P;
  const uint64_t Q = (P + (uint64_t(1) << 61)) >> 62;
  Quadrant = int32_t(Q);
  P -= Q << 62;
  return float(double(int64_t(P)) * 3.4061215800865545e-19);
}

/// psincos_float without FMA: x * 2/pi rounded to an integer by adding
/// 2^23, x reduced by four parts of pi/2 (Payne-Hanek from `huge_th` on),
/// then the sine or cosine polynomial by the quadrant. Computing both
/// (`ComputeBoth`, complex exp's cis) reduces from cosine's threshold on.
template <bool Sine, bool ComputeBoth = false> float sincosOfFloat(float In) {
  const float HugeThreshold = Sine && !ComputeBoth ? 25966.f : 18838.f;
  float X = pabs(In);
  float Y = mul(X, 0.636619746685028076171875f);
  const float YRound = add(Y, 12582912.0f);
  int32_t YInt = int32_t(toBits(YRound));
  Y = sub(YRound, 12582912.0f);
  X = madd(Y, -1.5703125f, X);
  X = madd(Y, -0.000483989715576171875f, X);
  X = madd(Y, 1.62865035235881805419921875e-07f, X);
  X = madd(Y, 5.5644315544167710640977020375430583953857421875e-11f, X);
  const float Abs = pabs(In);
  if (le(HugeThreshold, Abs) && std::isfinite(Abs))
    X = reduceHugeAngle(Abs, YInt);
  const uint32_t SignBit =
      (Sine ? (toBits(In) ^ (uint32_t(YInt) << 30)) : (uint32_t(wrapAdd(YInt, 1)) << 30)) &
      0x80000000u;
  const bool EvenQuadrant = (YInt & 1) == 0;
  const float X2 = mul(X, X);
  float Cos = 2.4372266125283204019069671630859375e-05f;
  Cos = madd(Cos, X2, -0.00138865201734006404876708984375f);
  Cos = madd(Cos, X2, 0.041666619479656219482421875f);
  Cos = madd(Cos, X2, -0.5f);
  Cos = madd(Cos, X2, 1.f);
  float Sin = -0.0001959234114083702898469196984621021329076029360294342041015625f;
  Sin = madd(Sin, X2, 0.0083326873655616851693794799871284340042620897293090820312500000f);
  Sin = madd(Sin, X2, -0.1666666203982298255503735617821803316473960876464843750000000000f);
  Sin = mul(Sin, X2);
  Sin = madd(Sin, X, X);
  const float R = (Sine == EvenQuadrant) ? Sin : Cos;
  return fromBits<float>(toBits(R) ^ SignBit);
}

// --- Sigmoid ------------------------------------------------------------------

/// Eigen's float logistic in packets: exp(x/2)^2 (so no ldexp reaches the
/// subnormal range), x capped at 16.6355324 (the result is 1 there), 0 below
/// -104.
float sigmoidOfFloat(float x_in) {
  const bool zero = lt(x_in, -104.0f);
  const float x = mul(pmin(x_in, 16.6355324f), 0.5f);
  const float m = pfloor(madd(x, 1.44269504088896341f, 0.5f));
  float r = madd(m, -0.693359375f, x);
  r = madd(m, 2.12194440e-4f, r);
  const float r2 = mul(r, r);
  const float p_even = madd(r2, 4.1898667812347412109375e-2f, 0.49999141693115234375f);
  const float p_odd = madd(r2, 8.33471305668354034423828125e-3f, 0.16666877269744873046875f);
  float p = madd(r, p_odd, p_even);
  p = madd(r2, p, add(r, 1.0f));
  float e = pldexpFast(p, m);
  e = mul(e, e);
  return zero ? 0.0f : div(e, add(1.0f, e));
}

template <typename T> T log1pOf(T X) {
  // generic_log1p: x * (log(x + 1) / ((x + 1) - 1)), x itself where x + 1
  // is 1 or log(x + 1) is x + 1 (inf).
  const T Xp1 = add(X, T(1));
  const T Log = plog(Xp1);
  if (eq(Xp1, T(1)) || eq(Xp1, Log))
    return daz(X); // Measured: a subnormal x comes out flushed here.
  return mul(X, div(Log, sub(Xp1, T(1))));
}
/// The processor's approximate reciprocal square root and reciprocal
/// (about 12 bits): what vrsqrtps and vrcpps give on this machine, as they
/// do in TensorFlow's packets on the same one.
float approximateRsqrt(float X) { return _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(X))); }
float approximateReciprocal(float X) { return _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(X))); }

} // namespace
} // namespace packet

using namespace packet;

float tanhFloat(float X) {
  static constexpr float Clamp = 7.90738964080810547f;
  static constexpr float Numerator[] = {1.394553628e-8f, 2.102733560e-5f, 3.520756727e-3f,
                                        1.340216100e-1f};
  static constexpr float Denominator[] = {8.015776984e-7f, 3.326951409e-4f, 2.597254514e-2f,
                                          4.673548340e-1f, 1.0f};
  X = pmax(pmin(X, Clamp), -Clamp);
  const float X2 = mul(X, X), X3 = mul(X2, X);
  return div(madd(X3, horner(X2, Numerator), X), horner(X2, Denominator));
}

double tanhDouble(double X) {
  static constexpr double Clamp = 17.714196154005176;
  static constexpr double Numerator[] = {
      2.6158007860482230e-23, 7.6534862268749319e-19, 3.1309488231386680e-15,
      4.2303918148209176e-12, 2.4618379131293676e-09, 6.8644367682497074e-07,
      9.3839087674268880e-05, 5.9809711724441161e-03, 1.5184719640284322e-01};
  static constexpr double Denominator[] = {
      6.463747022670968018e-21, 5.782506856739003571e-17, 1.293019623712687916e-13,
      1.123643448069621992e-10, 4.492975677839633985e-08, 8.785185266237658698e-06,
      8.295161192716231542e-04, 3.437448108450402717e-02, 4.851805297361760360e-01,
      1.0};
  X = pmax(pmin(X, Clamp), -Clamp);
  const double X2 = mul(X, X), X3 = mul(X2, X);
  return div(madd(X3, horner(X2, Numerator), X), horner(X2, Denominator));
}

float rsqrtPacket(float X) {
  // generic_rsqrt_newton_step: one Newton step on the approximation, which
  // stays where the step gives NaN (x zero, infinite or NaN).
  const float Approx = approximateRsqrt(X);
  const float R2 = mul(X, Approx), HalfR = mul(Approx, -0.5f);
  const float H = madd(R2, Approx, -1.0f);
  const float Refined = madd(HalfR, H, Approx);
  return isNan(Refined) ? Approx : Refined;
}
float rsqrtTail(float X) { return 1.0f / std::sqrt(X); }
float reciprocalPacket(float X) {
  // generic_reciprocal_newton_step: x (2 - a x) as x + x (1 - a x).
  const float Approx = approximateReciprocal(X);
  const float T = sub(1.0f, mul(X, Approx));
  return isNan(T) ? Approx : madd(Approx, T, Approx);
}

float expPacket(float X) { return pexp(X); }
double expPacket(double X) { return pexp(X); }
float expTail(float X) { return std::exp(X); }
double expTail(double X) { return std::exp(X); }
float logPacket(float X) { return plog(X); }
double logPacket(double X) { return plog(X); }
float logTail(float X) { return std::log(X); }
// Measured: TensorFlow's double log reads a subnormal as zero (-inf), its
// float log does not.
double logTail(double X) { return std::log(daz(X)); }
float log1pPacket(float X) { return log1pOf(X); }
double log1pPacket(double X) { return log1pOf(X); }
float log1pTail(float X) { return std::log1p(X); }
double log1pTail(double X) { return std::log1p(X); }
float expm1Packet(float X) { return genericExpm1(X); }
double expm1Packet(double X) { return genericExpm1(X); }
float expm1Tail(float X) { return std::expm1(X); }
double expm1Tail(double X) { return std::expm1(X); }
float erfFloat(float X) { return erfOfFloat(X); }
double erfPacket(double X) { return erfOfDouble(X, [](double V) { return pexp(V); }); }
double erfTail(double X) { return erfOfDouble(X, [](double V) { return std::exp(V); }); }
float erfcPacket(float X) {
  return erfcOfFloat(X, [](float V) { return pexp(V); },
                     [](float V) { return reciprocalPacket(V); });
}
float erfcTail(float X) {
  return erfcOfFloat(X, [](float V) { return std::exp(V); },
                     [](float V) { return div(1.0f, V); });
}
double erfcPacket(double X) { return erfcOfDouble(X, [](double V) { return pexp(V); }); }
double erfcTail(double X) { return erfcOfDouble(X, [](double V) { return std::exp(V); }); }
float sinPacket(float X) { return sincosOfFloat<true>(X); }
float cosPacket(float X) { return sincosOfFloat<false>(X); }
float cisCosPacket(float X) { return sincosOfFloat<false, true>(X); }
float cisSinPacket(float X) { return sincosOfFloat<true, true>(X); }
float sigmoidPacket(float X) { return sigmoidOfFloat(X); }
float sigmoidTail(float X) {
  const float E = std::exp(std::min(X, 16.6355324f));
  return E / (1.0f + E);
}
double sigmoidPacket(double X) {
  const double E = pexp(X);
  return E == std::numeric_limits<double>::infinity() ? 1.0 : div(E, add(1.0, E));
}
double sigmoidTail(double X) {
  const double E = std::exp(X);
  return E == std::numeric_limits<double>::infinity() ? 1.0 : E / (1.0 + E);
}

} // namespace frost::eval::tfmath
