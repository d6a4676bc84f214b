//===- TensorFlowPow.cpp - Eigen's generic_pow, one element at a time ----===//
//
// TensorFlow's Pow in its AVX packets: x^y as exp2(y * log2(x)) with log2
// in double-word arithmetic (accurate_log2) and Eigen's special cases; glibc's
// pow in the scalar tail. Verified bit-exact against TensorFlow 2.21 (float
// and double, negative bases, integer and huge exponents, infinities, NaN).
//
//===----------------------------------------------------------------------===//
#include "PacketArithmetic.h"

namespace frost::eval::tfmath {

namespace packet {
namespace {

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

} // namespace
} // namespace packet

using namespace packet;

float powPacket(float X, float Y) { return genericPow(X, Y); }
double powPacket(double X, double Y) { return genericPow(X, Y); }
float powTail(float X, float Y) { return std::pow(X, Y); }
double powTail(double X, double Y) { return std::pow(X, Y); }

} // namespace frost::eval::tfmath
