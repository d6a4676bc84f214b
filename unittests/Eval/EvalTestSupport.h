//===- EvalTestSupport.h - Building tensors and reading results in tests --===//
#ifndef FROST_UNITTESTS_EVAL_EVALTESTSUPPORT_H
#define FROST_UNITTESTS_EVAL_EVALTESTSUPPORT_H

#include "frost/Eval/Eval.h"
#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"
#include "frost/Tensor/TensorProtoCodec.h"
#include "frost/proto/graph.pb.h"

#include "gtest/gtest.h"

#include <Eigen/Core>

#include <cstring>
#include <fstream>

namespace frost::eval::test {

template <typename T>
TensorData tensor(tensorflow::DataType DType, std::vector<int64_t> Shape, std::vector<T> Values) {
  std::string Bytes(Values.size() * sizeof(T), '\0');
  if (!Values.empty())
    std::memcpy(Bytes.data(), Values.data(), Bytes.size());
  return TensorData::owned(DType, std::move(Shape), std::move(Bytes));
}

inline tensorflow::AttrValue typeAttr(tensorflow::DataType T) {
  tensorflow::AttrValue V;
  V.set_type(T);
  return V;
}
inline tensorflow::AttrValue boolAttr(bool B) {
  tensorflow::AttrValue V;
  V.set_b(B);
  return V;
}
inline tensorflow::AttrValue intAttr(int64_t I) {
  tensorflow::AttrValue V;
  V.set_i(I);
  return V;
}
inline tensorflow::AttrValue floatAttr(float F) {
  tensorflow::AttrValue V;
  V.set_f(F);
  return V;
}
inline tensorflow::AttrValue stringAttr(const std::string &S) {
  tensorflow::AttrValue V;
  V.set_s(S);
  return V;
}
inline tensorflow::AttrValue intListAttr(const std::vector<int64_t> &List) {
  tensorflow::AttrValue V;
  for (int64_t I : List)
    V.mutable_list()->add_i(I);
  return V;
}

/// The case file at `Path`: a binary GraphDef, one node per case, written by
/// a scripts/compare_*_with_tf.py.
inline absl::StatusOr<tensorflow::GraphDef> readCaseFile(const char *Path) {
  std::ifstream File(Path, std::ios::binary);
  if (!File)
    return absl::NotFoundError(std::string("cannot open ") + Path);
  tensorflow::GraphDef Cases;
  if (!Cases.ParseFromIstream(&File))
    return absl::InvalidArgumentError(std::string(Path) + " is not a binary GraphDef");
  return Cases;
}

/// A case node's own attributes (not the `_inputs`, `_outputs`... of the
/// case file).
inline AttrMap caseAttrs(const tensorflow::NodeDef &Node) {
  AttrMap Attrs;
  for (const auto &[Name, Value] : Node.attr())
    if (Name.empty() || Name[0] != '_')
      Attrs.emplace(Name, Value);
  return Attrs;
}

/// The tensors of list attribute `Name` of a case node written by a
/// scripts/compare_*_with_tf.py (`_inputs`, `_outputs`), decoded.
inline std::vector<TensorData> tensorsOf(const tensorflow::NodeDef &Node,
                                         const std::string &Name) {
  std::vector<TensorData> Out;
  auto It = Node.attr().find(Name);
  if (It == Node.attr().end())
    return Out;
  for (const tensorflow::TensorProto &Proto : It->second.list().tensor()) {
    absl::StatusOr<TensorData> T = decodeTensorProto(Proto, Name);
    EXPECT_TRUE(T.ok()) << Node.name() << ": " << T.status();
    if (T.ok())
      Out.push_back(*T);
  }
  return Out;
}

/// Evaluates `Op` and returns its only output; fails the test on an error.
inline TensorData evalOne(llvm::StringRef Op, std::vector<TensorData> Inputs,
                          const AttrMap &Attrs = {}) {
  absl::StatusOr<std::vector<TensorData>> Out = evaluate(Op, Inputs, Attrs);
  EXPECT_TRUE(Out.ok()) << Out.status();
  if (!Out.ok() || Out->size() != 1)
    return TensorData();
  return (*Out)[0];
}

/// The status of evaluating `Op` (for error cases).
inline absl::Status evalStatus(llvm::StringRef Op, std::vector<TensorData> Inputs,
                               const AttrMap &Attrs = {}) {
  return evaluate(Op, Inputs, Attrs).status();
}

/// "float[2,3]": a tensor's dtype and shape, for failure messages.
inline std::string describe(const TensorData &T) {
  return dataTypeName(T.dtype()) + formatShape(T.shape());
}

/// Element I of a real-number tensor (floats, signed integers, uint8) as a
/// double; false for other dtypes.
inline bool elementAsDouble(const TensorData &T, int64_t I, double &V) {
  switch (T.dtype()) {
  case tensorflow::DT_FLOAT:
  case tensorflow::DT_DOUBLE:
  case tensorflow::DT_HALF:
  case tensorflow::DT_BFLOAT16:
  case tensorflow::DT_INT8:
  case tensorflow::DT_UINT8:
  case tensorflow::DT_INT16:
  case tensorflow::DT_INT32:
  case tensorflow::DT_INT64: {
    long double Imag;
    V = static_cast<double>(*elementAsNumber(T, I, Imag));
    return true;
  }
  default:
    return false;
  }
}

} // namespace frost::eval::test

#endif // FROST_UNITTESTS_EVAL_EVALTESTSUPPORT_H
