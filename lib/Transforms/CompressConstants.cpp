//===- CompressConstants.cpp - Const values as Grappler rewrites them -----===//
//
// convert_variables_to_constants_v2 runs Grappler over the function's graph
// before it converts the variables, and Grappler's output re-encodes every
// numeric Const value (observed in TensorFlow 2.21, test/Transforms/
// compress-constants.pbtxt): a tensor whose elements are all the same is one
// value in its typed field (`float_val: 3`), or no value at all when that
// element is all zero bits; any other tensor is raw `tensor_content`. The
// values do not change, only their spelling, so the frozen graph equals
// TensorFlow's byte for byte. String and other dtypes are left alone. A
// constant the signature captures (a Keras Normalization's mean) is a
// Placeholder to Grappler; TensorFlow writes its value afterwards, as
// make_tensor_proto spells it, and so does this pass.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/ConstValue.h"
#include "frost/IR/Model.h"
#include "frost/Tensor/TensorProtoCodec.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"

#include <optional>

namespace frost {

namespace {

class CompressConstantsPass : public Pass {
  Statistic NumRewritten{*this, "constants-rewritten", "Const values spelled differently"};

  absl::Status run(Model &M, PassContext &) override {
    for (Node &N : M.graph()) {
      if (N.op() != "Const" || N.externalContent("value"))
        continue; // frozen weights are written later, as make_tensor_proto does
      const tensorflow::AttrValue *V = N.findAttr("value");
      if (!V || !V->has_tensor() || !hasSplatForm(V->tensor().dtype()))
        continue;
      const tensorflow::TensorProto &Old = V->tensor();
      if (M.capturedInputs().contains(N.name())) {
        std::string Before = Old.SerializeAsString();
        FROST_ASSIGN_OR_RETURN(TensorData Value, constValue(N));
        FROST_RETURN_IF_ERROR(setValueAttr(N, Value));
        NumRewritten += N.findAttr("value")->tensor().SerializeAsString() != Before;
        continue;
      }
      // Raw elements: a well-formed tensor_content as it is (no copy), else
      // decoded (which reports a malformed tensor).
      size_t Elem = dataTypeSize(Old.dtype());
      std::vector<int64_t> Shape;
      for (const auto &D : Old.tensor_shape().dim())
        Shape.push_back(D.size());
      absl::StatusOr<int64_t> Count = numElements(Shape);
      std::optional<TensorData> Decoded;
      llvm::StringRef Bytes = Old.tensor_content();
      if (Bytes.empty() || !Count.ok() || Bytes.size() != static_cast<uint64_t>(*Count) * Elem) {
        absl::StatusOr<TensorData> Value =
            decodeTensorProto(Old, absl::StrCat("node '", N.name().str(), "'"));
        if (!Value.ok())
          return Value.status();
        Decoded = *std::move(Value);
        Bytes = Decoded->bytes();
      }
      if (Bytes.empty())
        continue; // no elements
      bool Splat = true;
      for (size_t Off = Elem; Splat && Off < Bytes.size(); Off += Elem)
        Splat = Bytes.substr(Off, Elem) == Bytes.substr(0, Elem);
      if (!Splat && !Old.tensor_content().empty())
        continue; // already raw content
      tensorflow::TensorProto New;
      New.set_dtype(Old.dtype());
      *New.mutable_tensor_shape() = Old.tensor_shape();
      if (!Splat)
        New.set_tensor_content(Bytes.str());
      else
        appendSplatValue(Old.dtype(), Bytes.substr(0, Elem), New);
      // A typed field spelling the splat already (small: compare the bytes).
      if (Old.tensor_content().empty() && New.SerializeAsString() == Old.SerializeAsString())
        continue;
      *N.attr("value").mutable_tensor() = std::move(New);
      ++NumRewritten;
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createCompressConstantsPass() {
  return std::make_unique<CompressConstantsPass>();
}

} // namespace frost
