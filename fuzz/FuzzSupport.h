//===- FuzzSupport.h - What every Frost fuzzer needs ------------*- C++ -*-===//
#ifndef FROST_FUZZ_FUZZSUPPORT_H
#define FROST_FUZZ_FUZZSUPPORT_H

#include "frost/Pass/PassManager.h"
#include "frost/Transforms/Passes.h"

#include "google/protobuf/stubs/logging.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace frost::fuzz {

/// Mutated names are often invalid UTF-8, which protobuf logs on every parse
/// (a flood, not a finding); call from LLVMFuzzerInitialize.
inline void silenceProtobufLogs() { google::protobuf::SetLogHandler(nullptr); }

inline llvm::StringRef bytes(const uint8_t *Data, size_t Size) {
  return llvm::StringRef(reinterpret_cast<const char *>(Data), Size);
}

/// A broken invariant: report it and crash so libFuzzer keeps the input.
[[noreturn]] inline void invariantBroken(llvm::StringRef What, llvm::StringRef Detail = "") {
  std::fprintf(stderr, "frost fuzzer: %.*s\n%.*s\n", static_cast<int>(What.size()), What.data(),
               static_cast<int>(Detail.size()), Detail.data());
  std::abort();
}

/// Every pass, registered once for the whole run.
inline const PassRegistry &passRegistry() {
  static const PassRegistry Registry = [] {
    PassRegistry R;
    registerAllPasses(R);
    return R;
  }();
  return Registry;
}

} // namespace frost::fuzz

#endif // FROST_FUZZ_FUZZSUPPORT_H
