//===- StripTrainingOps.cpp - Reference-typed training ops to plain ops ---===//
//
// A training graph pruned to its outputs can still hold ops that read or write
// variables through references: RefSwitch/RefMerge around a batch-norm
// `training` cond, AssignSub/AssignAdd moving-average updates reached through
// control dependencies, RefIdentity. Once the variables are constants,
// TensorFlow refuses the graph ("Input 0 of node X was passed float from v:0
// incompatible with expected float_ref", tensorflow/tensorflow#3628, #35406).
// This pass rewrites them the way users patch such graphs by hand:
//
//   RefSwitch, RefMerge, RefEnter, RefExit, RefNextIteration, RefIdentity
//       -> the op without `Ref`: same inputs and attributes
//   AssignSub(ref, value) -> Sub(ref, value)     the value the variable would
//   AssignAdd(ref, value) -> AddV2(ref, value)   get; `use_locking` dropped
//   Assign(ref, value)    -> Identity(value)     `validate_shape`/`use_locking`
//                                                dropped, control inputs kept
//
// and every type attribute holding a reference type (DT_FLOAT_REF, ...) gets
// its base type, on every node. Each kind of rewrite is reported once ("rewrote
// 3 AssignSub to Sub").
//
// Not rewritten: optimizer updates (Apply*, SparseApply*), Scatter*,
// StridedSliceAssign, CountUpTo and IsVariableInitialized have no plain
// equivalent. While their reference input still comes from a variable they
// import fine and stay; when it comes from anything else (a rewritten node, a
// frozen variable) the graph could not be imported, and the pass fails naming
// every such node. AssignSub/AssignAdd of a quantized type fail too: Sub and
// AddV2 do not take them.
//
//===----------------------------------------------------------------------===//
#include "frost/Support/Suggest.h"
#include "frost/IR/Model.h"
#include "frost/IR/OpClasses.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace frost {

namespace {

/// Reference types are their base type + 100 (DT_FLOAT_REF = 101).
constexpr int RefTypeOffset = 100;

bool isRefType(int Type) { return Type > RefTypeOffset; }
int baseType(int Type) { return isRefType(Type) ? Type - RefTypeOffset : Type; }

/// Ops whose input 0 must be a reference and that this pass leaves alone.
bool isUnrewrittenRefUpdate(llvm::StringRef Op) {
  static const llvm::StringRef Others[] = {
      "ScatterUpdate",   "ScatterAdd",    "ScatterSub",    "ScatterMul",
      "ScatterDiv",      "ScatterMin",    "ScatterMax",    "ScatterNdUpdate",
      "ScatterNdAdd",    "ScatterNdSub",  "ScatterNdMax",  "ScatterNdMin",
      "StridedSliceAssign", "CountUpTo",  "IsVariableInitialized"};
  return Op.starts_with("Apply") || Op.starts_with("SparseApply") ||
         llvm::is_contained(Others, Op);
}

/// Ops whose output 0 is a reference once the pass is done (the ops it
/// rewrites are not).
bool producesRef(llvm::StringRef Op) {
  return isRefVariableOp(Op) || (isUnrewrittenRefUpdate(Op) && Op != "CountUpTo" && Op != "IsVariableInitialized");
}

bool isQuantized(int Type) {
  return Type == tensorflow::DT_QINT8 || Type == tensorflow::DT_QUINT8 ||
         Type == tensorflow::DT_QINT16 || Type == tensorflow::DT_QUINT16 ||
         Type == tensorflow::DT_QINT32;
}

class StripTrainingOpsPass : public Pass {
  Statistic NumRefSwitch{*this, "ref-switch-to-switch", "RefSwitch rewritten to Switch"};
  Statistic NumRefMerge{*this, "ref-merge-to-merge", "RefMerge rewritten to Merge"};
  Statistic NumRefEnter{*this, "ref-enter-to-enter", "RefEnter rewritten to Enter"};
  Statistic NumRefExit{*this, "ref-exit-to-exit", "RefExit rewritten to Exit"};
  Statistic NumRefNextIteration{*this, "ref-next-iteration-to-next-iteration",
                                "RefNextIteration rewritten to NextIteration"};
  Statistic NumRefIdentity{*this, "ref-identity-to-identity",
                           "RefIdentity rewritten to Identity"};
  Statistic NumAssignSub{*this, "assign-sub-to-sub", "AssignSub rewritten to Sub"};
  Statistic NumAssignAdd{*this, "assign-add-to-add-v2", "AssignAdd rewritten to AddV2"};
  Statistic NumAssign{*this, "assign-to-identity", "Assign rewritten to Identity of its value"};
  Statistic NumRetyped{*this, "ref-types-retyped",
                       "Type attributes changed from a reference type to its base type"};

  struct Rewrite {
    llvm::StringRef From, To;
    Statistic *Count;
    /// Attributes the new op does not have.
    std::vector<std::string_view> DropAttrs;
    /// Assign: the result is the value input alone.
    bool DropRefInput = false;
  };

  absl::Status run(Model &M, PassContext &Ctx) override {
    const Rewrite Rewrites[] = {
        {"RefSwitch", "Switch", &NumRefSwitch, {}},
        {"RefMerge", "Merge", &NumRefMerge, {}},
        {"RefEnter", "Enter", &NumRefEnter, {}},
        {"RefExit", "Exit", &NumRefExit, {}},
        {"RefNextIteration", "NextIteration", &NumRefNextIteration, {}},
        {"RefIdentity", "Identity", &NumRefIdentity, {}},
        {"AssignSub", "Sub", &NumAssignSub, {"use_locking"}},
        {"AssignAdd", "AddV2", &NumAssignAdd, {"use_locking"}},
        {"Assign", "Identity", &NumAssign, {"use_locking", "validate_shape"}, true},
    };
    Graph &G = M.graph();

    // Check first, so a failure leaves the graph as it was.
    std::vector<std::string> Problems;
    for (const Node &N : G) {
      if ((N.op() == "AssignSub" || N.op() == "AssignAdd"))
        if (const tensorflow::AttrValue *T = N.findAttr("T");
            T && isQuantized(baseType(T->type())))
          Problems.push_back(absl::StrCat(
              "node '", N.name().str(), "' (", N.op().str(), ") updates a ",
              tensorflow::DataType_Name(static_cast<tensorflow::DataType>(T->type())),
              " variable: ", N.op() == "AssignSub" ? "Sub" : "AddV2", " does not take it"));
    }
    // What is left must still get references where it needs them.
    for (const Node &N : G) {
      if (!isUnrewrittenRefUpdate(N.op()) || N.numDataInputs() == 0)
        continue;
      const Input &Ref = N.input(0);
      if (producesRef(Ref.Src->op()))
        continue;
      Problems.push_back(absl::StrCat(
          "node '", N.name().str(), "' (", N.op().str(), ") needs a reference input but reads '",
          Ref.Src->name().str(), "' (", Ref.Src->op().str(),
          "); it has no inference equivalent: choose outputs that do not need it"));
    }
    if (!Problems.empty())
      return absl::UnimplementedError(joinFindings(Problems));

    for (Node &N : G) {
      for (const Rewrite &R : Rewrites) {
        if (N.op() != R.From)
          continue;
        N.setOp(R.To);
        for (std::string_view Attr : R.DropAttrs)
          N.eraseAttr(Attr);
        if (R.DropRefInput && N.numDataInputs() > 0)
          N.removeInput(0);
        ++*R.Count;
        break;
      }
      for (auto &[Name, Value] : N.mutableAttrs()) {
        if (Value.value_case() == tensorflow::AttrValue::kType && isRefType(Value.type())) {
          Value.set_type(static_cast<tensorflow::DataType>(Value.type() - RefTypeOffset));
          ++NumRetyped;
        } else if (Value.has_list()) {
          for (int I = 0; I < Value.list().type_size(); ++I)
            if (isRefType(Value.list().type(I))) {
              Value.mutable_list()->set_type(
                  I, static_cast<tensorflow::DataType>(Value.list().type(I) - RefTypeOffset));
              ++NumRetyped;
            }
        }
      }
    }

    for (const Rewrite &R : Rewrites)
      if (R.Count->value() != 0)
        Ctx.note(name(), absl::StrCat("rewrote ", R.Count->value(), " ", R.From.str(), " to ",
                                      R.To.str()));
    if (NumRetyped.value() != 0)
      Ctx.note(name(), absl::StrCat("changed ", NumRetyped.value(),
                                    " reference-typed attributes to their base types"));

    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createStripTrainingOpsPass() {
  return std::make_unique<StripTrainingOpsPass>();
}

} // namespace frost
