//===- Eval.cpp - Kernel lookup, evaluation environment, shared helpers --===//
#include "Kernel.h"
#include "Regex.h"

#include "frost/Support/File.h"

#include "absl/strings/str_join.h"
#include "llvm/ADT/StringMap.h"

#include <new>

#if defined(__SSE__)
#include <xmmintrin.h>
#endif
#if defined(__SSE3__)
#include <pmmintrin.h>
#endif

namespace frost::eval {

namespace {

/// The kernels of `Needed` exactness: the bitwise ones, and with
/// WithinRounding those for running graphs too (an op's run kernel in place
/// of its bitwise one: it adds dtypes, e.g. complex Exp).
const llvm::StringMap<KernelFn> &kernels(Exactness Needed) {
  static const llvm::StringMap<KernelFn> Bitwise = [] {
    llvm::StringMap<KernelFn> T;
#define FROST_KERNEL(OP, FN) T.try_emplace(OP, &FN);
#include "Kernels.def"
    return T;
  }();
  static const llvm::StringMap<KernelFn> WithinRounding = [] {
    llvm::StringMap<KernelFn> T = Bitwise;
#define FROST_RUN_KERNEL(OP, FN) T.insert_or_assign(OP, &FN);
#include "Kernels.def"
    return T;
  }();
  return Needed == Exactness::Bitwise ? Bitwise : WithinRounding;
}

/// TensorFlow runs its CPU kernels with denormals flushed to zero (inputs and
/// results, x86's FTZ and DAZ), and so does its constant folding.
class ScopedFlushDenormal {
public:
  ScopedFlushDenormal() {
#if defined(__SSE__)
    SavedCsr = _mm_getcsr();
    _mm_setcsr(SavedCsr | 0x8040); // FTZ (bit 15) | DAZ (bit 6)
#endif
  }
  ~ScopedFlushDenormal() {
#if defined(__SSE__)
    _mm_setcsr(SavedCsr);
#endif
  }

private:
  [[maybe_unused]] unsigned SavedCsr = 0;
};

} // namespace

namespace {

uint64_t saturatingMul(uint64_t A, uint64_t B) {
  uint64_t P;
  return __builtin_mul_overflow(A, B, &P) ? UINT64_MAX : P;
}

uint64_t elementsOf(const TensorData &T) { return static_cast<uint64_t>(T.numElements()); }

/// The product of an int list attribute's entries (a pooling window), 1 when
/// absent.
uint64_t attrProduct(const AttrMap &Attrs, llvm::StringRef Name) {
  auto It = Attrs.find(Name);
  uint64_t P = 1;
  if (It != Attrs.end())
    for (int64_t V : It->second.list().i())
      P = saturatingMul(P, static_cast<uint64_t>(std::max<int64_t>(V, 1)));
  return P;
}

/// Multiply-adds of a convolution: every input element meets every filter
/// tap of its channel, fewer with strides.
uint64_t convolutionWork(const TensorData &In, const TensorData &Filter, int ChannelDim,
                         const AttrMap &Attrs) {
  llvm::ArrayRef<int64_t> F = Filter.shape();
  uint64_t Channels = F.size() > static_cast<size_t>(ChannelDim) && F[ChannelDim] > 0
                          ? static_cast<uint64_t>(F[ChannelDim])
                          : 1;
  return saturatingMul(elementsOf(In), elementsOf(Filter) / Channels) /
         attrProduct(Attrs, "strides");
}

/// The number of bytes a tensor holds, strings counted by their lengths.
uint64_t bytesOf(const TensorData &T) {
  uint64_t Bytes = T.isFixedSize() ? T.bytes().size() : 0;
  for (const std::string &E : T.elements())
    Bytes += E.size();
  return Bytes;
}

/// RE2 runs in time linear in the text, but each byte may step every
/// instruction of the compiled program (its NFA, when a replacement needs
/// groups or the DFA runs out of memory): about 10 ns a step, measured on a
/// 50,000-byte text and 80,000 instructions, 100 units. A pattern RE2
/// refuses costs nothing (the kernel reports it).
uint64_t regexWork(llvm::StringRef Op, llvm::ArrayRef<TensorData> Inputs, const AttrMap &Attrs) {
  std::string Pattern;
  if (Op.starts_with("Static")) {
    auto It = Attrs.find("pattern");
    if (It == Attrs.end())
      return 0;
    Pattern = It->second.s();
  } else if (Inputs.size() >= 2 && Inputs[1].dtype() == tensorflow::DT_STRING &&
             Inputs[1].numElements() == 1) {
    Pattern = Inputs[1].elements()[0];
  } else {
    return 0;
  }
  std::unique_ptr<re2::RE2> Regex = compileTensorFlowRegex(Pattern);
  if (!Regex->ok() || Inputs.empty())
    return 0;
  uint64_t Steps = saturatingMul(bytesOf(Inputs[0]), static_cast<uint64_t>(Regex->ProgramSize()));
  return saturatingMul(Steps, 100);
}

} // namespace

uint64_t estimateWork(llvm::StringRef Op, llvm::ArrayRef<TensorData> Inputs,
                      const AttrMap &Attrs) {
  uint64_t Read = 0;
  for (const TensorData &T : Inputs)
    Read += elementsOf(T);
  auto input = [&](size_t I) -> const TensorData * {
    return I < Inputs.size() ? &Inputs[I] : nullptr;
  };
  auto boolAttr = [&](llvm::StringRef Name) {
    auto It = Attrs.find(Name);
    return It != Attrs.end() && It->second.b();
  };
  uint64_t Work = 0;
  if (Op == "MatMul" || Op.starts_with("BatchMatMul")) {
    // Each element of the left side meets a column of the right: x * n.
    if (const TensorData *X = input(0), *Y = input(1); X && Y && Y->shape().size() >= 2) {
      bool TransY = boolAttr(Op == "MatMul" ? "transpose_b" : "adj_y");
      llvm::ArrayRef<int64_t> S = Y->shape();
      int64_t N = TransY ? S[S.size() - 2] : S.back();
      llvm::ArrayRef<int64_t> XS = X->shape();
      // A broadcast left side meets every batch of the right.
      uint64_t Batches = 1;
      if (XS.size() >= 2 && S.size() > 2) {
        uint64_t XBatches = 1, YBatches = 1;
        for (size_t I = 0; I + 2 < XS.size(); ++I)
          XBatches = saturatingMul(XBatches, static_cast<uint64_t>(std::max<int64_t>(XS[I], 1)));
        for (size_t I = 0; I + 2 < S.size(); ++I)
          YBatches = saturatingMul(YBatches, static_cast<uint64_t>(std::max<int64_t>(S[I], 1)));
        Batches = std::max<uint64_t>(1, YBatches / std::max<uint64_t>(XBatches, 1));
      }
      Work = saturatingMul(saturatingMul(elementsOf(*X), static_cast<uint64_t>(std::max<int64_t>(N, 1))),
                           Batches);
    }
  } else if (Op == "Conv2D" || Op == "DepthwiseConv2dNative") {
    if (input(1))
      Work = convolutionWork(Inputs[0], Inputs[1], 2, Attrs);
  } else if (Op == "FusedPadConv2D") {
    if (input(2))
      Work = convolutionWork(Inputs[0], Inputs[2], 2, Attrs);
  } else if (Op == "FusedResizeAndPadConv2D") {
    if (input(3))
      Work = convolutionWork(Inputs[0], Inputs[3], 2, Attrs);
  } else if (Op == "Conv2DBackpropInput") {
    if (input(2))
      Work = convolutionWork(Inputs[2], Inputs[1], 3, Attrs);
  } else if (Op == "AvgPool" || Op == "MaxPool" || Op == "LRN") {
    Work = saturatingMul(Read, attrProduct(Attrs, "ksize"));
  } else if (Op.ends_with("RegexReplace") || Op.ends_with("RegexFullMatch")) {
    Work = regexWork(Op, Inputs, Attrs);
  }
  return std::max(Read, Work);
}

absl::StatusOr<std::vector<TensorData>> evaluate(llvm::StringRef Op,
                                                 llvm::ArrayRef<TensorData> Inputs,
                                                 const AttrMap &Attrs, Exactness Needed,
                                                 EvalBudget *Budget) {
  const llvm::StringMap<KernelFn> &Kernels = kernels(Needed);
  auto It = Kernels.find(Op);
  if (It == Kernels.end())
    return absl::UnimplementedError(absl::StrCat("no kernel for op ", Op.str()));
  uint64_t MaxTensorBytes = UINT64_MAX;
  if (Budget) {
    uint64_t Work = estimateWork(Op, Inputs, Attrs);
    if (Work > Budget->WorkLeft) {
      Budget->Exceeded = EvalBudget::Limit::Work;
      return absl::ResourceExhaustedError(absl::StrCat(
          Op.str(), " needs about ", Work,
          " units of work (elements and multiply-adds), more than the ", Budget->WorkLeft,
          " left of the evaluation budget"));
    }
    Budget->WorkLeft -= Work;
    MaxTensorBytes = Budget->MaxTensorBytes;
  }
  absl::StatusOr<std::vector<TensorData>> Out;
  try {
    ScopedFlushDenormal Flush;
    KernelContext Ctx(Op, Inputs, Attrs, MaxTensorBytes);
    Out = It->second(Ctx);
  } catch (const std::bad_alloc &) {
    // A kernel's allocation failed (a memory limit): an error like the
    // others, never an abort.
    if (Budget)
      Budget->Exceeded = EvalBudget::Limit::Memory;
    return absl::ResourceExhaustedError(
        absl::StrCat(Op.str(), ": out of memory while computing its outputs"));
  }
  if (!Budget)
    return Out;
  // Refused by the kernel before it allocated (KernelContext::checkTensorBytes).
  if (absl::IsResourceExhausted(Out.status()))
    Budget->Exceeded = EvalBudget::Limit::TensorBytes;
  if (Out.ok()) {
    // What the kernel made is charged too (Fill, Tile: more than they read).
    uint64_t Made = 0;
    for (const TensorData &T : *Out) {
      if (uint64_t Bytes = bytesOf(T); Bytes > Budget->MaxTensorBytes) {
        Budget->Exceeded = EvalBudget::Limit::TensorBytes;
        return absl::ResourceExhaustedError(
            absl::StrCat(Op.str(), ": an output of shape ", shapeString(T.shape()), " takes ",
                         formatBytes(Bytes), ", over the limit of ",
                         formatBytes(Budget->MaxTensorBytes), " per tensor"));
      }
      Made += elementsOf(T);
    }
    Budget->WorkLeft -= std::min(Made, Budget->WorkLeft);
  }
  return Out;
}

bool hasKernel(llvm::StringRef Op, Exactness Needed) { return kernels(Needed).count(Op) != 0; }

std::vector<llvm::StringRef> opsWithKernels(Exactness Needed) {
  std::vector<llvm::StringRef> Ops;
  for (const auto &Entry : kernels(Needed))
    Ops.push_back(Entry.getKey());
  llvm::sort(Ops);
  return Ops;
}

// --- KernelContext -----------------------------------------------------------

absl::Status KernelContext::checkNumInputs(size_t N, bool AtLeast) const {
  if (Inputs.size() == N || (AtLeast && Inputs.size() > N))
    return absl::OkStatus();
  return invalid(absl::StrCat("expected ", AtLeast ? "at least " : "", N,
                              N == 1 ? " input" : " inputs", ", got ", Inputs.size()));
}

absl::Status checkSameDType(const KernelContext &Ctx, size_t First, size_t Last) {
  for (size_t I = First + 1; I < Last; ++I)
    if (Ctx.input(I).dtype() != Ctx.input(First).dtype())
      return Ctx.invalid(
          absl::StrCat("inputs of different dtypes: ", dataTypeName(Ctx.input(First).dtype()),
                       " and ", dataTypeName(Ctx.input(I).dtype())));
  return absl::OkStatus();
}

absl::Status KernelContext::invalid(llvm::StringRef Message) const {
  return absl::InvalidArgumentError(absl::StrCat(Op.str(), ": ", Message.str()));
}

absl::Status KernelContext::unimplemented(llvm::StringRef Message) const {
  return absl::UnimplementedError(absl::StrCat(Op.str(), ": ", Message.str()));
}

absl::Status KernelContext::checkTensorBytes(uint64_t Bytes, llvm::ArrayRef<int64_t> Shape) const {
  if (Bytes <= MaxTensorBytes)
    return absl::OkStatus();
  return absl::ResourceExhaustedError(
      absl::StrCat(Op.str(), ": an output of shape ", shapeString(Shape), " would take ",
                   formatBytes(Bytes), ", over the limit of ", formatBytes(MaxTensorBytes),
                   " per tensor"));
}

absl::Status KernelContext::unimplementedType(tensorflow::DataType DType) const {
  return unimplemented(absl::StrCat("no kernel for dtype ", dataTypeName(DType)));
}

namespace {
/// The attribute `Name` when it holds `Case`; null when absent.
absl::StatusOr<const tensorflow::AttrValue *> typedAttr(const KernelContext &Ctx,
                                                         llvm::StringRef Name,
                                                         tensorflow::AttrValue::ValueCase Case,
                                                         llvm::StringRef Kind) {
  const tensorflow::AttrValue *V = Ctx.attr(Name);
  if (V && V->value_case() != Case)
    return Ctx.invalid(absl::StrCat("attribute '", Name.str(), "' is not ", Kind.str()));
  return V;
}
} // namespace

#define FROST_ATTR_GETTER(TYPE, NAME, CASE, KIND, FIELD)                                           \
  absl::StatusOr<TYPE> KernelContext::NAME(llvm::StringRef Name) const {                           \
    FROST_ASSIGN_OR_RETURN(const tensorflow::AttrValue *V,                                         \
                           typedAttr(*this, Name, tensorflow::AttrValue::CASE, KIND));             \
    if (!V)                                                                                        \
      return invalid(absl::StrCat("missing attribute '", Name.str(), "'"));                        \
    return static_cast<TYPE>(V->FIELD());                                                          \
  }
FROST_ATTR_GETTER(tensorflow::DataType, typeAttr, kType, "a type", type)
FROST_ATTR_GETTER(int64_t, intAttr, kI, "an int", i)
FROST_ATTR_GETTER(float, floatAttr, kF, "a float", f)
FROST_ATTR_GETTER(bool, boolAttr, kB, "a bool", b)
FROST_ATTR_GETTER(std::string, stringAttr, kS, "a string", s)
#undef FROST_ATTR_GETTER

absl::StatusOr<std::vector<int64_t>> KernelContext::intListAttr(llvm::StringRef Name) const {
  FROST_ASSIGN_OR_RETURN(const tensorflow::AttrValue *V,
                         typedAttr(*this, Name, tensorflow::AttrValue::kList, "a list"));
  if (!V)
    return invalid(absl::StrCat("missing attribute '", Name.str(), "'"));
  return std::vector<int64_t>(V->list().i().begin(), V->list().i().end());
}

absl::StatusOr<std::vector<int64_t>>
KernelContext::intListAttr(llvm::StringRef Name, std::vector<int64_t> Default) const {
  if (!attr(Name))
    return Default;
  return intListAttr(Name);
}

#define FROST_ATTR_DEFAULT(TYPE, NAME, DEFAULT_TYPE)                                               \
  absl::StatusOr<TYPE> KernelContext::NAME(llvm::StringRef Name, DEFAULT_TYPE Default) const {     \
    if (!attr(Name))                                                                               \
      return TYPE(Default);                                                                        \
    return NAME(Name);                                                                             \
  }
FROST_ATTR_DEFAULT(int64_t, intAttr, int64_t)
FROST_ATTR_DEFAULT(float, floatAttr, float)
FROST_ATTR_DEFAULT(bool, boolAttr, bool)
FROST_ATTR_DEFAULT(std::string, stringAttr, llvm::StringRef)
#undef FROST_ATTR_DEFAULT

// --- Tensors and shapes ------------------------------------------------------

TensorData reshaped(const TensorData &T, std::vector<int64_t> Shape) {
  if (!T.isFixedSize())
    return TensorData::strings(T.dtype(), std::move(Shape),
                               std::vector<std::string>(T.elements().begin(), T.elements().end()));
  return TensorData::borrowed(T.dtype(), std::move(Shape), T.bytes(), T.keeper());
}

std::string shapeString(llvm::ArrayRef<int64_t> Shape) {
  return absl::StrCat("[", absl::StrJoin(Shape, ","), "]");
}

absl::StatusOr<std::vector<int64_t>> broadcastShapes(const KernelContext &Ctx,
                                                     llvm::ArrayRef<int64_t> A,
                                                     llvm::ArrayRef<int64_t> B) {
  size_t Rank = std::max(A.size(), B.size());
  std::vector<int64_t> Out(Rank);
  for (size_t I = 0; I < Rank; ++I) {
    int64_t DA = I < Rank - A.size() ? 1 : A[I - (Rank - A.size())];
    int64_t DB = I < Rank - B.size() ? 1 : B[I - (Rank - B.size())];
    if (DA != DB && DA != 1 && DB != 1)
      return Ctx.invalid(
          absl::StrCat("Incompatible shapes: ", shapeString(A), " vs. ", shapeString(B)));
    Out[I] = DA == 1 ? DB : DA;
  }
  return Out;
}

std::vector<int64_t> broadcastIndex(llvm::ArrayRef<int64_t> In, llvm::ArrayRef<int64_t> Out) {
  size_t Rank = Out.size(), Lead = Rank - In.size();
  int64_t Total = 1;
  for (int64_t D : Out)
    Total *= D;
  std::vector<int64_t> Index(static_cast<size_t>(Total));
  // Strides of `In` seen through `Out`'s dims: 0 where `In` repeats.
  std::vector<int64_t> Stride(Rank, 0);
  for (int64_t I = static_cast<int64_t>(Rank) - 1, S = 1; I >= static_cast<int64_t>(Lead); --I) {
    int64_t D = In[I - Lead];
    Stride[I] = D == 1 ? 0 : S;
    S *= D;
  }
  std::vector<int64_t> Pos(Rank, 0);
  int64_t Offset = 0;
  for (int64_t K = 0; K < Total; ++K) {
    Index[K] = Offset;
    for (int64_t I = static_cast<int64_t>(Rank) - 1; I >= 0; --I) {
      Offset += Stride[I];
      if (++Pos[I] < Out[I])
        break;
      Offset -= Stride[I] * Pos[I];
      Pos[I] = 0;
    }
  }
  return Index;
}

absl::StatusOr<std::vector<int64_t>> intVectorInput(const KernelContext &Ctx, size_t I,
                                                    llvm::StringRef What) {
  const TensorData &T = Ctx.input(I);
  if (T.shape().size() > 1)
    return Ctx.invalid(absl::StrCat(What.str(), " must be a vector, got shape ",
                                    shapeString(T.shape())));
  std::vector<int64_t> Out;
  if (T.dtype() == tensorflow::DT_INT32) {
    for (int32_t V : ElementsOf<int32_t>(T))
      Out.push_back(V);
  } else if (T.dtype() == tensorflow::DT_INT64) {
    for (int64_t V : ElementsOf<int64_t>(T))
      Out.push_back(V);
  } else {
    return Ctx.unimplemented(
        absl::StrCat(What.str(), " of dtype ", dataTypeName(T.dtype()), " (int32 or int64 only)"));
  }
  return Out;
}

absl::StatusOr<int64_t> scalarIntInput(const KernelContext &Ctx, size_t I, llvm::StringRef What) {
  const TensorData &T = Ctx.input(I);
  if (T.numElements() != 1 || !T.shape().empty())
    return Ctx.invalid(absl::StrCat(What.str(), " must be a scalar, got shape ",
                                    shapeString(T.shape())));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> V, intVectorInput(Ctx, I, What));
  return V[0];
}

} // namespace frost::eval
