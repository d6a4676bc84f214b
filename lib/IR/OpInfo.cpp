//===- OpInfo.cpp - What Frost knows about ops without a registry ---------===//
#include "frost/IR/OpInfo.h"

#include "frost/IR/Graph.h"

#include "llvm/ADT/StringMap.h"

#include <initializer_list>

namespace frost {

namespace {

/// Length of a list attribute (`type` list or `i` list etc.), if present.
std::optional<int> listAttrLength(const Node &N, std::string_view Name) {
  const tensorflow::AttrValue *A = N.findAttr(Name);
  if (!A || !A->has_list())
    return std::nullopt;
  const auto &L = A->list();
  return L.type_size() + L.shape_size() + L.s_size() + L.i_size() + L.f_size() + L.b_size() +
         L.tensor_size() + L.func_size();
}

std::optional<int> intAttr(const Node &N, std::string_view Name) {
  const tensorflow::AttrValue *A = N.findAttr(Name);
  if (!A || A->value_case() != tensorflow::AttrValue::kI || A->i() < 0 || A->i() > (1 << 20))
    return std::nullopt;
  return static_cast<int>(A->i());
}

/// Outputs of a call to a library function with plain (single-tensor) results.
std::optional<int> functionOutputs(const Node &N) {
  for (const tensorflow::FunctionDef &F : N.graph().library().function()) {
    if (F.signature().name() != N.op())
      continue;
    for (const tensorflow::OpDef::ArgDef &Arg : F.signature().output_arg())
      if (!Arg.number_attr().empty() || !Arg.type_list_attr().empty())
        return std::nullopt;
    return F.signature().output_arg_size();
  }
  return std::nullopt;
}

/// Ops with a fixed number of outputs.
const llvm::StringMap<int> &fixedOutputCounts() {
  static const llvm::StringMap<int> Table = [] {
    llvm::StringMap<int> T;
    auto add = [&](int Count, std::initializer_list<const char *> Ops) {
      for (const char *Op : Ops)
        T[Op] = Count;
    };
    // No outputs.
    add(0, {
      "NoOp", "Assert", "SaveV2", "Save", "SaveSlices", "AssignVariableOp",
      "AssignAddVariableOp", "AssignSubVariableOp", "DestroyResourceOp", "InitializeTableV2",
      "InitializeTableFromTextFileV2", "PrintV2", "MergeV2Checkpoints"});
    // One output: the common inference and training ops.
    add(1, {
      "Const", "Placeholder", "PlaceholderWithDefault", "Identity", "StopGradient",
      "PreventGradient", "VariableV2", "Variable", "VarHandleOp", "ReadVariableOp",
      "TemporaryVariable", "Assign", "AssignAdd", "AssignSub", "IsVariableInitialized",
      "VarIsInitializedOp", "Add", "AddV2", "AddN", "Sub", "Mul", "Div", "RealDiv", "FloorDiv",
      "Maximum", "Minimum", "Pow", "SquaredDifference", "Neg", "Abs", "Sqrt", "Rsqrt",
      "Square", "Exp", "Log", "MatMul", "BatchMatMul", "BatchMatMulV2", "BatchMatMulV3",
      "BiasAdd", "Conv2D", "DepthwiseConv2dNative", "Conv2DBackpropInput", "MaxPool",
      "AvgPool", "Relu", "Relu6", "Elu", "Selu", "LeakyRelu", "Sigmoid", "Tanh", "Softmax",
      "LogSoftmax", "Softplus", "Reshape", "Squeeze", "ExpandDims", "Transpose", "Shape",
      "Size", "Rank", "ConcatV2", "Concat", "Pack", "Slice", "StridedSlice", "Pad", "PadV2",
      "Fill", "ZerosLike", "OnesLike", "Cast", "Tile", "Range", "Sum", "Mean", "Max", "Min",
      "Prod", "ArgMax", "ArgMin", "Equal", "NotEqual", "Less", "LessEqual", "Greater",
      "GreaterEqual", "LogicalAnd", "LogicalOr", "LogicalNot", "Select", "SelectV2",
      "GatherV2", "Gather", "GatherNd", "ResourceGather", "ResourceGatherNd", "Enter",
      "RefEnter", "Exit", "RefExit", "NextIteration", "RefNextIteration", "LoopCond",
      "RandomUniform", "RandomStandardNormal", "TruncatedNormal", "ApplyGradientDescent",
      "ApplyMomentum", "ApplyAdam", "ShardedFilename", "StringJoin", "Print", "Dequantize",
      // TensorLists, which tf.while_loop bodies use (and SavedModels' stripped
      // op lists miss when only a While's body uses them).
      "TensorListFromTensor", "TensorListReserve", "TensorListStack", "TensorListGetItem",
      "TensorListSetItem", "TensorListLength", "TensorListElementShape", "TensorListPushBack",
      "EmptyTensorList", "TensorListSplit", "TensorListResize"});
    // Two outputs.
    add(2, {
      "Switch", "RefSwitch", "Merge", "RefMerge", "Unique", "TopKV2", "UniqueV2", "ListDiff",
      "BroadcastGradientArgs", "SoftmaxCrossEntropyWithLogits",
      "SparseSoftmaxCrossEntropyWithLogits", "MaxPoolWithArgmax", "TensorListPopBack",
      "TensorListConcat", "TensorListConcatV2"});
    // Three: the value and its range.
    add(3, {
      "QuantizeV2"});
    // Five.
    add(5, {
      "FusedBatchNorm", "FusedBatchNormV2"});
    // Six.
    add(6, {
      "FusedBatchNormV3"});
    return T;
  }();
  return Table;
}

} // namespace

std::optional<int> numOutputs(const Node &N) {
  llvm::StringRef Op = N.op();
  // Ops whose output count comes from an attribute.
  if (Op == "Split" || Op == "SplitV")
    return intAttr(N, "num_split");
  if (Op == "Unpack")
    return intAttr(N, "num");
  if (Op == "IdentityN" || Op == "While" || Op == "StatelessWhile" || Op == "_While")
    return listAttrLength(N, "T");
  if (Op == "If" || Op == "StatelessIf" || Op == "Case" || Op == "StatelessCase" ||
      isPartitionedCallOp(Op))
    return listAttrLength(N, "Tout");
  if (Op == "RestoreV2")
    return listAttrLength(N, "dtypes");
  if (Op == "ShapeN")
    return intAttr(N, "N");
  if (auto It = fixedOutputCounts().find(Op); It != fixedOutputCounts().end())
    return It->second;
  return functionOutputs(N);
}

void addKnownDefaultAttrs(Node &N) {
  auto setBool = [&](const char *Name) {
    if (!N.findAttr(Name))
      N.attr(Name).set_b(false);
  };
  auto setInt = [&](const char *Name) {
    if (!N.findAttr(Name))
      N.attr(Name).set_i(0);
  };
  llvm::StringRef Op = N.op();
  if (Op == "MatMul") {
    for (const char *Name : {"transpose_a", "transpose_b", "grad_a", "grad_b"})
      setBool(Name);
  } else if (Op == "BatchMatMulV2" || Op == "BatchMatMulV3") {
    for (const char *Name : {"adj_x", "adj_y", "grad_x", "grad_y"})
      setBool(Name);
  } else if (Op == "StridedSlice") {
    for (const char *Name :
         {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"})
      setInt(Name);
  } else if (Op == "Sum" || Op == "Mean" || Op == "Max" || Op == "Min" || Op == "Prod") {
    setBool("keep_dims");
  } else if (Op == "Pack") {
    setInt("axis");
  } else if (Op == "GatherV2") {
    setInt("batch_dims");
  } else if (Op == "Cast") {
    setBool("Truncate");
  } else if (Op == "TensorListSetItem") {
    setBool("resize_if_index_out_of_bounds");
  } else if (Op == "BiasAdd" && !N.findAttr("data_format")) {
    N.attr("data_format").set_s("NHWC");
  }
}

} // namespace frost
