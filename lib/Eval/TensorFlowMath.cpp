//===- TensorFlowMath.cpp - TensorFlow's x86 float math, in scalar code ---===//
//
// Eigen's packet math as TensorFlow 2.21's x86 wheels run it (AVX, no FMA),
// one element at a time: pexp, plog, generic_expm1, generic_pow (double-word
// log2 and exp2), generic_fast_erf and the float logistic, with the same
// constants and the same IEEE operations in the same order. TensorFlow's
// kernels run with denormals flushed (FTZ and DAZ); the packet primitives
// below model that on every arithmetic step, compare, min/max and floor
// (`daz`, `mul`, ...), since a library floor or a bit trick would not see
// the processor's mode; bitwise steps (abs, negate, select) never flush, as
// on the processor. The scalar tails call glibc, as TensorFlow's tails do,
// under the flush mode lib/Eval sets around every kernel (Eval.cpp).
// Verified bit-exact against TensorFlow 2.21 (float and double, both paths,
// millions of inputs: every float for exp and expm1; thresholds, subnormals,
// infinities and NaN) and in lit by scripts/compare_elementwise_with_tf.py.
//
//===----------------------------------------------------------------------===//
#include "TensorFlowMath.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include <xmmintrin.h>

namespace frost::eval::tfmath {

namespace {

template <class T> struct FT;
template <> struct FT<float> {
  using U = uint32_t;
  using I = int32_t;
  static constexpr int kMant = 23;                 // stored mantissa bits
  static constexpr int kExpBits = 8;
  static constexpr U kSign = 0x80000000u;
  static constexpr U kExpMask = 0x7f800000u;
  static constexpr float kScaleUp = 0x1p64f;       // used for the exact tininess test
};
template <> struct FT<double> {
  using U = uint64_t;
  using I = int64_t;
  static constexpr int kMant = 52;
  static constexpr int kExpBits = 11;
  static constexpr U kSign = 0x8000000000000000ull;
  static constexpr U kExpMask = 0x7ff0000000000000ull;
  static constexpr double kScaleUp = 0x1p64;
};

template <class T> typename FT<T>::U toBits(T x) {
  typename FT<T>::U u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
template <class T> T fromBits(typename FT<T>::U u) {
  T x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// ---------------------------------------------------------------------------
// IEEE arithmetic under MXCSR.DAZ + MXCSR.FTZ (round to nearest even).
// ---------------------------------------------------------------------------
template <class T> T signedZero(T r) { return fromBits<T>(toBits(r) & FT<T>::kSign); }
// add/sub: a tiny sum of two (normal or zero) operands is exact, so "tiny after
// rounding" == "|rounded result| < min normal".
template <class T> T flushSum(T r) {
  return std::fabs(r) < std::numeric_limits<T>::min() ? signedZero(r) : r;
}
template <class T> T add(T a, T b) { return flushSum<T>(daz(a) + daz(b)); }
template <class T> T sub(T a, T b) { return flushSum<T>(daz(a) - daz(b)); }
template <class T> T mul(T a, T b) {
  a = daz(a);
  b = daz(b);
  const T r = a * b;
  const T ar = std::fabs(r);
  const T mn = std::numeric_limits<T>::min();
  if (ar < mn) return signedZero(r);
  if (ar == mn) {
    // Ambiguous: the product rounded with unbounded exponent may be just below
    // min normal.  Recompute scaled (exact scaling of the smaller operand).
    const T r2 = (std::fabs(a) <= std::fabs(b)) ? (a * FT<T>::kScaleUp) * b : a * (b * FT<T>::kScaleUp);
    if (std::fabs(r2) < mn * FT<T>::kScaleUp) return signedZero(r);
  }
  return r;
}
template <class T> T div(T a, T b) {
  a = daz(a);
  b = daz(b);
  const T r = a / b;
  const T ar = std::fabs(r);
  const T mn = std::numeric_limits<T>::min();
  if (ar < mn) return signedZero(r);
  if (ar == mn) {
    const T r2 = (a * FT<T>::kScaleUp) / b;
    if (std::fabs(r2) < mn * FT<T>::kScaleUp) return signedZero(r);
  }
  return r;
}
// pmadd/pmsub/pnmadd without FMA: separate multiply and add (two roundings).
template <class T> T madd(T a, T b, T c) { return add(mul(a, b), c); }

// Comparisons (_CMP_*_OQ / NGE_UQ) with DAZ.
template <class T> bool lt(T a, T b) { return daz(a) < daz(b); }
template <class T> bool le(T a, T b) { return daz(a) <= daz(b); }
template <class T> bool eq(T a, T b) { return daz(a) == daz(b); }
template <class T> bool ltOrNan(T a, T b) { return !(daz(a) >= daz(b)); }
template <class T> bool isNan(T a) { return a != a; }

// Eigen pmin(a,b) = _mm256_min_p?(b, a) = (b < a) ? b : a   (operands DAZ'ed;
// with a NaN anywhere the result is a).  pmax(a,b) = (b > a) ? b : a.
template <class T> T pmin(T a, T b) {
  a = daz(a);
  b = daz(b);
  return (b < a) ? b : a;
}
template <class T> T pmax(T a, T b) {
  a = daz(a);
  b = daz(b);
  return (b > a) ? b : a;
}
// Bitwise helpers (no flushing).
template <class T> T pabs(T a) { return fromBits<T>(toBits(a) & ~FT<T>::kSign); }
template <class T> T pnegate(T a) { return fromBits<T>(toBits(a) ^ FT<T>::kSign); }
template <class T> bool signBit(T a) { return (toBits(a) & FT<T>::kSign) != 0; }

// roundp?(…, floor / trunc): DAZ on the input; floor/trunc are exact.
template <class T> T pfloor(T a) { return std::floor(daz(a)); }
template <class T> T ptrunc(T a) { return std::trunc(daz(a)); }
// Eigen AVX pround: trunc(a + (sign(a) | prev(0.5))).
template <class T> T pround(T a) {
  const T prev_half = std::nextafter(T(0.5), T(0));
  const T s = fromBits<T>((toBits(a) & FT<T>::kSign) | toBits(prev_half));
  return ptrunc(add(s, a));
}

// cvttps2dq: truncation; NaN / out of range -> INT32_MIN.  (inputs are clamped)
int32_t cvttF2I(float x) {
  x = daz(x);
  if (!(x > -2147483904.0f && x < 2147483648.0f)) return INT32_MIN;
  return static_cast<int32_t>(x);
}
// cvtpd2dq: round to nearest even; NaN / out of range -> INT32_MIN.
int32_t cvtD2I(double x) {
  x = daz(x);
  if (!(x > -2147483648.5 && x < 2147483647.5)) return INT32_MIN;
  return static_cast<int32_t>(std::nearbyint(x));
}
int32_t wrapAdd(int32_t a, int32_t b) { return int32_t(uint32_t(a) + uint32_t(b)); }
int32_t wrapSub(int32_t a, int32_t b) { return int32_t(uint32_t(a) - uint32_t(b)); }
int32_t wrapMul(int32_t a, int32_t b) { return int32_t(uint32_t(a) * uint32_t(b)); }
int32_t sar2(int32_t a) { return a >> 2; }  // arithmetic shift (g++ semantics)

// 2^e built from integer bits.
float floatFromBiasedExp(int32_t biased) { return fromBits<float>(uint32_t(biased) << 23); }
// AVX Packet4d path: the 32-bit biased exponent is shifted into a 64-bit lane
// with _mm_slli_epi64(…, 52): only its low 12 bits survive.
double doubleFromBiasedExp(int32_t biased) {
  return fromBits<double>((uint64_t(uint32_t(biased)) & 0xfffu) << 52);
}

// ---------------------------------------------------------------------------
// pldexp variants
// ---------------------------------------------------------------------------
// float: generic pldexp_fast.
float pldexpFast(float a, float exponent) {
  const float e_f = pmin(pmax(add(exponent, 127.0f), 0.0f), 255.0f);
  return mul(a, floatFromBiasedExp(cvttF2I(e_f)));
}
// float: pldexp_generic (4-factor split, clamp +-278, truncating cast).
float pldexpSafe(float a, float exponent) {
  const int32_t e = cvttF2I(pmin(pmax(exponent, -278.0f), 278.0f));
  int32_t b = sar2(e);
  float c = floatFromBiasedExp(wrapAdd(b, 127));
  float out = mul(mul(mul(a, c), c), c);
  b = wrapSub(e, wrapMul(3, b));
  c = floatFromBiasedExp(wrapAdd(b, 127));
  return mul(out, c);
}
// double: AVX pldexp_fast<Packet4d> (clamp [-1023, 1024], round-to-nearest cast).
double pldexpFast(double a, double exponent) {
  const int32_t e = cvtD2I(pmin(pmax(exponent, -1023.0), 1024.0));
  return mul(a, doubleFromBiasedExp(wrapAdd(e, 1023)));
}
// double: AVX pldexp<Packet4d> (clamp +-2099).
double pldexpSafe(double a, double exponent) {
  const int32_t e = cvtD2I(pmin(pmax(exponent, -2099.0), 2099.0));
  int32_t b = sar2(e);
  double c = doubleFromBiasedExp(wrapAdd(b, 1023));
  double out = mul(mul(mul(a, c), c), c);
  b = wrapSub(wrapSub(wrapSub(e, b), b), b);
  c = doubleFromBiasedExp(wrapAdd(b, 1023));
  return mul(out, c);
}

// ---------------------------------------------------------------------------
// pfrexp_generic (both types; Packet4d only changes how the biased exponent is
// extracted, not its value).
// ---------------------------------------------------------------------------
template <class T> T pfrexp(T a, T& exponent) {
  using U = typename FT<T>::U;
  constexpr int MB = FT<T>::kMant;
  constexpr int EB = FT<T>::kExpBits;
  const T normal_min = std::numeric_limits<T>::min();
  const bool is_denormal = lt(pabs(a), normal_min);
  const T norm_factor = T(U(1) << (MB + 1));
  const T normalized = is_denormal ? mul(a, norm_factor) : a;
  T offset = -T((U(1) << (EB - 1)) - 2);
  if (is_denormal) offset = add(offset, -T(MB + 1));
  const U nb = toBits(normalized);
  exponent = T((nb & ~FT<T>::kSign) >> MB);
  const T non_finite_exp = T((U(1) << EB) - 1);
  const bool zero_or_nonfinite = eq(a, T(0)) || eq(exponent, non_finite_exp);
  const U sign_mant_mask = ~FT<T>::kExpMask;
  const T m = zero_or_nonfinite ? a : fromBits<T>((nb & sign_mant_mask) | toBits(T(0.5)));
  exponent = zero_or_nonfinite ? T(0) : add(exponent, offset);
  return m;
}

// Eigen's long double constants.
constexpr long double kLn2L = 0.693147180559945309417232121458176568075500134360255254120680009493393621L;

// ---------------------------------------------------------------------------
// pexp_float / pexp_double
// ---------------------------------------------------------------------------
float pexp(float x_in) {
  const bool zero_mask = lt(x_in, -104.0f);
  const float x = pmin(x_in, 88.723f);
  const float m = pfloor(madd(x, 1.44269504088896341f, 0.5f));
  float r = madd(m, -0.693359375f, x);
  r = madd(m, 2.12194440e-4f, r);
  const float r2 = mul(r, r);
  float p_even = madd(r2, 1.37449637986719608306884765625e-3f, 4.166965186595916748046875e-2f);
  const float p_odd = madd(r2, 8.36894474923610687255859375e-3f, 0.16666518151760101318359375f);
  p_even = madd(r2, p_even, 0.49999988079071044921875f);
  const float p_low = add(r, 1.0f);
  float y = madd(r, p_odd, p_even);
  y = madd(r2, y, p_low);
  const bool unsafe = lt(87.0f, pabs(x));
  if (!unsafe) return pmax(pldexpFast(y, m), x_in);
  return zero_mask ? 0.0f : pmax(pldexpSafe(y, m), x_in);
}

double pexp(double x_in) {
  const bool zero_mask = lt(x_in, -745.519);
  double x = pmin(x_in, 709.784);
  double fx = pfloor(madd(1.4426950408889634073599, x, 0.5));
  const double tmp = mul(fx, 0.693145751953125);
  const double z = mul(fx, 1.42860682030941723212e-6);
  x = sub(x, tmp);
  x = sub(x, z);
  const double x2 = mul(x, x);
  double px = 1.26177193074810590878e-4;
  px = madd(px, x2, 3.02994407707441961300e-2);
  px = madd(px, x2, 9.99999999999999999910e-1);
  px = mul(px, x);
  double qx = 3.00198505138664455042e-6;
  qx = madd(qx, x2, 2.52448340349684104192e-3);
  qx = madd(qx, x2, 2.27265548208155028766e-1);
  qx = madd(qx, x2, 2.00000000000000000009e0);
  x = div(px, sub(qx, px));
  x = madd(2.0, x, 1.0);
  const bool unsafe = lt(708.0, pabs(x_in));
  if (!unsafe) return pmax(pldexpFast(x, fx), x_in);
  return zero_mask ? 0.0 : pmax(pldexpSafe(x, fx), x_in);
}

// ---------------------------------------------------------------------------
// plog_float / plog_double (natural log)
// ---------------------------------------------------------------------------
float plog(float x_in) {
  float e;
  float x = pfrexp(x_in, e);
  const bool mask = lt(x, 0.707106781186547524f);
  const float tmp = mask ? x : 0.0f;
  x = sub(x, 1.0f);
  e = sub(e, mask ? 1.0f : 0.0f);
  x = add(x, tmp);
  // rational approximation p(x)/q(x), Horner (ppolevl) order
  float p = madd(madd(0.18256296349849254f, x, 1.0000000190281063f), x, 1.0000000190281136f);
  p = mul(x, p);
  float q = madd(madd(madd(0.049616247954120038f, x, 0.59923249590823520f), x, 1.4999999999999927f), x, 1.0f);
  x = div(p, q);
  x = madd(e, static_cast<float>(kLn2L), x);
  const bool invalid = ltOrNan(x_in, 0.0f);
  const bool is_zero = eq(x_in, 0.0f);
  const bool pos_inf = eq(x_in, std::numeric_limits<float>::infinity());
  if (is_zero) return -std::numeric_limits<float>::infinity();
  if (invalid) return fromBits<float>(0xffffffffu);  // por(..., all-ones)
  return pos_inf ? std::numeric_limits<float>::infinity() : x;
}

double plog(double x_in) {
  double e;
  double x = pfrexp(x_in, e);
  const bool mask = lt(x, 0.70710678118654752440E0);
  const double tmp = mask ? x : 0.0;
  x = sub(x, 1.0);
  e = sub(e, mask ? 1.0 : 0.0);
  x = add(x, tmp);
  const double x2 = mul(x, x);
  const double x3 = mul(x2, x);
  double y, y1, y_;
  y = madd(1.01875663804580931796E-4, x, 4.97494994976747001425E-1);
  y1 = madd(1.44989225341610930846E1, x, 1.79368678507819816313E1);
  y = madd(y, x, 4.70579119878881725854E0);
  y1 = madd(y1, x, 7.70838733755885391666E0);
  y_ = madd(y, x3, y1);
  y = madd(1.0, x, 1.12873587189167450590E1);
  y1 = madd(8.29875266912776603211E1, x, 7.11544750618563894466E1);
  y = madd(y, x, 4.52279145837532221105E1);
  y1 = madd(y1, x, 2.31251620126765340583E1);
  y = madd(y, x3, y1);
  y_ = mul(y_, x3);
  y = div(y_, y);
  y = madd(-0.5, x2, y);
  x = add(x, y);
  x = madd(e, static_cast<double>(kLn2L), x);
  const bool invalid = ltOrNan(x_in, 0.0);
  const bool is_zero = eq(x_in, 0.0);
  const bool pos_inf = eq(x_in, std::numeric_limits<double>::infinity());
  if (is_zero) return -std::numeric_limits<double>::infinity();
  if (invalid) return fromBits<double>(~uint64_t(0));
  return pos_inf ? std::numeric_limits<double>::infinity() : x;
}

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

// ---------------------------------------------------------------------------
// double-word helpers (no-FMA variants: Veltkamp splitting + Dekker product)
// ---------------------------------------------------------------------------
template <class T> void fastTwoSum(T x, T y, T& s_hi, T& s_lo) {
  s_hi = add(x, y);
  const T t = sub(s_hi, x);
  s_lo = sub(y, t);
}
template <class T> void veltkamp(T x, T& x_hi, T& x_lo) {
  constexpr int shift = (std::numeric_limits<T>::digits + 1) / 2;
  const T scale = T(uint64_t(1) << shift) + T(1);
  const T gamma = mul(scale, x);
  const T rho = sub(x, gamma);
  x_hi = add(rho, gamma);
  x_lo = sub(x, x_hi);
}
template <class T> void twoProd(T x, T y, T& p_hi, T& p_lo) {
  T x_hi, x_lo, y_hi, y_lo;
  veltkamp(x, x_hi, x_lo);
  veltkamp(y, y_hi, y_lo);
  p_hi = mul(x, y);
  p_lo = madd(x_hi, y_hi, pnegate(p_hi));
  p_lo = madd(x_hi, y_lo, p_lo);
  p_lo = madd(x_lo, y_hi, p_lo);
  p_lo = madd(x_lo, y_lo, p_lo);
}
// {x_hi,x_lo} + {y_hi,y_lo}, assuming |x_hi| >= |y_hi|
template <class T> void fastTwoSumDW(T x_hi, T x_lo, T y_hi, T y_lo, T& s_hi, T& s_lo) {
  T r_hi, r_lo;
  fastTwoSum(x_hi, y_hi, r_hi, r_lo);
  const T s = add(add(y_lo, r_lo), x_lo);
  fastTwoSum(r_hi, s, s_hi, s_lo);
}
// x + {y_hi,y_lo}, assuming |x| >= |y_hi|
template <class T> void fastTwoSumFDW(T x, T y_hi, T y_lo, T& s_hi, T& s_lo) {
  T r_hi, r_lo;
  fastTwoSum(x, y_hi, r_hi, r_lo);
  const T s = add(y_lo, r_lo);
  fastTwoSum(r_hi, s, s_hi, s_lo);
}
// {x_hi,x_lo} * y
template <class T> void twoProdDWF(T x_hi, T x_lo, T y, T& p_hi, T& p_lo) {
  T c_hi, c_lo1;
  twoProd(x_hi, y, c_hi, c_lo1);
  const T c_lo2 = mul(x_lo, y);
  T t_hi, t_lo1;
  fastTwoSum(c_hi, c_lo2, t_hi, t_lo1);
  const T t_lo2 = add(t_lo1, c_lo1);
  fastTwoSum(t_hi, t_lo2, p_hi, p_lo);
}
// {x_hi,x_lo} * {y_hi,y_lo}
template <class T> void twoProdDW(T x_hi, T x_lo, T y_hi, T y_lo, T& p_hi, T& p_lo) {
  T hh, hl, lh, ll;
  twoProdDWF(x_hi, x_lo, y_hi, hh, hl);
  twoProdDWF(x_hi, x_lo, y_lo, lh, ll);
  fastTwoSumDW(hh, hl, lh, ll, p_hi, p_lo);
}
// {x_hi,x_lo} / y
template <class T> void dwDivF(T x_hi, T x_lo, T y, T& z_hi, T& z_lo) {
  const T t_hi = div(x_hi, y);
  T pi_hi, pi_lo;
  twoProd(t_hi, y, pi_hi, pi_lo);
  const T delta_hi = sub(x_hi, pi_hi);
  const T delta_t = sub(delta_hi, pi_lo);
  const T delta = add(delta_t, x_lo);
  const T t_lo = div(delta, y);
  fastTwoSum(t_hi, t_lo, z_hi, z_lo);
}

// accurate_log2<float>
void accurateLog2(float z, float& hi, float& lo) {
  constexpr double kC0 = 1.442695041742110273474963832995854318141937255859375e+00;
  constexpr float kC0_hi = static_cast<float>(kC0);
  constexpr float kC0_lo = static_cast<float>(kC0 - static_cast<double>(kC0_hi));
  constexpr double kC1 = -7.2134751588268664068692714863573201000690460205078125e-01;
  constexpr float kC1_hi = static_cast<float>(kC1);
  constexpr float kC1_lo = static_cast<float>(kC1 - static_cast<double>(kC1_hi));
  constexpr float c[] = {9.7010828554630279541015625e-02f,  -1.6896486282348632812500000e-01f,
                         1.7200836539268493652343750e-01f,  -1.7892272770404815673828125e-01f,
                         2.0505344867706298828125000e-01f,  -2.4046677350997924804687500e-01f,
                         2.8857553005218505859375000e-01f,  -3.6067414283752441406250000e-01f,
                         4.8089790344238281250000000e-01f};
  const float x = sub(z, 1.0f);
  float p = c[0];
  for (int i = 1; i <= 8; ++i) p = madd(p, x, c[i]);
  float p_hi, p_lo;
  twoProd(x, p, p_hi, p_lo);
  fastTwoSumDW(kC1_hi, kC1_lo, p_hi, p_lo, p_hi, p_lo);
  twoProdDWF(p_hi, p_lo, x, p_hi, p_lo);
  fastTwoSumDW(kC0_hi, kC0_lo, p_hi, p_lo, p_hi, p_lo);
  twoProdDWF(p_hi, p_lo, x, hi, lo);
}

// accurate_log2<double>
void accurateLog2(double x, double& hi, double& lo) {
  const double q12 = 2.87074255468000586e-9, q10 = 2.38957980901884082e-8, q8 = 2.31032094540014656e-7,
               q6 = 2.27279857398537278e-6, q4 = 2.31271023278625638e-5, q2 = 2.47556738444535513e-4,
               q0 = 2.88543873228900172e-3;
  const double C_hi = 0.0400377511598501157, C_lo = -4.77726582251425391e-19;
  const double c2l_hi = 2.88539008177792677, c2l_lo = 4.07660016854549667e-17;
  double t_hi, t_lo;
  twoProdDWF(c2l_hi, c2l_lo, sub(x, 1.0), t_hi, t_lo);
  double r_hi, r_lo;
  dwDivF(t_hi, t_lo, add(x, 1.0), r_hi, r_lo);
  double r2_hi, r2_lo;
  twoProdDW(r_hi, r_lo, r_hi, r_lo, r2_hi, r2_lo);
  double r4_hi, r4_lo;
  twoProdDW(r2_hi, r2_lo, r2_hi, r2_lo, r4_hi, r4_lo);
  double q_even = madd(q12, r4_hi, q8);
  double q_odd = madd(q10, r4_hi, q6);
  q_even = madd(q_even, r4_hi, q4);
  q_odd = madd(q_odd, r4_hi, q2);
  q_even = madd(q_even, r4_hi, q0);
  const double q = madd(q_odd, r2_hi, q_even);
  double p_hi, p_lo;
  twoProdDWF(r2_hi, r2_lo, q, p_hi, p_lo);
  double p1_hi, p1_lo;
  fastTwoSumDW(C_hi, C_lo, p_hi, p_lo, p1_hi, p1_lo);
  double p2_hi, p2_lo;
  twoProdDW(r2_hi, r2_lo, p1_hi, p1_lo, p2_hi, p2_lo);
  double p3_hi, p3_lo;
  fastTwoSumFDW(1.0, p2_hi, p2_lo, p3_hi, p3_lo);
  twoProdDW(p3_hi, p3_lo, r_hi, r_lo, hi, lo);
}

// generic_exp2
template <class T> T genericExp2(T x_in) {
  constexpr int max_exponent = std::numeric_limits<T>::max_exponent;
  constexpr int digits = std::numeric_limits<T>::digits;
  const T max_cap = T(max_exponent + 1);
  const T min_cap = -T(max_exponent + digits - 1);
  const T x = pmax(pmin(x_in, max_cap), min_cap);
  T p_hi, p_lo;
  twoProd(static_cast<T>(kLn2L), x, p_hi, p_lo);
  const T exp2_hi = pexp(p_hi);
  const T exp2_lo = add(T(1), p_lo);
  return mul(exp2_hi, exp2_lo);
}

// generic_pow_impl (x >= 0 expected, sign handled by caller)
template <class T> T genericPowImpl(T x, T y) {
  T e_x;
  T m_x = pfrexp(x, e_x);
  const T sqrt_half = T(0.70710678118654752440);
  const bool scale_mask = lt(m_x, sqrt_half);
  if (scale_mask) {
    m_x = mul(T(2), m_x);
    e_x = sub(e_x, T(1));
  }
  T rx_hi, rx_lo;
  accurateLog2(m_x, rx_hi, rx_lo);
  T f1_hi, f1_lo, f2_hi, f2_lo;
  twoProd(e_x, y, f1_hi, f1_lo);
  twoProdDWF(rx_hi, rx_lo, y, f2_hi, f2_lo);
  T f_hi, f_lo;
  fastTwoSumDW(f1_hi, f1_lo, f2_hi, f2_lo, f_hi, f_lo);
  T n_z = pround(f_hi);
  T r_z = sub(f_hi, n_z);
  r_z = add(r_z, f_lo);
  const T n_r = pround(r_z);
  r_z = sub(r_z, n_r);
  n_z = add(n_z, n_r);
  const T e_r = genericExp2(r_z);
  const T thresh = T(std::numeric_limits<T>::max_exponent - 2);
  if (lt(thresh, pabs(n_z))) return pldexpSafe(e_r, n_z);
  return pldexpFast(e_r, n_z);
}

// generic_pow (special-case handling as in Eigen)
template <class T> T genericPow(T x, T y) {
  const T inf = std::numeric_limits<T>::infinity();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T x_abs = pabs(x);
  T pow = genericPowImpl(x_abs, y);

  const bool x_is_negative = lt(x, T(0));
  const bool x_is_zero = eq(x, T(0));
  const bool x_is_one = eq(x, T(1));
  const bool x_has_signbit = signBit(x);
  const bool x_abs_gt_one = lt(T(1), x_abs);
  const bool x_abs_is_inf = eq(x_abs, inf);

  const T y_abs = pabs(y);
  const bool y_abs_is_inf = eq(y_abs, inf);
  const bool y_is_negative = lt(y, T(0));
  const bool y_is_zero = eq(y, T(0));
  const bool y_is_one = eq(y, T(1));
  const bool y_is_int = eq(pfloor(y), y) && !y_abs_is_inf;
  const T y_div_2 = mul(y, T(0.5));
  const bool y_is_even = eq(pround(y_div_2), y_div_2);
  const bool y_is_odd_int = y_is_int && !y_is_even;
  const T huge_exponent =
      (T(std::numeric_limits<T>::max_exponent) * static_cast<T>(kLn2L)) / std::numeric_limits<T>::epsilon();
  const bool y_abs_is_huge = le(huge_exponent, y_abs);

  if (x_is_negative && !y_is_int) pow = nan;
  if (x_is_zero) pow = y_is_negative ? inf : T(0);
  if (x_has_signbit && y_is_odd_int) pow = pnegate(pow);
  T inf_y_val = ((y_is_negative && x_is_zero) || (y_is_negative != x_abs_gt_one)) ? inf : T(0);
  if (eq(x, T(-1))) inf_y_val = T(1);
  if (y_abs_is_huge) pow = inf_y_val;
  const T x_pos_inf_value = y_is_negative ? T(0) : inf;
  const T x_neg_inf_value = y_is_odd_int ? pnegate(x_pos_inf_value) : x_pos_inf_value;
  if (x_abs_is_inf) pow = x_is_negative ? x_neg_inf_value : x_pos_inf_value;
  if (isNan(x) || isNan(y)) pow = nan;
  if (y_is_one) return x;
  if (x_is_one || y_is_zero) return T(1);
  return pow;
}


// --- Erf ----------------------------------------------------------------------

/// Eigen's ppolevl over a coefficient array, highest degree first.
template <class T, size_t N> T horner(T x, const T (&c)[N]) {
  T r = c[0];
  for (size_t i = 1; i < N; ++i)
    r = madd(r, x, c[i]);
  return r;
}

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
float powPacket(float X, float Y) { return genericPow(X, Y); }
double powPacket(double X, double Y) { return genericPow(X, Y); }
float powTail(float X, float Y) { return std::pow(X, Y); }
double powTail(double X, double Y) { return std::pow(X, Y); }
float erfFloat(float X) { return erfOfFloat(X); }
double erfPacket(double X) { return erfOfDouble(X, [](double V) { return pexp(V); }); }
double erfTail(double X) { return erfOfDouble(X, [](double V) { return std::exp(V); }); }
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
