//===- RoundWeights.cpp - Float constants rounded to a few levels ---------===//
//
// graph_transforms' round_weights: each float Const of 16 elements or more
// keeps its dtype but its values are rounded to `num-steps` evenly spaced
// levels between its minimum and maximum (bucket b = floor((v - min) /
// width), value min + width * (b + 0.5), float arithmetic), so the file
// compresses much better (gzip finds the repeats) while the graph still runs
// on plain floats.
//
// Three differences from TensorFlow, which are its bugs: the maximum itself
// falls in the last bucket (TensorFlow puts it in bucket num-steps, half a
// bucket above the maximum); the range starts from the values' true
// maximum (TensorFlow starts its search at FLT_MIN, so a tensor of negative
// values gets the range [min, 1e-38]); and a Const of one value repeated
// stays as it is (TensorFlow widens the range and moves the value half a
// bucket: every zero bias became 1/512). A Const holding NaN or infinity is
// left as it is, with a warning.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/Transforms/Passes.h"
#include "frost/IR/ConstValue.h"

#include "absl/strings/str_cat.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace frost {

namespace {

/// TensorFlow's threshold: smaller constants tend to matter more for
/// accuracy and save little.
constexpr int64_t MinimumElements = 16;

class RoundWeightsPass : public Pass {
  Option<int64_t> NumSteps{*this, "num-steps", "Levels each constant's values are rounded to", 256};
  Statistic NumRounded{*this, "constants-rounded", "Float constants rounded"};

  absl::Status validateOptions() const override {
    if (*NumSteps < 1 || *NumSteps > (int64_t(1) << 24))
      return absl::InvalidArgumentError(
          absl::StrCat("num-steps must be between 1 and 2^24, not ", *NumSteps));
    return absl::OkStatus();
  }

  absl::Status run(Model &M, PassContext &Ctx) override {
    for (Node &C : M.graph()) {
      const tensorflow::AttrValue *DType = C.findAttr("dtype");
      if (C.op() != "Const" || !DType || DType->type() != tensorflow::DT_FLOAT)
        continue;
      FROST_ASSIGN_OR_RETURN(TensorData V, constValue(C));
      if (V.dtype() != tensorflow::DT_FLOAT || V.numElements() < MinimumElements)
        continue;
      std::vector<float> Values = V.values<float>();
      if (!llvm::all_of(Values, [](float F) { return std::isfinite(F); })) {
        Ctx.warning(name(), absl::StrCat("left '", C.name().str(), "' alone: it holds NaN or infinity"));
        continue;
      }
      auto [MinIt, MaxIt] = std::minmax_element(Values.begin(), Values.end());
      float Min = *MinIt, Max = *MaxIt;
      // One value repeated is as compressible as it gets already.
      if (Min == Max)
        continue;
      // A range beyond float's, or buckets too narrow to tell apart, would
      // turn values into infinities or NaN.
      const float Width = (Max - Min) / static_cast<float>(*NumSteps);
      if (!std::isfinite(Max - Min) || !(Width > 0) || !std::isfinite((Max - Min) / Width)) {
        Ctx.warning(name(), absl::StrCat("left '", C.name().str(),
                                         "' alone: its range does not split into ", *NumSteps,
                                         " float buckets"));
        continue;
      }
      const int64_t LastBucket = *NumSteps - 1;
      for (float &F : Values) {
        int64_t Bucket = static_cast<int64_t>(std::floor((F - Min) / Width));
        F = Min + Width * (static_cast<float>(std::clamp<int64_t>(Bucket, 0, LastBucket)) + 0.5f);
      }
      std::string Bytes(Values.size() * sizeof(float), '\0');
      std::memcpy(Bytes.data(), Values.data(), Bytes.size());
      FROST_RETURN_IF_ERROR(setValueAttr(
          C, TensorData::owned(tensorflow::DT_FLOAT, {V.shape().begin(), V.shape().end()},
                               std::move(Bytes))));
      ++NumRounded;
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createRoundWeightsPass() {
  return std::make_unique<RoundWeightsPass>();
}

} // namespace frost
