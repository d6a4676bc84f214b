//===- Farmhash.h - FarmHash's Fingerprint64 --------------------*- C++ -*-===//
//
// The 64-bit fingerprint TensorFlow's StringToHashBucketFast and Fingerprint
// use: FarmHash's Fingerprint64 (farmhashna's Hash64, the CityHash-derived
// function whose value FarmHash promises never to change). No Debian package
// ships FarmHash, so it is written here from the published algorithm.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_EVAL_FARMHASH_H
#define FROST_LIB_EVAL_FARMHASH_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace frost::eval {

uint64_t fingerprint64(llvm::StringRef S);

} // namespace frost::eval

#endif // FROST_LIB_EVAL_FARMHASH_H
