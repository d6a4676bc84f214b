//===- SliceAssembly.cpp - Full tensors from stored slices ----------------===//
#include "Readers.h"

#include "absl/strings/str_cat.h"

#include <algorithm>

namespace frost {

using tensorflow::DataType;

/// The half-open interval a slice covers in dimension D.
static std::pair<int64_t, int64_t> interval(const std::vector<SliceExtent> &E, size_t D,
                                            int64_t Dim) {
  if (E[D].isFull())
    return {0, Dim};
  return {E[D].Start, E[D].Start + E[D].Length};
}

absl::StatusOr<TensorData> assembleSlices(DataType DType, const std::vector<int64_t> &Shape,
                                          llvm::ArrayRef<StoredSlice> Slices,
                                          llvm::StringRef Where) {
  FROST_ASSIGN_OR_RETURN(int64_t N, numElements(Shape));
  size_t Rank = Shape.size();
  // The slices must tile the tensor: pairwise disjoint and their sizes adding
  // up to the whole (which also bounds the allocation below by the bytes read).
  int64_t Covered = 0;
  for (size_t I = 0; I < Slices.size(); ++I) {
    const StoredSlice &A = Slices[I];
    assert(A.first.size() == Rank && "caller checks slice ranks");
    if (A.second.numElements() == 0)
      continue;
    if (__builtin_add_overflow(Covered, A.second.numElements(), &Covered) || Covered > N)
      return absl::DataLossError(absl::StrCat(Where.str(), ": slices overlap"));
    for (size_t J = 0; J < I; ++J) {
      const StoredSlice &B = Slices[J];
      if (B.second.numElements() == 0)
        continue;
      bool Disjoint = false;
      for (size_t D = 0; D < Rank && !Disjoint; ++D) {
        auto [A0, A1] = interval(A.first, D, Shape[D]);
        auto [B0, B1] = interval(B.first, D, Shape[D]);
        Disjoint = A1 <= B0 || B1 <= A0;
      }
      if (!Disjoint)
        return absl::DataLossError(
            absl::StrCat(Where.str(), ": slices ", J, " and ", I, " overlap"));
    }
  }
  if (Covered != N)
    return absl::DataLossError(absl::StrCat(Where.str(), ": slices cover ", Covered, " of ", N,
                                            " elements"));

  bool IsFixed = isFixedSizeDataType(DType);
  size_t Width = IsFixed ? dataTypeSize(DType) : 1;
  std::string Bytes;
  std::vector<std::string> Strings;
  if (IsFixed)
    Bytes.assign(static_cast<size_t>(N) * Width, '\0');
  else
    Strings.resize(static_cast<size_t>(N));

  // Row-major strides of the full tensor, in elements.
  std::vector<int64_t> Strides(Rank, 1);
  for (size_t D = Rank; D-- > 1;)
    Strides[D - 1] = Strides[D] * Shape[D];

  for (const StoredSlice &S : Slices) {
    int64_t Count = S.second.numElements();
    if (Count == 0)
      continue;
    if (Rank == 0) { // a scalar's only slice is the whole tensor
      if (IsFixed)
        Bytes.assign(S.second.bytes().data(), S.second.bytes().size());
      else
        Strings[0] = S.second.elements()[0];
      continue;
    }
    llvm::ArrayRef<int64_t> SliceDims = S.second.shape();
    int64_t Run = SliceDims[Rank - 1]; // contiguous elements per row
    std::vector<int64_t> Index(Rank, 0); // position within the slice
    for (int64_t Src = 0; Src < Count; Src += Run) {
      int64_t Dst = 0;
      for (size_t D = 0; D < Rank; ++D)
        Dst += (interval(S.first, D, Shape[D]).first + Index[D]) * Strides[D];
      if (IsFixed)
        std::memcpy(Bytes.data() + Dst * Width, S.second.bytes().data() + Src * Width,
                    static_cast<size_t>(Run) * Width);
      else
        std::copy_n(S.second.elements().begin() + Src, Run, Strings.begin() + Dst);
      // Advance the multi-index over all but the last dimension.
      for (size_t D = Rank - 1; D-- > 0;) {
        if (++Index[D] < SliceDims[D])
          break;
        Index[D] = 0;
      }
    }
  }
  if (IsFixed)
    return TensorData::owned(DType, Shape, std::move(Bytes));
  return TensorData::strings(DType, Shape, std::move(Strings));
}

} // namespace frost
