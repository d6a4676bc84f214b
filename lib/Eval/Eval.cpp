//===- Eval.cpp - Kernel lookup, evaluation environment, shared helpers --===//
#include "Kernel.h"

#include "absl/strings/str_join.h"
#include "llvm/ADT/StringMap.h"

#if defined(__SSE__)
#include <xmmintrin.h>
#endif
#if defined(__SSE3__)
#include <pmmintrin.h>
#endif

namespace frost::eval {

namespace {

/// The kernels of `Needed` exactness: the bitwise ones, and with
/// WithinRounding those for running graphs too.
const llvm::StringMap<KernelFn> &kernels(Exactness Needed) {
  static const llvm::StringMap<KernelFn> Bitwise = [] {
    llvm::StringMap<KernelFn> T;
#define FROST_KERNEL(OP, FN) T.try_emplace(OP, &FN);
#include "Kernels.def"
    return T;
  }();
  static const llvm::StringMap<KernelFn> WithinRounding = [] {
    llvm::StringMap<KernelFn> T = Bitwise;
#define FROST_RUN_KERNEL(OP, FN) T.try_emplace(OP, &FN);
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

absl::StatusOr<std::vector<TensorData>> evaluate(llvm::StringRef Op,
                                                 llvm::ArrayRef<TensorData> Inputs,
                                                 const AttrMap &Attrs, Exactness Needed) {
  const llvm::StringMap<KernelFn> &Kernels = kernels(Needed);
  auto It = Kernels.find(Op);
  if (It == Kernels.end())
    return absl::UnimplementedError(absl::StrCat("no kernel for op ", Op.str()));
  ScopedFlushDenormal Flush;
  KernelContext Ctx(Op, Inputs, Attrs);
  return It->second(Ctx);
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
