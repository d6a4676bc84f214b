//===- Kernel.h - What kernels share: context, dtype dispatch, buffers ----===//
//
// A kernel is a function from a KernelContext (op name, input tensors,
// attributes) to output tensors. It is listed once in Kernels.def and lives in
// the file of its op family (Elementwise.cpp, Shape.cpp, ...). Element types
// are dispatched with `visitType` over the dtypes TensorFlow registers for the
// op (a TypeSet); a dtype outside the set is Unimplemented.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_EVAL_KERNEL_H
#define FROST_LIB_EVAL_KERNEL_H

#include "frost/Eval/Eval.h"
#include "frost/Tensor/DataType.h"

#include "absl/strings/str_cat.h"

#include <Eigen/Core>

#include <complex>
#include <cstring>
#include <memory>
#include <optional>

namespace frost::eval {

using Outputs = std::vector<TensorData>;

class KernelContext {
public:
  KernelContext(llvm::StringRef Op, llvm::ArrayRef<TensorData> Inputs, const AttrMap &Attrs,
                uint64_t MaxTensorBytes = UINT64_MAX)
      : Op(Op), Inputs(Inputs), Attrs(Attrs), MaxTensorBytes(MaxTensorBytes) {}

  llvm::StringRef op() const { return Op; }
  size_t numInputs() const { return Inputs.size(); }
  const TensorData &input(size_t I) const { return Inputs[I]; }
  llvm::ArrayRef<TensorData> inputs() const { return Inputs; }

  /// InvalidArgument unless there are exactly N inputs (at least N with
  /// `AtLeast`).
  absl::Status checkNumInputs(size_t N, bool AtLeast = false) const;

  const tensorflow::AttrValue *attr(llvm::StringRef Name) const {
    auto It = Attrs.find(Name);
    return It == Attrs.end() ? nullptr : &It->second;
  }
  /// Attribute values; a missing or mistyped attribute is InvalidArgument.
  absl::StatusOr<tensorflow::DataType> typeAttr(llvm::StringRef Name) const;
  absl::StatusOr<int64_t> intAttr(llvm::StringRef Name) const;
  absl::StatusOr<float> floatAttr(llvm::StringRef Name) const;
  absl::StatusOr<bool> boolAttr(llvm::StringRef Name) const;
  absl::StatusOr<std::string> stringAttr(llvm::StringRef Name) const;
  /// The attribute, or `Default` when the node lacks it (TensorFlow's OpDef
  /// default).
  absl::StatusOr<int64_t> intAttr(llvm::StringRef Name, int64_t Default) const;
  absl::StatusOr<float> floatAttr(llvm::StringRef Name, float Default) const;
  absl::StatusOr<bool> boolAttr(llvm::StringRef Name, bool Default) const;
  absl::StatusOr<std::string> stringAttr(llvm::StringRef Name, llvm::StringRef Default) const;
  /// A list(int) attribute; `Default` when the node lacks it.
  absl::StatusOr<std::vector<int64_t>> intListAttr(llvm::StringRef Name) const;
  absl::StatusOr<std::vector<int64_t>> intListAttr(llvm::StringRef Name,
                                                   std::vector<int64_t> Default) const;

  /// What TensorFlow's kernel would refuse: InvalidArgument, TF's message.
  absl::Status invalid(llvm::StringRef Message) const;
  /// What Frost cannot compute: Unimplemented, naming the op.
  absl::Status unimplemented(llvm::StringRef Message) const;
  absl::Status unimplementedType(tensorflow::DataType DType) const;

  /// ResourceExhausted when an output of `Shape` taking `Bytes` is over the
  /// caller's budget (EvalBudget::MaxTensorBytes): checked before allocating.
  absl::Status checkTensorBytes(uint64_t Bytes, llvm::ArrayRef<int64_t> Shape) const;

private:
  llvm::StringRef Op;
  llvm::ArrayRef<TensorData> Inputs;
  const AttrMap &Attrs;
  uint64_t MaxTensorBytes;
};

using KernelFn = absl::StatusOr<Outputs> (*)(const KernelContext &);

/// All inputs in [First, Last) have the dtype of input First; otherwise
/// InvalidArgument "inputs of different dtypes: float and int32".
absl::Status checkSameDType(const KernelContext &Ctx, size_t First, size_t Last);

// --- Element types ---------------------------------------------------------

/// The dtypes a kernel is registered for, as a bit set.
enum TypeSet : unsigned {
  Float32 = 1u << 0,
  Float64 = 1u << 1,
  Half = 1u << 2,
  BFloat16 = 1u << 3,
  Int8 = 1u << 4,
  Int16 = 1u << 5,
  Int32 = 1u << 6,
  Int64 = 1u << 7,
  UInt8 = 1u << 8,
  UInt16 = 1u << 9,
  UInt32 = 1u << 10,
  UInt64 = 1u << 11,
  Bool = 1u << 12,
  String = 1u << 13,
  Floats = Float32 | Float64 | Half | BFloat16,
  SignedInts = Int8 | Int16 | Int32 | Int64,
  UnsignedInts = UInt8 | UInt16 | UInt32 | UInt64,
  Ints = SignedInts | UnsignedInts,
  Numbers = Floats | Ints,
  AllFixed = Numbers | Bool,
};

/// The C++ type of each dtype: half and bfloat16 are Eigen's (TensorFlow's
/// own), bool is stored as one byte.
template <typename T> struct TypeTag {
  using type = T;
};

template <typename T> constexpr tensorflow::DataType dataTypeOf();
#define FROST_DTYPE(T, DT)                                                                         \
  template <> constexpr tensorflow::DataType dataTypeOf<T>() { return tensorflow::DT; }
FROST_DTYPE(float, DT_FLOAT)
FROST_DTYPE(double, DT_DOUBLE)
FROST_DTYPE(Eigen::half, DT_HALF)
FROST_DTYPE(Eigen::bfloat16, DT_BFLOAT16)
FROST_DTYPE(int8_t, DT_INT8)
FROST_DTYPE(int16_t, DT_INT16)
FROST_DTYPE(int32_t, DT_INT32)
FROST_DTYPE(int64_t, DT_INT64)
FROST_DTYPE(uint8_t, DT_UINT8)
FROST_DTYPE(uint16_t, DT_UINT16)
FROST_DTYPE(uint32_t, DT_UINT32)
FROST_DTYPE(uint64_t, DT_UINT64)
FROST_DTYPE(bool, DT_BOOL)
FROST_DTYPE(std::complex<float>, DT_COMPLEX64)
FROST_DTYPE(std::complex<double>, DT_COMPLEX128)
#undef FROST_DTYPE

/// Calls `F(TypeTag<T>{})` with the C++ type of `DType` when `DType` is in
/// `Allowed`; otherwise the context's Unimplemented error. F returns R.
template <typename R, typename Fn>
R visitType(const KernelContext &Ctx, tensorflow::DataType DType, unsigned Allowed, Fn &&F) {
  auto In = [&](TypeSet S) { return (Allowed & S) != 0; };
  switch (DType) {
  case tensorflow::DT_FLOAT:
    if (In(Float32)) return F(TypeTag<float>{});
    break;
  case tensorflow::DT_DOUBLE:
    if (In(Float64)) return F(TypeTag<double>{});
    break;
  case tensorflow::DT_HALF:
    if (In(Half)) return F(TypeTag<Eigen::half>{});
    break;
  case tensorflow::DT_BFLOAT16:
    if (In(BFloat16)) return F(TypeTag<Eigen::bfloat16>{});
    break;
  case tensorflow::DT_INT8:
    if (In(Int8)) return F(TypeTag<int8_t>{});
    break;
  case tensorflow::DT_INT16:
    if (In(Int16)) return F(TypeTag<int16_t>{});
    break;
  case tensorflow::DT_INT32:
    if (In(Int32)) return F(TypeTag<int32_t>{});
    break;
  case tensorflow::DT_INT64:
    if (In(Int64)) return F(TypeTag<int64_t>{});
    break;
  case tensorflow::DT_UINT8:
    if (In(UInt8)) return F(TypeTag<uint8_t>{});
    break;
  case tensorflow::DT_UINT16:
    if (In(UInt16)) return F(TypeTag<uint16_t>{});
    break;
  case tensorflow::DT_UINT32:
    if (In(UInt32)) return F(TypeTag<uint32_t>{});
    break;
  case tensorflow::DT_UINT64:
    if (In(UInt64)) return F(TypeTag<uint64_t>{});
    break;
  case tensorflow::DT_BOOL:
    if (In(Bool)) return F(TypeTag<bool>{});
    break;
  default:
    break;
  }
  return Ctx.unimplementedType(DType);
}

/// The TypeSet bit of T.
template <typename T> constexpr unsigned typeSetOf() {
  using namespace tensorflow;
  constexpr DataType DT = dataTypeOf<T>();
  return DT == DT_FLOAT      ? Float32
         : DT == DT_DOUBLE   ? Float64
         : DT == DT_HALF     ? Half
         : DT == DT_BFLOAT16 ? BFloat16
         : DT == DT_INT8     ? Int8
         : DT == DT_INT16    ? Int16
         : DT == DT_INT32    ? Int32
         : DT == DT_INT64    ? Int64
         : DT == DT_UINT8    ? UInt8
         : DT == DT_UINT16   ? UInt16
         : DT == DT_UINT32   ? UInt32
         : DT == DT_UINT64   ? UInt64
                             : Bool;
}

/// visitType that instantiates F only for the types in `Types`, so kernels
/// are compiled for the dtypes TensorFlow registers and no others.
template <unsigned Types, typename Fn>
absl::StatusOr<Outputs> dispatch(const KernelContext &Ctx, tensorflow::DataType DType, Fn &&F) {
  return visitType<absl::StatusOr<Outputs>>(
      Ctx, DType, Types, [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        if constexpr ((Types & typeSetOf<T>()) != 0)
          return F(Tag);
        else
          return Ctx.unimplementedType(DType); // Not reached: visitType checks Types.
      });
}

// --- Reading and writing elements -----------------------------------------

/// The elements of a fixed-size tensor as a contiguous, aligned array of T:
/// the tensor's own bytes when they are aligned (no copy), else a copy. Bools
/// are read as bytes and normalised (a stored 2 is true).
template <typename T> class ElementsOf {
public:
  explicit ElementsOf(const TensorData &Tensor) : Size(Tensor.numElements()) {
    assert(dataTypeSize(Tensor.dtype()) == sizeof(T) && "dtype does not match the C++ type");
    const char *Bytes = Tensor.bytes().data();
    if constexpr (std::is_same_v<T, bool>) {
      Copy.reset(new bool[Size > 0 ? Size : 1]);
      for (int64_t I = 0; I < Size; ++I)
        Copy[I] = Bytes[I] != 0;
      Data = Copy.get();
    } else if (reinterpret_cast<uintptr_t>(Bytes) % alignof(T) == 0) {
      Data = reinterpret_cast<const T *>(Bytes);
    } else {
      Copy.reset(new T[Size > 0 ? Size : 1]);
      if (Size)
        std::memcpy(static_cast<void *>(Copy.get()), Bytes, Size * sizeof(T));
      Data = Copy.get();
    }
  }
  const T *data() const { return Data; }
  int64_t size() const { return Size; }
  const T &operator[](int64_t I) const { return Data[I]; }
  const T *begin() const { return Data; }
  const T *end() const { return Data + Size; }

private:
  int64_t Size;
  const T *Data = nullptr;
  std::unique_ptr<T[]> Copy;
};

/// The elements of `Tensor` (of From) converted to To.
template <typename From, typename To> std::vector<To> elementsAs(const TensorData &Tensor) {
  ElementsOf<From> In(Tensor);
  std::vector<To> Out(static_cast<size_t>(In.size()));
  for (int64_t I = 0; I < In.size(); ++I)
    Out[I] = static_cast<To>(In[I]);
  return Out;
}

/// A new tensor of T being filled: `data()` is writable until `finish()`.
template <typename T> class OutputOf {
public:
  OutputOf(std::vector<int64_t> Shape) : Shape(std::move(Shape)) {
    int64_t N = 1;
    for (int64_t D : this->Shape)
      N *= D;
    Size = N;
    Bytes.resize(static_cast<size_t>(N) * sizeof(T));
  }
  T *data() { return reinterpret_cast<T *>(Bytes.data()); }
  int64_t size() const { return Size; }
  T &operator[](int64_t I) { return data()[I]; }
  TensorData finish() && {
    return TensorData::owned(dataTypeOf<T>(), std::move(Shape), std::move(Bytes));
  }

private:
  std::vector<int64_t> Shape;
  int64_t Size;
  std::string Bytes;
};

/// A copy of `T` with another shape (same element count), sharing its bytes.
TensorData reshaped(const TensorData &T, std::vector<int64_t> Shape);

// --- Shapes ------------------------------------------------------------------

/// TensorFlow's shape string, "[2,3]".
std::string shapeString(llvm::ArrayRef<int64_t> Shape);

/// The broadcast of two shapes as TensorFlow's BCast computes it, or
/// "Incompatible shapes: [a] vs. [b]".
absl::StatusOr<std::vector<int64_t>> broadcastShapes(const KernelContext &Ctx,
                                                     llvm::ArrayRef<int64_t> A,
                                                     llvm::ArrayRef<int64_t> B);

/// For each element of the broadcast shape `Out`, the index of the element of
/// an operand of shape `In` (right-aligned, size-1 dims repeated) that it reads.
std::vector<int64_t> broadcastIndex(llvm::ArrayRef<int64_t> In, llvm::ArrayRef<int64_t> Out);

/// A scalar integer input (int32 or int64) as int64, e.g. an axis.
absl::StatusOr<int64_t> scalarIntInput(const KernelContext &Ctx, size_t I, llvm::StringRef What);
/// A vector (or scalar) integer input (int32 or int64) as int64s, e.g. a shape.
absl::StatusOr<std::vector<int64_t>> intVectorInput(const KernelContext &Ctx, size_t I,
                                                    llvm::StringRef What);

// --- Kernels -----------------------------------------------------------------
#define FROST_KERNEL(OP, FN) absl::StatusOr<Outputs> FN(const KernelContext &Ctx);
#define FROST_RUN_KERNEL(OP, FN) FROST_KERNEL(OP, FN)
#include "Kernels.def"

} // namespace frost::eval

#endif // FROST_LIB_EVAL_KERNEL_H
