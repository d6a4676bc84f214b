//===- EvalTestSupport.h - Building tensors and reading results in tests --===//
#ifndef FROST_UNITTESTS_EVAL_EVALTESTSUPPORT_H
#define FROST_UNITTESTS_EVAL_EVALTESTSUPPORT_H

#include "frost/Eval/Eval.h"
#include "frost/Tensor/DataType.h"

#include "gtest/gtest.h"

#include <cstring>

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

} // namespace frost::eval::test

#endif // FROST_UNITTESTS_EVAL_EVALTESTSUPPORT_H
