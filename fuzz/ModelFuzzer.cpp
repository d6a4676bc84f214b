//===- ModelFuzzer.cpp - libFuzzer target for binary model import ---------===//
//
// Input layout: byte 0 picks the file name the rest is read under, which
// decides the container the way users' file names do (bits 0-1: 0 graph.pb,
// detected by content; 1 model.meta; 2 saved_model.pb; 3 graph.pb again);
// bit 2 asks for no tags (a SavedModel's only meta graph) instead of
// {serve}. The rest is the file: parsed by parseModel (the node-streaming
// binary importers, container detection), verified, and round-tripped (see
// ModelChecks.h). Text is left to frost-fuzz-model-text.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"
#include "ModelChecks.h"

using namespace frost;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  fuzz::silenceProtobufLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 1)
    return 0;
  llvm::StringRef File = fuzz::bytes(Data + 1, Size - 1);
  if (detectEncoding(File) != Encoding::Binary)
    return -1; // keep text out of this corpus
  static const char *const Names[] = {"graph.pb", "model.meta", "saved_model.pb", "graph.pb"};
  ReadOptions Options;
  if (Data[0] & 4)
    Options.Tags.clear();
  fuzz::importVerifyRoundTrip(File, Names[Data[0] & 3], Options, Encoding::Binary);
  return 0;
}
