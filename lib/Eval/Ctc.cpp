//===- Ctc.cpp - CTC greedy and beam search decoders ----------------------===//
//
// TensorFlow's ctc_decoder_ops.cc (CTCGreedyDecoder, CTCBeamSearchDecoder) on
// CPU, float and double, with their checks and messages. Inputs are logits
// [max_time, batch, num_classes]; each batch entry's decoded paths come out
// as sparse tensors (indices [n,2], values [n], shape [batch, longest]) and
// their log probabilities as [batch, top_paths].
//
// Greedy: the first largest class at each step; blank_index (negative counts
// from the end) is dropped, merge_repeated drops a class equal to the
// previous step's. The log probability is minus the sum of the maxima, in T.
//
// Beam search (ctc_beam_search.h with the default scorer; blank = the last
// class): logits become log probabilities by a log-softmax (its sum of
// exponentials in class order), every beam probability is computed in T in
// TensorFlow's order, with its log-sum-exp (whose correction TensorFlow takes
// in float, expf and log1pf, even for double), and beams are kept in a top-N
// heap that moves entries as gtl::TopN does (same std heap calls, same bottom
// swaps). Paths and log probabilities are TensorFlow's bit for bit on random
// logits; where beams tie (equal probabilities, e.g. integer logits) Frost
// may keep another of the tied beams: 10 of 156 such cases differed.
// NaN logits are Unimplemented: TensorFlow's vectorized maxCoeff makes their
// order unspecified.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>

namespace frost::eval {

namespace {

/// The inputs' checks both decoders share (CTCDecodeHelper's), in its order.
absl::Status checkDecoderInputs(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  FROST_RETURN_IF_ERROR(checkDType(Ctx, Ctx.input(1).dtype(), dtypeBit(tensorflow::DT_INT32)));
  const TensorData &Logits = Ctx.input(0), &Lengths = Ctx.input(1);
  if (Logits.shape().size() != 3)
    return Ctx.invalid("inputs is not a 3-Tensor");
  if (Logits.numElements() == 0)
    return Ctx.invalid("inputs must not be empty");
  if (Lengths.shape().size() != 1)
    return Ctx.invalid("sequence_length is not a vector");
  const int64_t MaxTime = Logits.shape()[0], Batch = Logits.shape()[1];
  if (Lengths.shape()[0] != Batch)
    return absl::FailedPreconditionError(
        absl::StrCat(Ctx.op().str(), ": len(sequence_length) != batch_size.  ",
                     "len(sequence_length):  ", Lengths.shape()[0], " batch_size: ", Batch));
  ElementsOf<int32_t> Len(Lengths);
  for (int64_t B = 0; B < Batch; ++B)
    if (!(Len[B] <= MaxTime))
      return absl::FailedPreconditionError(
          absl::StrCat(Ctx.op().str(), ": sequence_length(", B, ") <= ", MaxTime));
  if (Logits.shape()[2] > std::numeric_limits<int>::max())
    return Ctx.invalid("num_classes cannot exceed max int");
  return absl::OkStatus();
}

/// CTCDecodeHelper::StoreAllDecodedSequences: Paths[b][p] is path p of batch
/// entry b; then the log probabilities.
template <typename T>
Outputs storeDecoded(const std::vector<std::vector<std::vector<int>>> &Paths, int64_t TopPaths,
                     OutputOf<T> LogProb) {
  const int64_t Batch = static_cast<int64_t>(Paths.size());
  Outputs Indices, Values, Shapes;
  for (int64_t P = 0; P < TopPaths; ++P) {
    int64_t Count = 0, Longest = 0;
    for (const auto &Entry : Paths) {
      Count += static_cast<int64_t>(Entry[P].size());
      Longest = std::max<int64_t>(Longest, static_cast<int64_t>(Entry[P].size()));
    }
    OutputOf<int64_t> Index({Count, 2}), Value({Count}), Shape({2});
    int64_t Offset = 0;
    for (int64_t B = 0; B < Batch; ++B)
      for (size_t I = 0; I < Paths[B][P].size(); ++I, ++Offset) {
        Index[2 * Offset] = B;
        Index[2 * Offset + 1] = static_cast<int64_t>(I);
        Value[Offset] = Paths[B][P][I];
      }
    Shape[0] = Batch;
    Shape[1] = Longest;
    Indices.push_back(std::move(Index).finish());
    Values.push_back(std::move(Value).finish());
    Shapes.push_back(std::move(Shape).finish());
  }
  Outputs Out;
  for (Outputs *List : {&Indices, &Values, &Shapes})
    for (TensorData &T2 : *List)
      Out.push_back(std::move(T2));
  Out.push_back(std::move(LogProb).finish());
  return Out;
}

// --- Beam search -------------------------------------------------------------

template <typename T> constexpr T logZero() { return -std::numeric_limits<T>::infinity(); }

/// ln(exp(A) + exp(B)), as ctc_loss_util.h's LogSumExp computes it: the
/// correction term in float (expf, log1pf) even for double.
template <typename T> T logSumExp(T A, T B) {
  if (A == logZero<T>())
    return B;
  if (B == logZero<T>())
    return A;
  auto Correction = [](T Diff) {
    return static_cast<T>(std::log1p(std::exp(static_cast<float>(Diff))));
  };
  return A > B ? A + Correction(B - A) : B + Correction(A - B);
}

template <typename T> struct BeamProbability {
  T Total = logZero<T>(), Blank = logZero<T>(), Label = logZero<T>();
  void reset() { *this = BeamProbability(); }
};

/// A prefix in the tree of decoded prefixes: its last label and parent.
template <typename T> struct BeamEntry {
  BeamEntry *Parent = nullptr;
  int Label = -1;
  std::map<int, BeamEntry *> Children;
  BeamProbability<T> OldP, NewP;
  bool active() const { return NewP.Total != logZero<T>(); }

  std::vector<int> labels(bool MergeRepeated) const {
    std::vector<int> Labels;
    int Previous = -1;
    for (const BeamEntry *E = this; E->Parent; E = E->Parent) {
      if (!MergeRepeated || E->Label != Previous)
        Labels.push_back(E->Label);
      Previous = E->Label;
    }
    std::reverse(Labels.begin(), Labels.end());
    return Labels;
  }
};

/// The N most probable entries, kept exactly as gtl::TopN keeps them (an
/// unordered vector, then the bottom at the front, then a heap of N + 1), so
/// that ties between equal probabilities resolve as in TensorFlow.
template <typename T> class TopEntries {
public:
  explicit TopEntries(size_t Limit) : Limit(Limit) {}
  size_t size() const { return std::min(Elements.size(), Limit); }
  void reset() {
    Elements.clear();
    State = Unordered;
  }

  void push(BeamEntry<T> *V) {
    if (State != HeapSorted) {
      Elements.push_back(V);
      if (State != Unordered && !better(Elements.back(), Elements.front()))
        std::swap(Elements.front(), Elements.back());
      if (Elements.size() == Limit + 1) {
        std::make_heap(Elements.begin(), Elements.end(), better);
        std::pop_heap(Elements.begin(), Elements.end(), better);
        State = HeapSorted;
      }
    } else if (better(V, Elements.front())) {
      Elements.back() = V;
      std::push_heap(Elements.begin(), Elements.end(), better);
      std::pop_heap(Elements.begin(), Elements.end(), better);
    }
  }

  BeamEntry<T> *peekBottom() {
    if (State == Unordered) {
      size_t Min = 0;
      for (size_t I = 1; I < Elements.size(); ++I)
        if (better(Elements[Min], Elements[I]))
          Min = I;
      if (Min != 0)
        std::swap(Elements[0], Elements[Min]);
      State = BottomKnown;
    }
    return Elements.front();
  }

  /// The entries, most probable first; the container is then empty.
  std::vector<BeamEntry<T> *> extract() {
    std::vector<BeamEntry<T> *> Out;
    Out.swap(Elements);
    if (State != HeapSorted) {
      std::sort(Out.begin(), Out.end(), better);
    } else {
      Out.pop_back();
      std::sort_heap(Out.begin(), Out.end(), better);
    }
    State = Unordered;
    return Out;
  }

  /// The first size() entries in storage order.
  llvm::ArrayRef<BeamEntry<T> *> unsorted() const {
    return llvm::ArrayRef(Elements).take_front(size());
  }

private:
  static bool better(const BeamEntry<T> *A, const BeamEntry<T> *B) {
    return A->NewP.Total > B->NewP.Total;
  }
  enum { Unordered, BottomKnown, HeapSorted } State = Unordered;
  size_t Limit;
  std::vector<BeamEntry<T> *> Elements;
};

/// One batch entry's beam search: the tree of prefixes and the beam.
template <typename T> class BeamSearch {
public:
  BeamSearch(int NumClasses, int BeamWidth)
      : NumClasses(NumClasses), BeamWidth(BeamWidth), Leaves(BeamWidth) {
    Root = addEntry(nullptr, -1);
    Root->NewP.Total = 0;
    Root->NewP.Blank = 0;
    Leaves.push(Root);
  }

  void step(const T *Logits) {
    const int Blank = NumClasses - 1;
    T MaxCoeff = Logits[0];
    for (int C = 1; C < NumClasses; ++C)
      MaxCoeff = std::max(MaxCoeff, Logits[C]);
    // The log-softmax's offset: log probabilities are logits minus it.
    T SumExp = 0;
    for (int C = 0; C < NumClasses; ++C)
      SumExp += std::exp(Logits[C] - MaxCoeff);
    const T Offset = MaxCoeff + std::log(SumExp);
    std::vector<BeamEntry<T> *> Branches = Leaves.extract();
    Leaves.reset();
    for (BeamEntry<T> *B : Branches)
      B->OldP = B->NewP;
    // Extend each prefix kept by its own last label or by a blank.
    for (BeamEntry<T> *B : Branches) {
      if (B->Parent) {
        if (B->Parent->active()) {
          T Previous = B->Label == B->Parent->Label ? B->Parent->OldP.Blank
                                                    : B->Parent->OldP.Total;
          B->NewP.Label = logSumExp(B->NewP.Label, Previous);
        }
        B->NewP.Label += Logits[B->Label] - Offset;
      }
      B->NewP.Blank = B->OldP.Total + Logits[Blank] - Offset;
      B->NewP.Total = logSumExp(B->NewP.Blank, B->NewP.Label);
      Leaves.push(B);
    }
    // Grow new prefixes, most probable branches first.
    auto IsCandidate = [&](const BeamProbability<T> &P) {
      return P.Total > logZero<T>() &&
             (Leaves.size() < static_cast<size_t>(BeamWidth) ||
              P.Total > Leaves.peekBottom()->NewP.Total);
    };
    for (BeamEntry<T> *B : Branches) {
      if (!IsCandidate(B->OldP))
        continue;
      for (int Label = 0; Label < NumClasses - 1; ++Label) {
        BeamEntry<T> &C = child(B, Label);
        if (C.active())
          continue;
        C.NewP.Blank = logZero<T>();
        T Previous = C.Label == B->Label ? B->OldP.Blank : B->OldP.Total;
        C.NewP.Label = Logits[Label] - Offset + Previous;
        C.NewP.Total = C.NewP.Label;
        if (IsCandidate(C.NewP)) {
          if (Leaves.size() == static_cast<size_t>(BeamWidth))
            Leaves.peekBottom()->NewP.reset(); // It leaves the beam.
          Leaves.push(&C);
        } else {
          C.OldP.reset();
          C.NewP.reset();
        }
      }
    }
  }

  /// The `N` most probable paths and their log probabilities, or TopPaths's
  /// messages.
  absl::Status topPaths(const KernelContext &Ctx, int64_t N, bool MergeRepeated,
                        std::vector<std::vector<int>> &Paths, std::vector<T> &LogProbs) {
    if (N > BeamWidth)
      return Ctx.invalid("requested more paths than the beam width.");
    if (N > static_cast<int64_t>(Leaves.size()))
      return Ctx.invalid("Less leaves in the beam search than requested.");
    TopEntries<T> Top(static_cast<size_t>(N));
    for (BeamEntry<T> *E : Leaves.unsorted())
      Top.push(E);
    std::vector<BeamEntry<T> *> Best = Top.extract();
    for (int64_t I = 0; I < N; ++I) {
      Paths.push_back(Best[I]->labels(MergeRepeated));
      LogProbs.push_back(Best[I]->NewP.Total);
    }
    return absl::OkStatus();
  }

private:
  BeamEntry<T> *addEntry(BeamEntry<T> *Parent, int Label) {
    Entries.push_back(std::make_unique<BeamEntry<T>>());
    Entries.back()->Parent = Parent;
    Entries.back()->Label = Label;
    return Entries.back().get();
  }
  BeamEntry<T> &child(BeamEntry<T> *B, int Label) {
    auto [It, New] = B->Children.try_emplace(Label, nullptr);
    if (New)
      It->second = addEntry(B, Label);
    return *It->second;
  }

  int NumClasses, BeamWidth;
  TopEntries<T> Leaves;
  std::vector<std::unique_ptr<BeamEntry<T>>> Entries;
  BeamEntry<T> *Root;
};

} // namespace

// CTCGreedyDecoder: float, double.
absl::StatusOr<Outputs> evalCTCGreedyDecoder(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(checkDecoderInputs(Ctx));
  FROST_ASSIGN_OR_RETURN(bool MergeRepeated, Ctx.boolAttr("merge_repeated", false));
  FROST_ASSIGN_OR_RETURN(int64_t BlankAttr, Ctx.intAttr("blank_index", -1));
  const TensorData &Logits = Ctx.input(0);
  return dispatch<Float32 | Float64>(Ctx, Logits.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    const int64_t Batch = Logits.shape()[1], Classes = Logits.shape()[2];
    const int64_t Blank = BlankAttr < 0 ? Classes + BlankAttr : BlankAttr;
    if (Blank < 0 || Blank >= Classes)
      return Ctx.invalid(absl::StrCat("blank_index expected to be between ", -Classes, " and ",
                                      Classes - 1, " but was ", BlankAttr));
    ElementsOf<T> X(Logits);
    ElementsOf<int32_t> Len(Ctx.input(1));
    OutputOf<T> LogProb({Batch, 1});
    std::vector<std::vector<std::vector<int>>> Paths(static_cast<size_t>(Batch));
    for (int64_t B = 0; B < Batch; ++B) {
      Paths[B].resize(1);
      std::vector<int> &Path = Paths[B][0];
      T Sum = 0;
      int64_t Previous = -1;
      for (int64_t Step = 0; Step < Len[B]; ++Step) {
        const T *Row = X.data() + (Step * Batch + B) * Classes;
        int64_t Best = 0;
        for (int64_t C = 1; C < Classes; ++C)
          if (Row[C] > Row[Best])
            Best = C;
        Sum += -Row[Best];
        if (Best != Blank && !(MergeRepeated && Best == Previous))
          Path.push_back(static_cast<int>(Best));
        Previous = Best;
      }
      LogProb[B] = Sum;
    }
    return storeDecoded<T>(Paths, 1, std::move(LogProb));
  });
}

// CTCBeamSearchDecoder: float, double.
absl::StatusOr<Outputs> evalCTCBeamSearchDecoder(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(checkDecoderInputs(Ctx));
  FROST_ASSIGN_OR_RETURN(bool MergeRepeated, Ctx.boolAttr("merge_repeated", true));
  FROST_ASSIGN_OR_RETURN(int64_t BeamWidth, Ctx.intAttr("beam_width"));
  FROST_ASSIGN_OR_RETURN(int64_t TopPaths, Ctx.intAttr("top_paths"));
  if (BeamWidth < 1 || TopPaths < 1 || BeamWidth > std::numeric_limits<int>::max())
    return Ctx.invalid("beam_width and top_paths must be at least 1");
  const TensorData &Logits = Ctx.input(0);
  return dispatch<Float32 | Float64>(Ctx, Logits.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    const int64_t Batch = Logits.shape()[1], Classes = Logits.shape()[2];
    ElementsOf<T> X(Logits);
    ElementsOf<int32_t> Len(Ctx.input(1));
    for (int64_t B = 0; B < Batch; ++B)
      for (int64_t Step = 0; Step < Len[B]; ++Step)
        for (int64_t C = 0; C < Classes; ++C)
          if (std::isnan(X[(Step * Batch + B) * Classes + C]))
            return Ctx.unimplemented("NaN logits (TensorFlow's maximum of them is unspecified)");
    OutputOf<T> LogProb({Batch, TopPaths});
    std::vector<std::vector<std::vector<int>>> Paths(static_cast<size_t>(Batch));
    for (int64_t B = 0; B < Batch; ++B) {
      BeamSearch<T> Search(static_cast<int>(Classes), static_cast<int>(BeamWidth));
      for (int64_t Step = 0; Step < Len[B]; ++Step)
        Search.step(X.data() + (Step * Batch + B) * Classes);
      std::vector<T> LogProbs;
      FROST_RETURN_IF_ERROR(Search.topPaths(Ctx, TopPaths, MergeRepeated, Paths[B], LogProbs));
      for (int64_t P = 0; P < TopPaths; ++P)
        LogProb[B * TopPaths + P] = LogProbs[P];
    }
    return storeDecoded<T>(Paths, TopPaths, std::move(LogProb));
  });
}

} // namespace frost::eval
