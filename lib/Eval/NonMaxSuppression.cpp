//===- NonMaxSuppression.cpp - NonMaxSuppressionV3, V4, V5 ----------------===//
//
// TensorFlow's non_max_suppression_op.cc on CPU, with its checks and
// messages. Candidates above the score threshold leave a priority queue by
// score, then by lower box index; each is compared with the boxes already
// selected, newest first, by intersection over union computed in float and
// then rounded to the box type; thresholds, weights and scores are in the box
// type's own arithmetic (half rounds after every operation). Soft
// NMS (V5's soft_nms_sigma > 0) scales a candidate's score by
// exp(-0.5 / sigma * iou^2) per selected box and queues it again while it
// stays above the threshold. Every step is TensorFlow's, in its order, so
// indices and scores are bit for bit TensorFlow's.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <queue>

namespace frost::eval {

namespace {

/// A scalar threshold input (half or float) as float.
absl::StatusOr<float> thresholdInput(const KernelContext &Ctx, size_t I) {
  const TensorData &T = Ctx.input(I);
  return visitType<absl::StatusOr<float>>(Ctx, T.dtype(), Float32 | Half,
                                          [&](auto Tag) -> absl::StatusOr<float> {
                                            using V = typename decltype(Tag)::type;
                                            if constexpr (std::is_same_v<V, bool>)
                                              return Ctx.unimplementedType(T.dtype());
                                            else
                                              return static_cast<float>(ElementsOf<V>(T)[0]);
                                          });
}

absl::Status checkScalar(const KernelContext &Ctx, size_t I, llvm::StringRef Name) {
  if (!Ctx.input(I).shape().empty())
    return Ctx.invalid(
        absl::StrCat(Name.str(), " must be 0-D, got shape ", shapeOf(Ctx.input(I))));
  return absl::OkStatus();
}

/// Intersection over union of boxes I and J (corners in either order), in
/// float whatever the box type (TensorFlow's IOU).
template <typename T> float intersectionOverUnion(const T *Boxes, int64_t I, int64_t J) {
  const T *A = Boxes + 4 * I, *B = Boxes + 4 * J;
  auto F = [](T V) { return static_cast<float>(V); };
  const float YMinA = std::min(F(A[0]), F(A[2])), XMinA = std::min(F(A[1]), F(A[3]));
  const float YMaxA = std::max(F(A[0]), F(A[2])), XMaxA = std::max(F(A[1]), F(A[3]));
  const float YMinB = std::min(F(B[0]), F(B[2])), XMinB = std::min(F(B[1]), F(B[3]));
  const float YMaxB = std::max(F(B[0]), F(B[2])), XMaxB = std::max(F(B[1]), F(B[3]));
  const float AreaA = (YMaxA - YMinA) * (XMaxA - XMinA);
  const float AreaB = (YMaxB - YMinB) * (XMaxB - XMinB);
  if (AreaA <= 0.0f || AreaB <= 0.0f)
    return 0.0f;
  const float YMin = std::max(YMinA, YMinB), XMin = std::max(XMinA, XMinB);
  const float YMax = std::min(YMaxA, YMaxB), XMax = std::min(XMaxA, XMaxB);
  const float Intersection = std::max(YMax - YMin, 0.0f) * std::max(XMax - XMin, 0.0f);
  return Intersection / (AreaA + AreaB - Intersection);
}

struct NmsOptions {
  int64_t MaxOutputs;
  float IouThreshold, ScoreThreshold, SoftNmsSigma;
  bool PadToMaxOutputs;
};

struct NmsResult {
  std::vector<int32_t> Selected;
  std::vector<TensorData> Scores; // One tensor (V5) or none.
  int32_t NumValid;
};

template <typename T>
NmsResult suppress(const TensorData &BoxesT, const TensorData &ScoresT, const NmsOptions &Opts,
                   bool WantScores) {
  ElementsOf<T> Boxes(BoxesT), Scores(ScoresT);
  const T IouThreshold = static_cast<T>(Opts.IouThreshold);
  const T ScoreThreshold = static_cast<T>(Opts.ScoreThreshold);
  const T Sigma = static_cast<T>(Opts.SoftNmsSigma);
  struct Candidate {
    int32_t Box;
    T Score;
    int64_t SuppressBegin; // Selected boxes before this one were compared already.
  };
  auto Lower = [](const Candidate &A, const Candidate &B) {
    return (A.Score == B.Score && A.Box > B.Box) || A.Score < B.Score;
  };
  std::priority_queue<Candidate, std::deque<Candidate>, decltype(Lower)> Queue(Lower);
  for (int64_t I = 0; I < Scores.size(); ++I)
    if (Scores[I] > ScoreThreshold)
      Queue.push(Candidate{static_cast<int32_t>(I), Scores[I], 0});

  const bool Soft = Sigma > T(0);
  const T Scale = Soft ? static_cast<T>(-0.5) / Sigma : T(0);
  auto Weight = [&](T Iou) {
    const T W = Eigen::numext::exp<T>(Scale * Iou * Iou);
    return Soft || Iou <= IouThreshold ? W : T(0);
  };

  std::vector<int32_t> Selected;
  std::vector<T> SelectedScores;
  while (static_cast<int64_t>(Selected.size()) < Opts.MaxOutputs && !Queue.empty()) {
    Candidate Next = Queue.top();
    const T Original = Next.Score;
    Queue.pop();
    bool HardSuppressed = false;
    for (int64_t J = static_cast<int64_t>(Selected.size()) - 1; J >= Next.SuppressBegin; --J) {
      const T Iou = static_cast<T>(intersectionOverUnion(Boxes.data(), Next.Box, Selected[J]));
      Next.Score *= Weight(Iou);
      if (!Soft && Iou > IouThreshold) {
        HardSuppressed = true;
        break;
      }
      if (Next.Score <= ScoreThreshold)
        break;
    }
    Next.SuppressBegin = static_cast<int64_t>(Selected.size());
    if (HardSuppressed)
      continue;
    if (Next.Score == Original) {
      Selected.push_back(Next.Box);
      SelectedScores.push_back(Next.Score);
    } else if (Next.Score > ScoreThreshold) {
      Queue.push(Next);
    }
  }

  NmsResult Result;
  Result.NumValid = static_cast<int32_t>(Selected.size());
  if (Opts.PadToMaxOutputs) {
    Selected.resize(static_cast<size_t>(Opts.MaxOutputs), 0);
    SelectedScores.resize(static_cast<size_t>(Opts.MaxOutputs), T(0));
  }
  if (WantScores) {
    OutputOf<T> Out({static_cast<int64_t>(SelectedScores.size())});
    std::copy(SelectedScores.begin(), SelectedScores.end(), Out.data());
    Result.Scores.push_back(std::move(Out).finish());
  }
  Result.Selected = std::move(Selected);
  return Result;
}

/// The checks and the selection shared by V3, V4 and V5 (V5 has the sigma
/// at input 5 and returns the scores).
absl::StatusOr<NmsResult> nonMaxSuppression(const KernelContext &Ctx, bool HasSigma,
                                            bool PadToMaxOutputs) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(HasSigma ? 6 : 5));
  const TensorData &Boxes = Ctx.input(0), &Scores = Ctx.input(1);
  if (Boxes.dtype() != Scores.dtype())
    return Ctx.invalid("boxes and scores of different dtypes");
  if (Ctx.input(2).dtype() != tensorflow::DT_INT32)
    return Ctx.invalid("max_output_size must be int32");
  FROST_RETURN_IF_ERROR(checkScalar(Ctx, 2, "max_output_size"));
  NmsOptions Opts{};
  Opts.PadToMaxOutputs = PadToMaxOutputs;
  FROST_RETURN_IF_ERROR(checkScalar(Ctx, 3, "iou_threshold"));
  FROST_ASSIGN_OR_RETURN(Opts.IouThreshold, thresholdInput(Ctx, 3));
  if (!(Opts.IouThreshold >= 0.0f && Opts.IouThreshold <= 1.0f))
    return Ctx.invalid("iou_threshold must be in [0, 1]");
  FROST_RETURN_IF_ERROR(checkScalar(Ctx, 4, "score_threshold"));
  FROST_ASSIGN_OR_RETURN(Opts.ScoreThreshold, thresholdInput(Ctx, 4));
  if (HasSigma) {
    FROST_RETURN_IF_ERROR(checkScalar(Ctx, 5, "soft_nms_sigma"));
    FROST_ASSIGN_OR_RETURN(Opts.SoftNmsSigma, thresholdInput(Ctx, 5));
    if (!(Opts.SoftNmsSigma >= 0.0f))
      return Ctx.invalid("soft_nms_sigma_val must be >= 0");
  }
  if (Boxes.shape().size() != 2)
    return Ctx.invalid(absl::StrCat("boxes must be 2-D", shapeOf(Boxes)));
  if (Boxes.shape()[1] != 4)
    return Ctx.invalid("boxes must have 4 columns");
  if (Scores.shape().size() != 1)
    return Ctx.invalid(absl::StrCat("scores must be 1-D", shapeOf(Scores)));
  if (Scores.shape()[0] != Boxes.shape()[0])
    return Ctx.invalid("scores has incompatible shape");
  Opts.MaxOutputs = ElementsOf<int32_t>(Ctx.input(2))[0];
  if (Opts.MaxOutputs < 0)
    return Ctx.invalid("output size must be non-negative");
  if (PadToMaxOutputs)
    FROST_RETURN_IF_ERROR(Ctx.checkTensorBytes(static_cast<uint64_t>(Opts.MaxOutputs) * 4,
                                               {Opts.MaxOutputs}));
  return visitType<absl::StatusOr<NmsResult>>(
      Ctx, Boxes.dtype(), Float32 | Half, [&](auto Tag) -> absl::StatusOr<NmsResult> {
        using T = typename decltype(Tag)::type;
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, Eigen::half>)
          return suppress<T>(Boxes, Scores, Opts, HasSigma);
        else
          return Ctx.unimplementedType(Boxes.dtype()); // Not reached: visitType checks.
      });
}

TensorData indicesTensor(const std::vector<int32_t> &Selected) {
  OutputOf<int32_t> Out({static_cast<int64_t>(Selected.size())});
  std::copy(Selected.begin(), Selected.end(), Out.data());
  return std::move(Out).finish();
}

TensorData countTensor(int32_t N) {
  OutputOf<int32_t> Out({});
  Out[0] = N;
  return std::move(Out).finish();
}

} // namespace

absl::StatusOr<Outputs> evalNonMaxSuppressionV3(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(NmsResult R, nonMaxSuppression(Ctx, /*HasSigma=*/false, false));
  Outputs Out;
  Out.push_back(indicesTensor(R.Selected));
  return Out;
}

absl::StatusOr<Outputs> evalNonMaxSuppressionV4(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(bool Pad, Ctx.boolAttr("pad_to_max_output_size", false));
  FROST_ASSIGN_OR_RETURN(NmsResult R, nonMaxSuppression(Ctx, /*HasSigma=*/false, Pad));
  Outputs Out;
  Out.push_back(indicesTensor(R.Selected));
  Out.push_back(countTensor(R.NumValid));
  return Out;
}

absl::StatusOr<Outputs> evalNonMaxSuppressionV5(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(bool Pad, Ctx.boolAttr("pad_to_max_output_size", false));
  FROST_ASSIGN_OR_RETURN(NmsResult R, nonMaxSuppression(Ctx, /*HasSigma=*/true, Pad));
  Outputs Out;
  Out.push_back(indicesTensor(R.Selected));
  Out.push_back(std::move(R.Scores[0]));
  Out.push_back(countTensor(R.NumValid));
  return Out;
}

} // namespace frost::eval
