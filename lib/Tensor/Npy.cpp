//===- Npy.cpp - Tensors as numpy's .npy files ----------------------------===//
//
// The header grammar is numpy's (numpy/lib/format.py, versions 1.0 to 3.0):
// "\x93NUMPY", major and minor version bytes, the header's length (2 bytes
// in 1.0, 4 after), then a dict literal with exactly the keys 'descr',
// 'fortran_order' and 'shape', ending in a newline.
//
//===----------------------------------------------------------------------===//
#include "frost/Tensor/Npy.h"

#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Endian.h"

#include <new>
#include <optional>

namespace frost {

using tensorflow::DataType;

namespace {

constexpr llvm::StringLiteral Magic("\x93NUMPY");

/// numpy's type characters with their item sizes, and TensorFlow's dtypes.
struct NpyType {
  char Kind;
  unsigned Size;
  DataType DType;
};
constexpr NpyType NpyTypes[] = {
    {'b', 1, tensorflow::DT_BOOL},       {'i', 1, tensorflow::DT_INT8},
    {'i', 2, tensorflow::DT_INT16},      {'i', 4, tensorflow::DT_INT32},
    {'i', 8, tensorflow::DT_INT64},      {'u', 1, tensorflow::DT_UINT8},
    {'u', 2, tensorflow::DT_UINT16},     {'u', 4, tensorflow::DT_UINT32},
    {'u', 8, tensorflow::DT_UINT64},     {'f', 2, tensorflow::DT_HALF},
    {'f', 4, tensorflow::DT_FLOAT},      {'f', 8, tensorflow::DT_DOUBLE},
    {'c', 8, tensorflow::DT_COMPLEX64},  {'c', 16, tensorflow::DT_COMPLEX128}};

/// The header's dict literal, read token by token.
class HeaderReader {
public:
  explicit HeaderReader(llvm::StringRef Text) : Rest(Text) {}

  bool consume(char C) {
    Rest = Rest.ltrim();
    if (!Rest.consume_front(llvm::StringRef(&C, 1)))
      return false;
    return true;
  }
  bool peek(char C) {
    Rest = Rest.ltrim();
    return Rest.starts_with(llvm::StringRef(&C, 1));
  }
  /// A quoted string without escapes (numpy writes none in a header).
  std::optional<std::string> string() {
    Rest = Rest.ltrim();
    if (Rest.empty() || (Rest.front() != '\'' && Rest.front() != '"'))
      return std::nullopt;
    char Quote = Rest.front();
    size_t End = Rest.find(Quote, 1);
    if (End == llvm::StringRef::npos || Rest.substr(1, End - 1).contains('\\'))
      return std::nullopt;
    std::string S = Rest.substr(1, End - 1).str();
    Rest = Rest.drop_front(End + 1);
    return S;
  }
  std::optional<llvm::StringRef> word() {
    Rest = Rest.ltrim();
    size_t End = Rest.find_if_not([](char C) { return llvm::isAlnum(C) || C == '_'; });
    llvm::StringRef W = Rest.take_front(End);
    if (W.empty())
      return std::nullopt;
    Rest = Rest.drop_front(W.size());
    return W;
  }
  bool atEnd() { return Rest.trim().empty(); }

private:
  llvm::StringRef Rest;
};

struct Header {
  std::string Descr;
  bool FortranOrder = false;
  std::vector<int64_t> Shape;
};

absl::StatusOr<Header> parseHeader(llvm::StringRef Text, llvm::StringRef Name) {
  auto bad = [&](llvm::StringRef Why) {
    return absl::InvalidArgumentError(
        absl::StrCat(Name.str(), ": not a .npy file: its header ", Why.str()));
  };
  HeaderReader R(Text);
  Header H;
  bool SeenDescr = false, SeenOrder = false, SeenShape = false;
  if (!R.consume('{'))
    return bad("is not a dict");
  while (!R.consume('}')) {
    std::optional<std::string> Key = R.string();
    if (!Key || !R.consume(':'))
      return bad("is not a dict of quoted keys");
    if (*Key == "descr") {
      if (R.peek('['))
        return absl::InvalidArgumentError(absl::StrCat(
            Name.str(), ": a structured array (a list as its dtype) cannot be a tensor"));
      std::optional<std::string> D = R.string();
      if (!D)
        return bad("has no quoted 'descr'");
      H.Descr = *D;
      SeenDescr = true;
    } else if (*Key == "fortran_order") {
      std::optional<llvm::StringRef> W = R.word();
      if (!W || (*W != "True" && *W != "False"))
        return bad("has a 'fortran_order' that is neither True nor False");
      H.FortranOrder = *W == "True";
      SeenOrder = true;
    } else if (*Key == "shape") {
      if (!R.consume('('))
        return bad("has a 'shape' that is not a tuple");
      while (!R.consume(')')) {
        std::optional<llvm::StringRef> W = R.word();
        int64_t D;
        if (!W || W->getAsInteger(10, D) || D < 0)
          return bad("has a 'shape' that is not a tuple of sizes");
        H.Shape.push_back(D);
        if (!R.consume(',') && !R.peek(')'))
          return bad("has a 'shape' that is not a tuple of sizes");
      }
      SeenShape = true;
    } else {
      return bad(absl::StrCat("has the unknown key '", *Key, "'"));
    }
    if (!R.consume(',') && !R.peek('}'))
      return bad("is not a dict");
  }
  if (!R.atEnd() || !SeenDescr || !SeenOrder || !SeenShape)
    return bad("lacks 'descr', 'fortran_order' or 'shape'");
  return H;
}

/// Fixed-width strings: bytes ('S', NULs at the end dropped) or UCS-4 ('U').
absl::StatusOr<TensorData> decodeStrings(char Kind, bool BigEndian, unsigned Width,
                                         std::vector<int64_t> Shape, int64_t Count,
                                         llvm::StringRef Data, llvm::StringRef Name) {
  std::vector<std::string> Elements;
  Elements.reserve(static_cast<size_t>(Count));
  size_t Item = Kind == 'U' ? Width * 4 : Width;
  for (int64_t I = 0; I < Count; ++I) {
    llvm::StringRef Raw = Data.substr(I * Item, Item);
    if (Kind == 'S') {
      Elements.push_back(Raw.rtrim('\0').str());
      continue;
    }
    std::vector<llvm::UTF32> Code(Width);
    for (unsigned K = 0; K < Width; ++K)
      Code[K] = BigEndian ? llvm::support::endian::read32be(Raw.data() + 4 * K)
                          : llvm::support::endian::read32le(Raw.data() + 4 * K);
    while (!Code.empty() && Code.back() == 0)
      Code.pop_back();
    std::string Utf8;
    if (!Code.empty() && !llvm::convertUTF32ToUTF8String(Code, Utf8))
      return absl::InvalidArgumentError(absl::StrCat(
          Name.str(), ": element ", I, " is not valid unicode (a code point over U+10FFFF)"));
    Elements.push_back(std::move(Utf8));
  }
  return TensorData::strings(tensorflow::DT_STRING, std::move(Shape), std::move(Elements));
}

} // namespace

absl::StatusOr<TensorData> decodeNpy(llvm::StringRef Bytes, llvm::StringRef Name) {
  if (!Bytes.starts_with(Magic) || Bytes.size() < Magic.size() + 4)
    return absl::InvalidArgumentError(
        absl::StrCat(Name.str(), ": not a .npy file (no \\x93NUMPY magic at its start)"));
  auto Major = static_cast<unsigned char>(Bytes[6]);
  auto Minor = static_cast<unsigned char>(Bytes[7]);
  if (Major < 1 || Major > 3 || Minor != 0)
    return absl::InvalidArgumentError(absl::StrCat(Name.str(), ": .npy format version ", Major,
                                                   ".", Minor, " is not 1.0, 2.0 or 3.0"));
  size_t LengthBytes = Major == 1 ? 2 : 4;
  if (Bytes.size() < 8 + LengthBytes)
    return absl::InvalidArgumentError(absl::StrCat(Name.str(), ": truncated .npy header"));
  uint64_t HeaderLength = Major == 1 ? llvm::support::endian::read16le(Bytes.data() + 8)
                                     : llvm::support::endian::read32le(Bytes.data() + 8);
  size_t Start = 8 + LengthBytes;
  if (HeaderLength > Bytes.size() - Start)
    return absl::InvalidArgumentError(absl::StrCat(
        Name.str(), ": truncated .npy header (", HeaderLength, " bytes said, ",
        Bytes.size() - Start, " there)"));
  FROST_ASSIGN_OR_RETURN(Header H, parseHeader(Bytes.substr(Start, HeaderLength), Name));
  llvm::StringRef Data = Bytes.drop_front(Start + HeaderLength);
  if (H.FortranOrder && H.Shape.size() > 1)
    return absl::InvalidArgumentError(absl::StrCat(
        Name.str(), ": Fortran order is not supported: save it in C order "
                    "(numpy.ascontiguousarray)"));

  // descr: a byte order ('<', '>', '|', '='), a kind, an item size.
  llvm::StringRef Descr = H.Descr;
  bool BigEndian = Descr.consume_front(">");
  if (!BigEndian && !Descr.consume_front("<") && !Descr.consume_front("|"))
    Descr.consume_front("=");
  char Kind = Descr.empty() ? '\0' : Descr.front();
  unsigned Size = 0;
  if (Kind == 'O')
    return absl::InvalidArgumentError(absl::StrCat(
        Name.str(), ": an object array (dtype 'O') cannot be read without running Python: save "
                    "strings as bytes (dtype 'S') or unicode (dtype 'U')"));
  if (Descr.empty() || Descr.drop_front().getAsInteger(10, Size) || Size == 0)
    return absl::InvalidArgumentError(
        absl::StrCat(Name.str(), ": unsupported dtype '", H.Descr, "'"));
  absl::StatusOr<int64_t> Elements = numElements(H.Shape);
  if (!Elements.ok())
    return absl::InvalidArgumentError(absl::StrCat(Name.str(), ": ", Elements.status().message()));
  int64_t Count = *Elements;
  uint64_t Item = Kind == 'U' ? uint64_t{Size} * 4 : Size;
  if (Count != 0 && Item > UINT64_MAX / static_cast<uint64_t>(Count))
    return absl::InvalidArgumentError(absl::StrCat(Name.str(), ": shape ", formatShape(H.Shape),
                                                   " of '", H.Descr, "' is too large"));
  if (Data.size() != Item * static_cast<uint64_t>(Count))
    return absl::InvalidArgumentError(absl::StrCat(
        Name.str(), ": shape ", formatShape(H.Shape), " of '", H.Descr, "' needs ",
        Item * static_cast<uint64_t>(Count), " bytes of data, the file has ", Data.size()));
  if (Kind == 'S' || Kind == 'U')
    return decodeStrings(Kind, BigEndian, Size, std::move(H.Shape), Count, Data, Name);
  for (const NpyType &T : NpyTypes) {
    if (T.Kind != Kind || T.Size != Size)
      continue;
    std::string Elements;
    try {
      Elements = Data.str();
    } catch (const std::bad_alloc &) {
      return absl::ResourceExhaustedError(
          absl::StrCat(Name.str(), ": no memory for its ", Data.size(), " bytes"));
    }
    if (BigEndian && Size > 1)
      byteSwapElements(T.DType, Elements.data(), Elements.size());
    return TensorData::owned(T.DType, std::move(H.Shape), std::move(Elements));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      Name.str(), ": unsupported dtype '", H.Descr,
      "' (bool, int8..int64, uint8..uint64, float16/32/64, complex64/128 and strings are)"));
}

absl::StatusOr<std::string> encodeNpy(const TensorData &T, llvm::StringRef Name) {
  std::string Descr, Data;
  if (T.dtype() == tensorflow::DT_STRING) {
    size_t Width = 1;
    for (const std::string &E : T.elements())
      Width = std::max(Width, E.size());
    Descr = absl::StrCat("|S", Width);
    Data.reserve(Width * T.elements().size());
    for (const std::string &E : T.elements()) {
      Data += E;
      Data.append(Width - E.size(), '\0');
    }
  } else {
    for (const NpyType &Type : NpyTypes)
      if (Type.DType == T.dtype())
        Descr = absl::StrCat(Type.Size == 1 ? "|" : "<", std::string(1, Type.Kind), Type.Size);
    if (Descr.empty())
      return absl::InvalidArgumentError(
          absl::StrCat(Name.str(), " is ", dataTypeName(T.dtype()),
                       ", which numpy has no dtype for: cast it in the graph"));
    Data = T.bytes().str();
  }
  std::vector<std::string> Dims;
  for (int64_t D : T.shape())
    Dims.push_back(std::to_string(D));
  std::string Dict = absl::StrCat("{'descr': '", Descr, "', 'fortran_order': False, 'shape': (",
                                  absl::StrJoin(Dims, ", "), Dims.size() == 1 ? ",), }" : "), }");
  // numpy pads the header with spaces and a newline so the data starts on a
  // 64-byte boundary; version 2.0 only when the length needs 4 bytes.
  bool Version2 = Dict.size() + 1 + 10 + 64 > 0xffff;
  size_t Prefix = Version2 ? 12 : 10;
  size_t Total = Prefix + Dict.size() + 1;
  Dict.append((64 - Total % 64) % 64, ' ');
  Dict += '\n';
  std::string Bytes = Magic.str();
  Bytes += static_cast<char>(Version2 ? 2 : 1);
  Bytes += '\0';
  char Length[4];
  if (Version2) {
    llvm::support::endian::write32le(Length, static_cast<uint32_t>(Dict.size()));
    Bytes.append(Length, 4);
  } else {
    llvm::support::endian::write16le(Length, static_cast<uint16_t>(Dict.size()));
    Bytes.append(Length, 2);
  }
  Bytes += Dict;
  Bytes += Data;
  return Bytes;
}

} // namespace frost
