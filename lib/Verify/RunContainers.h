//===- RunContainers.h - TensorLists and TensorArrays of one run -*- C++ -*-===//
//
// The graph runner's TensorList ops (TF2 while loops, Keras RNNs) and
// TensorArrayV3 ops (TF1 dynamic_rnn, seq2seq decoders). Their values are no
// tensors a kernel could read: a list travels as a scalar DT_VARIANT whose
// element names an entry of this store, a TensorArray's handle as a scalar
// DT_RESOURCE. Lists are values (setting an item makes a new list, as
// TensorFlow's copy-on-write does); TensorArrays are state (writes change
// the array every holder of the handle sees), as in TensorFlow.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_VERIFY_RUNCONTAINERS_H
#define FROST_LIB_VERIFY_RUNCONTAINERS_H

#include "frost/Eval/Eval.h"
#include "frost/IR/Graph.h"
#include "frost/Support/Status.h"
#include "frost/Tensor/Tensor.h"

#include <optional>
#include <vector>

namespace frost::verify {

class RunContainers {
public:
  /// Whether `Op` is a TensorList or TensorArray op this store runs.
  static bool runs(llvm::StringRef Op);

  /// Runs `N` (an op runs() accepts) on its data inputs. Errors say what
  /// TensorFlow's kernel would refuse (an index out of range, an item of
  /// another shape); copies are charged to `Budget`.
  absl::StatusOr<std::vector<TensorData>> run(const Node &N, std::vector<TensorData> Inputs,
                                              eval::EvalBudget &Budget);

private:
  struct Container {
    tensorflow::DataType ElementDType = tensorflow::DT_INVALID;
    /// The element shape known so far; nullopt: unknown rank; -1: an
    /// unknown dimension.
    std::optional<std::vector<int64_t>> ElementShape;
    /// Unset: an item not written yet.
    std::vector<std::optional<TensorData>> Items;
    /// TensorArray: may grow on a write past its end.
    bool DynamicSize = false;
    /// TensorArray: a read clears the item (clear_after_read); reading it
    /// again is an error, as in TensorFlow.
    bool ClearAfterRead = false;
    std::vector<bool> Cleared;
  };

  absl::StatusOr<std::vector<TensorData>> runList(const Node &N, std::vector<TensorData> &In,
                                                  eval::EvalBudget &Budget);
  absl::StatusOr<std::vector<TensorData>> concatList(const Node &N, const Container &L,
                                                     std::vector<TensorData> &In,
                                                     eval::EvalBudget &Budget);
  absl::StatusOr<std::vector<TensorData>> splitList(std::vector<TensorData> &In,
                                                    eval::EvalBudget &Budget);
  absl::StatusOr<std::vector<TensorData>> runArray(const Node &N, std::vector<TensorData> &In,
                                                   eval::EvalBudget &Budget);

  TensorData newList(Container C);
  absl::StatusOr<const Container *> list(const TensorData &Handle) const;
  absl::StatusOr<Container *> array(const TensorData &Handle);

  std::vector<Container> Lists;
  std::vector<Container> Arrays;
};

} // namespace frost::verify

#endif // FROST_LIB_VERIFY_RUNCONTAINERS_H
