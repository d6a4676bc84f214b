//===- ModelChecks.h - Import, verify and round-trip a model ----*- C++ -*-===//
//
// Shared by the binary and text model fuzzers: what frost-opt does with an
// input before any pass (parseModel, verifyGraph), both writers, and the
// promise that a model Frost read is written canonically: writing it in the
// input's encoding, reading that back and writing again gives the same
// bytes. The round trip stays in the input's encoding because a binary
// GraphDef is told from a MetaGraphDef by content, which a .pbtxt need not
// match (/work/fuzz-findings/model-text-1, issue #12).
//
//===----------------------------------------------------------------------===//
#ifndef FROST_FUZZ_MODELCHECKS_H
#define FROST_FUZZ_MODELCHECKS_H

#include "FuzzSupport.h"

#include "frost/IO/GraphIO.h"
#include "frost/Support/Context.h"
#include "frost/IR/Verifier.h"

#include "llvm/ADT/StringExtras.h"

namespace frost::fuzz {

inline absl::StatusOr<std::string> write(const Model &M, Encoding Enc) {
  if (Enc == Encoding::Text)
    return printModelText(M);
  Context Ctx;
  return serializeModel(Ctx, M);
}

/// Whether protobuf text holds a field printed by number (an unknown field).
inline bool hasNumberedField(llvm::StringRef Text) {
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    if (llvm::StringRef T = Line.ltrim(); !T.empty() && llvm::isDigit(T[0]))
      return true;
    Text = Rest;
  }
  return false;
}

inline void importVerifyRoundTrip(llvm::StringRef Bytes, llvm::StringRef FileName,
                                  const ReadOptions &Options, Encoding Enc) {
  absl::StatusOr<std::unique_ptr<Model>> M = parseModel(Bytes, FileName, Options);
  if (!M.ok())
    return;
  (void)verifyGraph((*M)->graph());
  (void)write(**M, Enc == Encoding::Text ? Encoding::Binary : Encoding::Text);
  absl::StatusOr<std::string> Written = write(**M, Enc);
  // Beyond the size limit; or a model of defaults only, written as no bytes,
  // which readers refuse as an empty file.
  if (!Written.ok() || Written->empty())
    return;
  // Protobuf prints unknown fields in text by number ("13: 5") and cannot
  // parse them back: text carries no unknown fields (a binary input read as
  // such may hold them).
  if (Enc == Encoding::Text && hasNumberedField(*Written))
    return;
  // Read back under the name its container is written with, as real files
  // are (.meta, saved_model.pb): a nameless binary file is told apart by
  // content only, and a MetaGraphDef of odd fields can look like a GraphDef.
  llvm::StringRef Named = (*M)->kind() == ContainerKind::MetaGraph    ? "model.meta"
                          : (*M)->kind() == ContainerKind::SavedModel ? "saved_model.pb"
                                                                      : FileName;
  absl::StatusOr<std::unique_ptr<Model>> Again = parseModel(*Written, Named, Options);
  if (!Again.ok())
    invariantBroken("Frost cannot read back the model it wrote",
                    std::string(Again.status().message()));
  absl::StatusOr<std::string> Rewritten = write(**Again, Enc);
  if (!Rewritten.ok() || *Rewritten != *Written)
    invariantBroken("writing a model read back from Frost's own output changes it");
}

} // namespace frost::fuzz

#endif // FROST_FUZZ_MODELCHECKS_H
