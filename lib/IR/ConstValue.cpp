//===- ConstValue.cpp - Reading and writing a Const node's value ----------===//
#include "frost/IR/ConstValue.h"

#include "frost/Tensor/TensorProtoCodec.h"

#include "absl/strings/str_cat.h"

namespace frost {

absl::StatusOr<TensorData> tensorAttrValue(const Node &N, std::string_view Name) {
  std::string Where = absl::StrCat("node '", N.name().str(), "' (", N.op().str(), ")");
  const tensorflow::AttrValue *V = N.findAttr(Name);
  if (!V || !V->has_tensor())
    return absl::InvalidArgumentError(
        absl::StrCat(Where, ": no tensor attribute '", std::string(Name), "'"));
  const tensorflow::TensorProto &Proto = V->tensor();
  if (const ExternalContent *Ext = N.externalContent(Name)) {
    FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Shape, shapeFromProto(Proto.tensor_shape()));
    return TensorData::borrowed(Proto.dtype(), std::move(Shape), Ext->Bytes, Ext->Keeper);
  }
  return decodeTensorProto(Proto, Where);
}

absl::StatusOr<TensorData> constValue(const Node &N) { return tensorAttrValue(N, "value"); }

std::optional<uint64_t> decodedValueBytes(const Node &N) {
  const tensorflow::AttrValue *V = N.findAttr("value");
  if (!V || !V->has_tensor() || N.externalContent("value"))
    return std::nullopt;
  const tensorflow::TensorProto &P = V->tensor();
  size_t Width = dataTypeSize(P.dtype());
  if (!Width || !P.tensor_content().empty())
    return std::nullopt;
  uint64_t Elements = 1;
  for (const auto &D : P.tensor_shape().dim()) {
    if (D.size() < 0)
      return std::nullopt;
    if (__builtin_mul_overflow(Elements, static_cast<uint64_t>(D.size()), &Elements))
      return UINT64_MAX;
  }
  uint64_t Bytes;
  if (__builtin_mul_overflow(Elements, Width, &Bytes))
    return UINT64_MAX;
  return Bytes;
}

absl::Status setValueAttr(Node &N, const TensorData &T) {
  // Drops content held outside the attribute too.
  N.eraseAttr("value");
  if (makeTensorProtoUsesContent(T)) {
    N.setExternalTensorAttr("value", T.dtype(), T.shape(), {T.bytes(), T.keeper()});
    return absl::OkStatus();
  }
  tensorflow::TensorProto P;
  FROST_RETURN_IF_ERROR(makeTensorProto(T, P));
  *N.attr("value").mutable_tensor() = std::move(P);
  return absl::OkStatus();
}

absl::StatusOr<Node *> createConst(Graph &G, llvm::StringRef Name, const TensorData &T,
                                   llvm::StringRef Device) {
  Node *C = G.createNode(G.findNode(Name) ? G.uniqueName(Name) : Name.str(), "Const");
  C->setDevice(Device);
  C->attr("dtype").set_type(T.dtype());
  FROST_RETURN_IF_ERROR(setValueAttr(*C, T));
  return C;
}

} // namespace frost
