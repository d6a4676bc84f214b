//===- InstantiateSignature.cpp - A TF2 signature's function as the graph -===//
//
// What tf.saved_model.load(...).signatures[NAME] is to TensorFlow: the graph
// becomes the signature's function, one Placeholder per input (named after
// the argument) and the body's nodes; captured variables become VarHandleOps
// with their checkpoint keys from the object graph, for
// convert-variables-to-constants. See frost/Transforms/Utils/SignatureInstantiation.h.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/Utils/SignatureInstantiation.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {

class InstantiateSignaturePass : public Pass {
public:
  InstantiateSignaturePass() = default;
  explicit InstantiateSignaturePass(const InstantiateSignatureOptions &O) {
    Signature.set(O.Signature);
    Checkpoint.set(O.Checkpoint);
  }

private:
  Option<std::string> Signature{*this, "signature", "The signature to instantiate",
                                "serving_default"};
  Option<std::string> Checkpoint{
      *this, "checkpoint",
      "Where captured variables live (default: the SavedModel's variables/variables)"};

  absl::Status run(Model &M, PassContext &Ctx) override {
    std::string Prefix = *Checkpoint;
    if (Prefix.empty() && M.kind() == ContainerKind::SavedModel)
      Prefix = savedModelVariables(M.sourcePath());
    std::vector<std::string> Notes;
    absl::Status S = instantiateSignature(M, *Signature, Prefix, Ctx.analyses(), Notes);
    for (const std::string &N : Notes)
      Ctx.note(name(), N);
    return S;
  }
};

} // namespace

std::unique_ptr<Pass> createInstantiateSignaturePass() {
  return std::make_unique<InstantiateSignaturePass>();
}

std::unique_ptr<Pass> createInstantiateSignaturePass(const InstantiateSignatureOptions &Options) {
  return makeNamedPass<InstantiateSignaturePass>(PassName::createInstantiateSignaturePass, Options);
}

} // namespace frost
