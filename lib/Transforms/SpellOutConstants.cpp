//===- SpellOutConstants.cpp - Every element of a Const value written -----===//
//
// TensorFlow's shortest spellings of a Const value leave elements implicit:
// no value at all when every element is zero, one value for a repeated one
// (Grappler writes them so; SavedModels hold them). TensorFlow reads them
// back, but importers that read the elements do not: OpenCV's dnn asserts on
// a float Const with neither tensor_content nor float_val (an EfficientNet's
// zero strides and means) and takes a one-value bias for a one-channel one.
// This pass writes such values out as make_tensor_proto does (tensor_content
// for more than one element, the typed field for one). The values do not
// change. Strings, values written out already, and values that would take
// more than max-bytes written out (a declared giant splat) are left alone.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/ConstValue.h"
#include "frost/IR/Model.h"
#include "frost/Tensor/TensorProtoCodec.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {

class SpellOutConstantsPass : public Pass {
  Option<int64_t> MaxBytes{*this, "max-bytes",
                           "Largest value, in bytes, written out (fold-constants' "
                           "max-constant-size)",
                           10 * 1024 * 1024};
  Statistic NumRewritten{*this, "constants-spelled-out", "Const values written out in full"};
  Statistic NumTooLarge{*this, "left-compact-too-large",
                        "Const values left compact: larger than max-bytes written out"};

  absl::Status validateOptions() const override {
    if (*MaxBytes < 0)
      return absl::InvalidArgumentError(
          absl::StrCat("max-bytes=", *MaxBytes, ": must not be negative"));
    return absl::OkStatus();
  }

  absl::Status run(Model &M, PassContext &) override {
    for (Node &N : M.graph()) {
      if (N.op() != "Const" || N.externalContent("value"))
        continue; // frozen weights are written as make_tensor_proto does
      const tensorflow::AttrValue *V = N.findAttr("value");
      // Only the typed field's spellings (not tensor_content, not strings).
      std::optional<uint64_t> Bytes = decodedValueBytes(N);
      if (!V || !V->has_tensor() || !Bytes || !hasSplatForm(V->tensor().dtype()))
        continue;
      // Exactly one typed value per element: written out already.
      if (decodeTensorProto(V->tensor(), "", /*Exact=*/true).ok())
        continue;
      if (*Bytes > static_cast<uint64_t>(*MaxBytes)) {
        ++NumTooLarge;
        continue;
      }
      FROST_ASSIGN_OR_RETURN(TensorData Value, constValue(N));
      FROST_RETURN_IF_ERROR(setValueAttr(N, Value));
      ++NumRewritten;
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createSpellOutConstantsPass() {
  return std::make_unique<SpellOutConstantsPass>();
}

} // namespace frost
