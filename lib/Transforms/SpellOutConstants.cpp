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
#include "frost/IR/Model.h"
#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"
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
      if (!V || !V->has_tensor() || !hasSplatForm(V->tensor().dtype()) ||
          !V->tensor().tensor_content().empty())
        continue;
      std::vector<int64_t> Shape;
      for (const auto &D : V->tensor().tensor_shape().dim())
        Shape.push_back(D.size());
      absl::StatusOr<int64_t> Count = numElements(Shape);
      const int64_t Elem = static_cast<int64_t>(dataTypeSize(V->tensor().dtype()));
      if (Elem == 0 || (Count.ok() && *Count > *MaxBytes / Elem)) {
        ++NumTooLarge;
        continue;
      }
      std::string Where = absl::StrCat("node '", N.name().str(), "'");
      // Exactly one typed value per element: written out already.
      if (decodeTensorProto(V->tensor(), Where, /*Exact=*/true).ok())
        continue;
      absl::StatusOr<TensorData> Value = decodeTensorProto(V->tensor(), Where);
      if (!Value.ok())
        return Value.status();
      tensorflow::TensorProto New;
      FROST_RETURN_IF_ERROR(makeTensorProto(*Value, New));
      *N.attr("value").mutable_tensor() = std::move(New);
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
