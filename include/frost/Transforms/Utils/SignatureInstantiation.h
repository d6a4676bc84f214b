//===- SignatureInstantiation.h - TF2 signatures as graphs ------*- C++ -*-===//
//
// In a TF2 SavedModel (tf.saved_model.save, Keras export) a signature's
// outputs are outputs of a (Stateful)PartitionedCall of a library function;
// the computation is in that function, and the variables it reads are its
// last arguments, captured from VarHandleOps whose checkpoint keys come from
// the object graphs. convert_variables_to_constants_v2 freezes the function
// as TensorFlow instantiates it: a graph with a Placeholder per argument
// (named after it) and the body's nodes, outputs `Identity`, `Identity_1`, ...
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TRANSFORMS_UTILS_SIGNATUREINSTANTIATION_H
#define FROST_TRANSFORMS_UTILS_SIGNATUREINSTANTIATION_H

#include "frost/Support/Status.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>
#include <vector>

namespace frost {

class AnalysisManager;
class Model;

/// `variables/variables` of the SavedModel at `Path` (its directory or its
/// saved_model.pb), or "" when it has no variables.
std::string savedModelVariables(llvm::StringRef Path);

/// `<dir>/assets/<Filename>`: where TensorFlow's loaders find asset
/// `Filename` of the SavedModel at `Path` (its directory or its
/// saved_model.pb). InvalidArgument for a name that leaves `assets/`
/// (absolute, or with a `..` part).
absl::StatusOr<std::string> savedModelAssetPath(llvm::StringRef Path, llvm::StringRef Filename);

/// The function a signature's outputs come from, or "" when they are plain
/// graph tensors (TF1 signatures) or the signature does not exist.
std::string signatureFunction(const Model &M, llvm::StringRef Signature);

/// Whether signatures `A` and `B` compute the same: the same input and output
/// keys, dtypes and shapes, calls taking the same captured inputs, of
/// functions equal but for their names and argument attributes. Keras 3's
/// export() serves one function as `serve` and `serving_default` through two
/// such wrappers.
bool signaturesComputeAlike(const Model &M, llvm::StringRef A, llvm::StringRef B);

/// The names of the graph instantiateSignature would make for `Signature`,
/// found without reading a checkpoint: each output key with its tensor
/// ("probs" -> "Identity_1:0"), and the nodes (an argument's, a body node's;
/// not those built for a captured lookup table).
struct SignatureGraphNames {
  /// Sorted by key.
  std::vector<std::pair<std::string, std::string>> Outputs;
  std::vector<std::string> Nodes;
};

/// SignatureGraphNames of `Signature`; an error when it is no function's
/// signature or its body cannot be copied.
absl::StatusOr<SignatureGraphNames> signatureGraphNames(const Model &M,
                                                        llvm::StringRef Signature);

/// Replaces M's graph by signature `Signature`'s function instantiated as
/// TensorFlow does for convert_variables_to_constants_v2. Captured variables
/// become VarHandleOps named after their arguments, whose checkpoint keys in
/// `Checkpoint` (the SavedModel's variables/variables; may be empty when
/// nothing is captured; opened through `Analyses`, so the passes after share
/// it) are recorded in M.variableSources(); captured constants are copied.
/// A captured tf.lookup table is built with its initializer; an asset that
/// initializer captures becomes a string Const holding the asset's path
/// (savedModelAssetPath), bound to the asset by the new meta graph's
/// asset_file_def as TensorFlow's loader binds it. The nodes made for
/// captures are recorded in M.capturedInputs() (TensorFlow has Placeholders
/// there). The container becomes a MetaGraph with this one signature, naming
/// the new graph's tensors. `Notes` hears what was done.
absl::Status instantiateSignature(Model &M, llvm::StringRef Signature,
                                  llvm::StringRef Checkpoint, AnalysisManager &Analyses,
                                  std::vector<std::string> &Notes);

} // namespace frost

#endif // FROST_TRANSFORMS_UTILS_SIGNATUREINSTANTIATION_H
