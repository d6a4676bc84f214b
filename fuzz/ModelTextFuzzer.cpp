//===- ModelTextFuzzer.cpp - libFuzzer target for .pbtxt model import -----===//
//
// Input: a whole .pbtxt file, GraphDef, MetaGraphDef or SavedModel (told
// apart by its first field, as for users' files). Parsed by parseModel with
// node locations, verified, and round-tripped (see ModelChecks.h). Inputs
// that look binary are left to frost-fuzz-model. model-text.dict holds the
// field names.
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
  llvm::StringRef File = fuzz::bytes(Data, Size);
  if (detectEncoding(File) != Encoding::Text)
    return -1; // keep binary out of this corpus
  fuzz::importVerifyRoundTrip(File, "model.pbtxt", ReadOptions(), Encoding::Text);
  return 0;
}
