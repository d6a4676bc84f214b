//===- PacketArithmetic.h - Eigen's packet steps, one element at a time ---===//
//
// The steps Eigen's AVX packet math is made of, as TensorFlow's x86 kernels
// run them (no FMA: a multiply-add is a multiply and an add; denormals
// flushed, FTZ and DAZ): arithmetic, compares, min/max, floor and round,
// ldexp and frexp, double-word arithmetic, and pexp and plog, on which the
// rest is built (TensorFlowMath.cpp, TensorFlowPow.cpp). Flushing is
// modelled on every arithmetic step, compare, min/max and floor, since a
// library floor or a bit trick would not see the processor's mode; bitwise
// steps (abs, negate, select) never flush, as on the processor.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_EVAL_PACKETARITHMETIC_H
#define FROST_LIB_EVAL_PACKETARITHMETIC_H

#include "TensorFlowMath.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace frost::eval::tfmath::packet {

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
inline int32_t cvttF2I(float x) {
  x = daz(x);
  if (!(x > -2147483904.0f && x < 2147483648.0f)) return INT32_MIN;
  return static_cast<int32_t>(x);
}
// cvtpd2dq: round to nearest even; NaN / out of range -> INT32_MIN.
inline int32_t cvtD2I(double x) {
  x = daz(x);
  if (!(x > -2147483648.5 && x < 2147483647.5)) return INT32_MIN;
  return static_cast<int32_t>(std::nearbyint(x));
}
inline int32_t wrapAdd(int32_t a, int32_t b) { return int32_t(uint32_t(a) + uint32_t(b)); }
inline int32_t wrapSub(int32_t a, int32_t b) { return int32_t(uint32_t(a) - uint32_t(b)); }
inline int32_t wrapMul(int32_t a, int32_t b) { return int32_t(uint32_t(a) * uint32_t(b)); }
inline int32_t sar2(int32_t a) { return a >> 2; }  // arithmetic shift (g++ semantics)

// 2^e built from integer bits.
inline float floatFromBiasedExp(int32_t biased) { return fromBits<float>(uint32_t(biased) << 23); }
// AVX Packet4d path: the 32-bit biased exponent is shifted into a 64-bit lane
// with _mm_slli_epi64(…, 52): only its low 12 bits survive.
inline double doubleFromBiasedExp(int32_t biased) {
  return fromBits<double>((uint64_t(uint32_t(biased)) & 0xfffu) << 52);
}

// ---------------------------------------------------------------------------
// pldexp variants
// ---------------------------------------------------------------------------
// float: generic pldexp_fast.
inline float pldexpFast(float a, float exponent) {
  const float e_f = pmin(pmax(add(exponent, 127.0f), 0.0f), 255.0f);
  return mul(a, floatFromBiasedExp(cvttF2I(e_f)));
}
// float: pldexp_generic (4-factor split, clamp +-278, truncating cast).
inline float pldexpSafe(float a, float exponent) {
  const int32_t e = cvttF2I(pmin(pmax(exponent, -278.0f), 278.0f));
  int32_t b = sar2(e);
  float c = floatFromBiasedExp(wrapAdd(b, 127));
  float out = mul(mul(mul(a, c), c), c);
  b = wrapSub(e, wrapMul(3, b));
  c = floatFromBiasedExp(wrapAdd(b, 127));
  return mul(out, c);
}
// double: AVX pldexp_fast<Packet4d> (clamp [-1023, 1024], round-to-nearest cast).
inline double pldexpFast(double a, double exponent) {
  const int32_t e = cvtD2I(pmin(pmax(exponent, -1023.0), 1024.0));
  return mul(a, doubleFromBiasedExp(wrapAdd(e, 1023)));
}
// double: AVX pldexp<Packet4d> (clamp +-2099).
inline double pldexpSafe(double a, double exponent) {
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
inline float pexp(float x_in) {
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

inline double pexp(double x_in) {
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
inline float plog(float x_in) {
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

inline double plog(double x_in) {
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

/// Eigen's ppolevl over a coefficient array, highest degree first.
template <class T, size_t N> T horner(T x, const T (&c)[N]) {
  T r = c[0];
  for (size_t i = 1; i < N; ++i)
    r = madd(r, x, c[i]);
  return r;
}
} // namespace frost::eval::tfmath::packet

#endif // FROST_LIB_EVAL_PACKETARITHMETIC_H
