//===- TensorSlice.cpp - Keys of partitioned-variable slices --------------===//
//
// TensorFlow's "ordered code": byte strings that sort like the values they
// encode. Unsigned numbers are a length byte and big-endian bytes; signed
// numbers carry their length in leading bits; strings escape 00 and ff and end
// with 00 01.
//
//===----------------------------------------------------------------------===//
#include "frost/Checkpoint/TensorSlice.h"
#include "frost/Tensor/Shape.h"
#include "frost/proto/tensor.pb.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/SmallVector.h"

namespace frost {

static void appendNumIncreasing(std::string &Out, uint64_t V) {
  char Buf[8];
  int Len = 0;
  for (; V; V >>= 8)
    Buf[7 - Len++] = static_cast<char>(V & 0xff);
  Out.push_back(static_cast<char>(Len));
  Out.append(Buf + 8 - Len, Len);
}

static bool consumeNumIncreasing(llvm::StringRef &In, uint64_t &V) {
  if (In.empty())
    return false;
  size_t Len = static_cast<uint8_t>(In[0]);
  if (Len > 8 || In.size() < Len + 1)
    return false;
  V = 0;
  for (size_t I = 1; I <= Len; ++I)
    V = (V << 8) | static_cast<uint8_t>(In[I]);
  In = In.drop_front(Len + 1);
  return true;
}

// Header bits of the first two bytes for each encoded length (1..10).
static const uint8_t LengthHeader[11][2] = {{0, 0},       {0x80, 0},    {0xc0, 0}, {0xe0, 0},
                                            {0xf0, 0},    {0xf8, 0},    {0xfc, 0}, {0xfe, 0},
                                            {0xff, 0},    {0xff, 0x80}, {0xff, 0xc0}};

static void appendSignedNumIncreasing(std::string &Out, int64_t V) {
  uint64_t Magnitude = V < 0 ? ~static_cast<uint64_t>(V) : static_cast<uint64_t>(V);
  if (Magnitude < 64) {
    Out.push_back(static_cast<char>(0x80 ^ static_cast<uint8_t>(V)));
    return;
  }
  // n bytes hold values in [-2^(7n-1), 2^(7n-1)).
  int Bits = 64 - __builtin_clzll(Magnitude);
  int Len = Bits / 7 + 1;
  uint8_t Buf[10];
  uint8_t Sign = V < 0 ? 0xff : 0;
  Buf[0] = Buf[1] = Sign;
  for (int I = 0; I < 8; ++I)
    Buf[2 + I] = static_cast<uint8_t>(static_cast<uint64_t>(V) >> (56 - 8 * I));
  uint8_t *Begin = Buf + 10 - Len;
  Begin[0] ^= LengthHeader[Len][0];
  Begin[1] ^= LengthHeader[Len][1];
  Out.append(reinterpret_cast<const char *>(Begin), Len);
}

static bool consumeSignedNumIncreasing(llvm::StringRef &In, int64_t &V) {
  if (In.empty())
    return false;
  uint8_t Invert = (static_cast<uint8_t>(In[0]) & 0x80) ? 0 : 0xff;
  uint8_t First = static_cast<uint8_t>(In[0]) ^ Invert;
  int Len;
  if (First != 0xff) {
    Len = __builtin_clz(static_cast<uint32_t>(static_cast<uint8_t>(~First)) << 24);
  } else {
    if (In.size() < 2)
      return false;
    uint8_t Second = static_cast<uint8_t>(In[1]) ^ Invert;
    Len = 8 + ((Second & 0x80) ? ((Second & 0x40) ? 2 : 1) : 0);
    if (Len == 10 && (Second & 0x20))
      return false;
  }
  if (Len < 1 || static_cast<size_t>(Len) > In.size())
    return false;
  uint8_t Buf[10];
  for (int I = 0; I < Len; ++I)
    Buf[I] = static_cast<uint8_t>(In[I]);
  Buf[0] ^= LengthHeader[Len][0];
  if (Len >= 2)
    Buf[1] ^= LengthHeader[Len][1];
  // Sign-extend from the restored big-endian two's complement bytes.
  uint64_t U = Invert ? ~0ull : 0;
  for (int I = 0; I < Len; ++I)
    U = (U << 8) | Buf[I];
  V = static_cast<int64_t>(U);
  // Only the canonical (shortest) encoding is accepted.
  std::string Check;
  appendSignedNumIncreasing(Check, V);
  if (Check != In.take_front(Len))
    return false;
  In = In.drop_front(Len);
  return true;
}

static void appendString(std::string &Out, llvm::StringRef S) {
  for (char C : S) {
    if (C == '\0') {
      Out.push_back('\0');
      Out.push_back('\xff');
    } else if (C == '\xff') {
      Out.push_back('\xff');
      Out.push_back('\0');
    } else {
      Out.push_back(C);
    }
  }
  Out.push_back('\0');
  Out.push_back('\x01');
}

static bool consumeString(llvm::StringRef &In, std::string &S) {
  S.clear();
  for (size_t I = 0; I + 1 < In.size(); ++I) {
    char C = In[I];
    if (C != '\0' && C != '\xff') {
      S.push_back(C);
      continue;
    }
    char Next = In[++I];
    if (C == '\0' && Next == '\x01') {
      In = In.drop_front(I + 1);
      return true;
    }
    if (C == '\0' && Next == '\xff')
      S.push_back('\0');
    else if (C == '\xff' && Next == '\0')
      S.push_back('\xff');
    else
      return false;
  }
  return false;
}

std::vector<SliceExtent> sliceExtents(const tensorflow::TensorSliceProto &Proto) {
  std::vector<SliceExtent> Out;
  Out.reserve(Proto.extent_size());
  for (const auto &E : Proto.extent())
    Out.push_back({E.start(), E.has_length() ? E.length() : -1});
  return Out;
}

std::string encodeTensorNameSlice(llvm::StringRef Name, llvm::ArrayRef<SliceExtent> Extents) {
  std::string Out;
  Out.reserve(Name.size() + 4 + 4 * Extents.size());
  appendNumIncreasing(Out, 0);
  appendString(Out, Name);
  appendNumIncreasing(Out, Extents.size());
  for (const SliceExtent &E : Extents) {
    appendSignedNumIncreasing(Out, E.Start);
    appendSignedNumIncreasing(Out, E.Length < 0 ? -1 : E.Length);
  }
  return Out;
}

std::string encodeTensorNameSlice(llvm::StringRef Name, const tensorflow::TensorSliceProto &Slice) {
  return encodeTensorNameSlice(Name, sliceExtents(Slice));
}

absl::Status decodeTensorNameSlice(llvm::StringRef Key, std::string &Name,
                                   std::vector<SliceExtent> &Extents) {
  auto Bad = [&](const char *What) {
    return absl::InvalidArgumentError(
        absl::StrCat("malformed slice key '", absl::CHexEscape(Key.str()), "': ", What));
  };
  llvm::StringRef In = Key;
  uint64_t Lead, Rank;
  if (!consumeNumIncreasing(In, Lead) || Lead != 0)
    return Bad("does not start with 0");
  if (!consumeString(In, Name))
    return Bad("bad tensor name");
  if (!consumeNumIncreasing(In, Rank) || Rank > In.size() / 2)
    return Bad("bad rank");
  Extents.clear();
  for (uint64_t D = 0; D < Rank; ++D) {
    SliceExtent E;
    if (!consumeSignedNumIncreasing(In, E.Start) || !consumeSignedNumIncreasing(In, E.Length))
      return Bad("bad extent");
    if (E.Length < 0)
      E.Length = -1;
    Extents.push_back(E);
  }
  if (!In.empty())
    return Bad("trailing bytes");
  return absl::OkStatus();
}

absl::StatusOr<std::vector<int64_t>> sliceShape(llvm::ArrayRef<int64_t> Shape,
                                                llvm::ArrayRef<SliceExtent> Extents) {
  if (Extents.size() != Shape.size())
    return absl::InvalidArgumentError(absl::StrCat("slice has rank ", Extents.size(),
                                                   " but the tensor has rank ", Shape.size()));
  std::vector<int64_t> Out;
  Out.reserve(Shape.size());
  for (size_t D = 0; D < Shape.size(); ++D) {
    const SliceExtent &E = Extents[D];
    if (E.isFull()) {
      if (E.Start != 0)
        return absl::InvalidArgumentError(
            absl::StrCat("dimension ", D, ": full extent with start ", E.Start));
      Out.push_back(Shape[D]);
      continue;
    }
    if (E.Start < 0 || E.Start > Shape[D] || E.Length > Shape[D] - E.Start)
      return absl::InvalidArgumentError(absl::StrCat("dimension ", D, ": extent [", E.Start, ", +",
                                                     E.Length, ") outside [0, ", Shape[D], ")"));
    Out.push_back(E.Length);
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// Slice specs
//===----------------------------------------------------------------------===//

absl::StatusOr<SliceSpec> parseSliceSpec(llvm::StringRef Spec) {
  SliceSpec Out;
  Spec = Spec.trim();
  if (Spec.empty())
    return Out;
  auto bad = [&](llvm::StringRef Why) {
    return absl::InvalidArgumentError(
        absl::StrCat("malformed slice spec '", Spec.str(), "': ", Why.str()));
  };
  llvm::SmallVector<llvm::StringRef, 8> Words;
  Spec.split(Words, ' ', -1, /*KeepEmpty=*/false);
  if (Words.size() < 2)
    return bad("expected the full shape, then the slice");
  for (llvm::StringRef W : llvm::ArrayRef(Words).drop_back()) {
    int64_t Dim;
    if (W.getAsInteger(10, Dim) || Dim < 0)
      return bad(absl::StrCat("dimension '", W.str(), "' is not a size"));
    Out.FullShape.push_back(Dim);
  }
  llvm::SmallVector<llvm::StringRef, 8> Dims;
  Words.back().split(Dims, ':');
  if (Dims.size() != Out.FullShape.size())
    return bad(absl::StrCat("the slice has ", Dims.size(), " dimensions, the shape ",
                            Out.FullShape.size()));
  for (size_t I = 0; I < Dims.size(); ++I) {
    SliceExtent E;
    if (Dims[I] != "-") {
      auto [StartText, LengthText] = Dims[I].split(',');
      if (StartText.getAsInteger(10, E.Start) || LengthText.getAsInteger(10, E.Length) ||
          E.Start < 0 || E.Length < 0 || E.Start + E.Length > Out.FullShape[I])
        return bad(absl::StrCat("extent '", Dims[I].str(), "' does not fit dimension ", I,
                                " of size ", Out.FullShape[I]));
    }
    Out.Extents.push_back(E);
  }
  return Out;
}

std::string formatSliceSpec(const SliceSpec &Spec) {
  if (Spec.isWhole())
    return "";
  std::vector<std::string> Extents;
  for (const SliceExtent &E : Spec.Extents)
    Extents.push_back(E.isFull() ? "-" : absl::StrCat(E.Start, ",", E.Length));
  return absl::StrCat(absl::StrJoin(Spec.FullShape, " "), " ", absl::StrJoin(Extents, ":"));
}

absl::StatusOr<TensorData> cutSlice(const TensorData &Full, const SliceSpec &Spec) {
  llvm::ArrayRef<int64_t> Shape = Full.shape();
  if (Spec.Extents.size() != Shape.size())
    return absl::InvalidArgumentError(absl::StrCat("slice '", formatSliceSpec(Spec),
                                                   "' does not fit shape ", formatShape(Shape)));
  std::vector<int64_t> Start(Shape.size(), 0), Size(Shape.begin(), Shape.end());
  for (size_t D = 0; D < Shape.size(); ++D)
    if (!Spec.Extents[D].isFull()) {
      Start[D] = Spec.Extents[D].Start;
      Size[D] = Spec.Extents[D].Length;
    }
  return sliceTensor(Full, Start, std::move(Size));
}

} // namespace frost
