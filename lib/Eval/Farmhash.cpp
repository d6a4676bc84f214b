//===- Farmhash.cpp - FarmHash's Fingerprint64 ----------------------------===//
//
// farmhashna::Hash64: strings up to 16, 32 and 64 bytes are mixed in one
// step each; longer ones run through 64-byte blocks with 56 bytes of state.
// Words are read little-endian, whatever the host.
//
//===----------------------------------------------------------------------===//
#include "Farmhash.h"

#include "llvm/Support/Endian.h"

#include <bit>
#include <utility>

namespace frost::eval {

namespace {

constexpr uint64_t K0 = 0xc3a5c85c97cb3127ULL;
constexpr uint64_t K1 = 0xb492b66fbe98f273ULL;
constexpr uint64_t K2 = 0x9ae16a3b2f90404fULL;

uint64_t fetch64(const char *P) { return llvm::support::endian::read64le(P); }
uint64_t fetch32(const char *P) { return llvm::support::endian::read32le(P); }

uint64_t shiftMix(uint64_t V) { return V ^ (V >> 47); }

uint64_t hashLen16(uint64_t U, uint64_t V, uint64_t Mul) {
  uint64_t A = (U ^ V) * Mul;
  A ^= A >> 47;
  uint64_t B = (V ^ A) * Mul;
  B ^= B >> 47;
  return B * Mul;
}

uint64_t hashLen0to16(const char *S, size_t Len) {
  if (Len >= 8) {
    uint64_t Mul = K2 + Len * 2;
    uint64_t A = fetch64(S) + K2;
    uint64_t B = fetch64(S + Len - 8);
    uint64_t C = std::rotr(B, 37) * Mul + A;
    uint64_t D = (std::rotr(A, 25) + B) * Mul;
    return hashLen16(C, D, Mul);
  }
  if (Len >= 4) {
    uint64_t Mul = K2 + Len * 2;
    uint64_t A = fetch32(S);
    return hashLen16(Len + (A << 3), fetch32(S + Len - 4), Mul);
  }
  if (Len > 0) {
    uint8_t A = S[0], B = S[Len >> 1], C = S[Len - 1];
    uint32_t Y = uint32_t(A) + (uint32_t(B) << 8);
    uint32_t Z = uint32_t(Len) + (uint32_t(C) << 2);
    return shiftMix(Y * K2 ^ Z * K0) * K2;
  }
  return K2;
}

uint64_t hashLen17to32(const char *S, size_t Len) {
  uint64_t Mul = K2 + Len * 2;
  uint64_t A = fetch64(S) * K1;
  uint64_t B = fetch64(S + 8);
  uint64_t C = fetch64(S + Len - 8) * Mul;
  uint64_t D = fetch64(S + Len - 16) * K2;
  return hashLen16(std::rotr(A + B, 43) + std::rotr(C, 30) + D, A + std::rotr(B + K2, 18) + C, Mul);
}

uint64_t hashLen33to64(const char *S, size_t Len) {
  uint64_t Mul = K2 + Len * 2;
  uint64_t A = fetch64(S) * K2;
  uint64_t B = fetch64(S + 8);
  uint64_t C = fetch64(S + Len - 8) * Mul;
  uint64_t D = fetch64(S + Len - 16) * K2;
  uint64_t Y = std::rotr(A + B, 43) + std::rotr(C, 30) + D;
  uint64_t Z = hashLen16(Y, A + std::rotr(B + K2, 18) + C, Mul);
  uint64_t E = fetch64(S + 16) * Mul;
  uint64_t F = fetch64(S + 24);
  uint64_t G = (Y + fetch64(S + Len - 32)) * Mul;
  uint64_t H = (Z + fetch64(S + Len - 24)) * Mul;
  return hashLen16(std::rotr(E + F, 43) + std::rotr(G, 30) + H, E + std::rotr(F + A, 18) + G, Mul);
}

/// Two 64-bit values from 32 bytes at S and two seeds.
std::pair<uint64_t, uint64_t> weakHashLen32WithSeeds(const char *S, uint64_t A, uint64_t B) {
  uint64_t W = fetch64(S), X = fetch64(S + 8), Y = fetch64(S + 16), Z = fetch64(S + 24);
  A += W;
  B = std::rotr(B + A + Z, 21);
  uint64_t C = A;
  A += X;
  A += Y;
  B += std::rotr(A, 44);
  return {A + Z, B + C};
}

} // namespace

uint64_t fingerprint64(llvm::StringRef Str) {
  const char *S = Str.data();
  const size_t Len = Str.size();
  if (Len <= 16)
    return hashLen0to16(S, Len);
  if (Len <= 32)
    return hashLen17to32(S, Len);
  if (Len <= 64)
    return hashLen33to64(S, Len);

  const uint64_t Seed = 81;
  uint64_t X = Seed;
  uint64_t Y = Seed * K1 + 113;
  uint64_t Z = shiftMix(Y * K2 + 113) * K2;
  std::pair<uint64_t, uint64_t> V{0, 0}, W{0, 0};
  X = X * K2 + fetch64(S);
  // Whole blocks up to the last 1 to 64 bytes, which are hashed as the last
  // 64 bytes of the string.
  const char *End = S + ((Len - 1) / 64) * 64;
  const char *Last64 = S + Len - 64;
  do {
    X = std::rotr(X + Y + V.first + fetch64(S + 8), 37) * K1;
    Y = std::rotr(Y + V.second + fetch64(S + 48), 42) * K1;
    X ^= W.second;
    Y += V.first + fetch64(S + 40);
    Z = std::rotr(Z + W.first, 33) * K1;
    V = weakHashLen32WithSeeds(S, V.second * K1, X + W.first);
    W = weakHashLen32WithSeeds(S + 32, Z + W.second, Y + fetch64(S + 16));
    std::swap(Z, X);
    S += 64;
  } while (S != End);
  uint64_t Mul = K1 + ((Z & 0xff) << 1);
  S = Last64;
  W.first += ((Len - 1) & 63);
  V.first += W.first;
  W.first += V.first;
  X = std::rotr(X + Y + V.first + fetch64(S + 8), 37) * Mul;
  Y = std::rotr(Y + V.second + fetch64(S + 48), 42) * Mul;
  X ^= W.second * 9;
  Y += V.first * 9 + fetch64(S + 40);
  Z = std::rotr(Z + W.first, 33) * Mul;
  V = weakHashLen32WithSeeds(S, V.second * Mul, X + W.first);
  W = weakHashLen32WithSeeds(S + 32, Z + W.second, Y + fetch64(S + 16));
  std::swap(Z, X);
  return hashLen16(hashLen16(V.first, W.first, Mul) + shiftMix(Y) * K0 + Z,
                   hashLen16(V.second, W.second, Mul) + X, Mul);
}

} // namespace frost::eval
