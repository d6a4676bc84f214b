//===- ValueFormat.cpp - Tensor values, numpy-like or exact JSON ----------===//
#include "frost/Inspect/ValueFormat.h"

#include "frost/Support/Escape.h"
#include "frost/Support/Json.h"
#include "frost/Tensor/SmallFloat.h"
#include "frost/proto/tensor.pb.h"

#include "llvm/ADT/STLExtras.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace frost::inspect {

using tensorflow::DataType;

//===----------------------------------------------------------------------===//
// Names and counts
//===----------------------------------------------------------------------===//

std::string plural(uint64_t N, llvm::StringRef Noun) {
  return std::to_string(N) + " " + Noun.str() + (N == 1 ? "" : "s");
}

//===----------------------------------------------------------------------===//
// Floats
//===----------------------------------------------------------------------===//

namespace {

template <typename T> std::string shortest(T V) {
  char Buf[64];
  auto R = std::to_chars(Buf, Buf + sizeof(Buf), V);
  return std::string(Buf, R.ptr);
}

std::string nonFinite(double V, Style S) {
  const char *Text = std::isnan(V) ? "nan" : V < 0 ? "-inf" : "inf";
  return S == Style::Json ? std::string("\"") + Text + "\"" : std::string(Text);
}

/// numpy spells integral floats "2." and "1.e+20".
std::string numpyStyle(std::string Digits) {
  if (Digits.find('.') != std::string::npos)
    return Digits;
  size_t E = Digits.find('e');
  if (E == std::string::npos)
    return Digits + ".";
  return Digits.insert(E, ".");
}

/// JSON parsers read "-0" and "2" as integers; keep them floats.
std::string jsonFloat(std::string Digits) {
  if (Digits.find_first_of(".e") == std::string::npos)
    Digits += ".0";
  return Digits;
}

/// The shortest "%.Ng" spelling of `V` that is strictly nearer to `V` than to
/// its neighbours `Below` and `Above` in a small float format, so any correct
/// rounding maps it back.
std::string shortestBetween(double V, double Below, double Above) {
  char Buf[64];
  for (int Precision = 1; Precision <= 17; ++Precision) {
    std::snprintf(Buf, sizeof(Buf), "%.*g", Precision, V);
    double D = std::strtod(Buf, nullptr);
    if (std::fabs(D - V) < std::fabs(D - Below) && std::fabs(D - V) < std::fabs(D - Above))
      break;
  }
  return Buf;
}

using Decoder = llvm::function_ref<double(uint32_t)>;

/// Formats the small-float value with magnitude bits `Mag` (sign separate).
std::string formatSmallFloat(bool Negative, uint32_t Mag, uint32_t MaxMag, Decoder Decode,
                             Style S) {
  double V = Decode(Mag);
  if (Negative)
    V = -V;
  if (!std::isfinite(V))
    return nonFinite(V, S);
  if (S == Style::Json)
    return jsonFloat(shortest(V));
  double Abs = std::fabs(V);
  double Below = Mag ? Decode(Mag - 1) : -Decode(1);
  double Above = Mag < MaxMag ? Decode(Mag + 1) : std::numeric_limits<double>::infinity();
  if (!std::isfinite(Above))
    Above = Abs + (Abs - Below);
  // Respell the digits found the way to_chars picks fixed or scientific.
  double Rounded = std::strtod(shortestBetween(Abs, Below, Above).c_str(), nullptr);
  return numpyStyle((Negative ? "-" : "") + shortest(Rounded));
}

} // namespace

std::string formatFloat(float V, Style S) {
  if (!std::isfinite(V))
    return nonFinite(V, S);
  std::string Digits = shortest(V);
  if (S == Style::Text)
    return numpyStyle(std::move(Digits));
  // JSON readers parse a double and then round it to float32. For one float32
  // (bits 0x15ae43fd, shortest "7.038531e-26"; found by trying all 2^32) that
  // double rounding lands on a neighbour, so fall back to the exact value.
  if (static_cast<float>(std::strtod(Digits.c_str(), nullptr)) != V)
    Digits = shortest(static_cast<double>(V));
  return jsonFloat(std::move(Digits));
}

std::string formatDouble(double V, Style S) {
  if (!std::isfinite(V))
    return nonFinite(V, S);
  return S == Style::Json ? jsonFloat(shortest(V)) : numpyStyle(shortest(V));
}

//===----------------------------------------------------------------------===//
// Elements
//===----------------------------------------------------------------------===//

namespace {

template <typename T> T load(llvm::StringRef Bytes, uint64_t I) {
  T V;
  std::memcpy(&V, Bytes.data() + I * sizeof(T), sizeof(T));
  return V;
}

/// Python's bytes repr: b'...'.
std::string bytesRepr(llvm::StringRef Bytes) {
  return "b'" + escapeBytes(Bytes, '\'', ByteEscape::Hex) + "'";
}

std::string complexText(const std::string &Re, const std::string &Im, bool ImNegative,
                        Style S) {
  if (S == Style::Json)
    return "[" + Re + ", " + Im + "]";
  return Re + (ImNegative ? "" : "+") + Im + "j";
}

} // namespace

bool ElementFormatter::supported() const {
  if (DType == tensorflow::DT_STRING)
    return true;
  switch (DType) {
  case tensorflow::DT_INVALID:
  case tensorflow::DT_RESOURCE:
  case tensorflow::DT_VARIANT:
    return false;
  default:
    return DType < 100 && (minifloatFormat(DType) || DType <= tensorflow::DT_UINT2);
  }
}

bool ElementFormatter::padded() const { return DType != tensorflow::DT_STRING; }

std::string ElementFormatter::operator()(uint64_t I) const {
  switch (DType) {
  case tensorflow::DT_FLOAT:
    return formatFloat(load<float>(Bytes, I), S);
  case tensorflow::DT_DOUBLE:
    return formatDouble(load<double>(Bytes, I), S);
  case tensorflow::DT_HALF:
  case tensorflow::DT_BFLOAT16: {
    uint16_t Bits = load<uint16_t>(Bytes, I);
    bool Half = DType == tensorflow::DT_HALF;
    auto Decode = [Half](uint32_t Mag) {
      return Half ? halfToDouble(Mag) : bfloat16ToDouble(Mag);
    };
    return formatSmallFloat(Bits & 0x8000, Bits & 0x7fff, Half ? 0x7bff : 0x7f7f, Decode, S);
  }
  case tensorflow::DT_COMPLEX64: {
    float Re = load<float>(Bytes, 2 * I), Im = load<float>(Bytes, 2 * I + 1);
    return complexText(formatFloat(Re, S), formatFloat(Im, S), std::signbit(Im) && !std::isnan(Im), S);
  }
  case tensorflow::DT_COMPLEX128: {
    double Re = load<double>(Bytes, 2 * I), Im = load<double>(Bytes, 2 * I + 1);
    return complexText(formatDouble(Re, S), formatDouble(Im, S), std::signbit(Im) && !std::isnan(Im), S);
  }
  case tensorflow::DT_BOOL:
    return load<uint8_t>(Bytes, I) ? (S == Style::Json ? "true" : "True")
                                   : (S == Style::Json ? "false" : "False");
  case tensorflow::DT_INT8:
  case tensorflow::DT_QINT8:
    return std::to_string(load<int8_t>(Bytes, I));
  case tensorflow::DT_UINT8:
  case tensorflow::DT_QUINT8:
    return std::to_string(load<uint8_t>(Bytes, I));
  case tensorflow::DT_INT16:
  case tensorflow::DT_QINT16:
    return std::to_string(load<int16_t>(Bytes, I));
  case tensorflow::DT_UINT16:
  case tensorflow::DT_QUINT16:
    return std::to_string(load<uint16_t>(Bytes, I));
  case tensorflow::DT_INT32:
  case tensorflow::DT_QINT32:
    return std::to_string(load<int32_t>(Bytes, I));
  case tensorflow::DT_UINT32:
    return std::to_string(load<uint32_t>(Bytes, I));
  case tensorflow::DT_INT64:
    return std::to_string(load<int64_t>(Bytes, I));
  case tensorflow::DT_UINT64:
    return std::to_string(load<uint64_t>(Bytes, I));
  // Sub-byte integers take a byte each; sign-extend from their own width.
  case tensorflow::DT_INT4:
    return std::to_string(static_cast<int8_t>(load<uint8_t>(Bytes, I) << 4) >> 4);
  case tensorflow::DT_UINT4:
    return std::to_string(load<uint8_t>(Bytes, I) & 0xf);
  case tensorflow::DT_INT2:
    return std::to_string(static_cast<int8_t>(load<uint8_t>(Bytes, I) << 6) >> 6);
  case tensorflow::DT_UINT2:
    return std::to_string(load<uint8_t>(Bytes, I) & 0x3);
  case tensorflow::DT_STRING:
    if (S == Style::Json)
      return jsonString(Strings[I]);
    if (MaxStringBytes && Strings[I].size() > MaxStringBytes)
      return bytesRepr(llvm::StringRef(Strings[I]).take_front(MaxStringBytes)) + "...(" +
             std::to_string(Strings[I].size()) + " bytes)";
    return bytesRepr(Strings[I]);
  default:
    break;
  }
  if (std::optional<MinifloatFormat> F = minifloatFormat(DType)) {
    uint32_t SignBit = F->signBit();
    uint32_t Bits = load<uint8_t>(Bytes, I) & ((1u << F->width()) - 1);
    if (F->Special == MinifloatFormat::FNUZ && Bits == SignBit)
      return nonFinite(std::numeric_limits<double>::quiet_NaN(), S);
    auto Decode = [&](uint32_t Mag) { return F->decodeMagnitude(Mag); };
    return formatSmallFloat(Bits & SignBit, Bits & (SignBit - 1), F->maxFiniteMagnitude(), Decode,
                            S);
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Arrays
//===----------------------------------------------------------------------===//

namespace {

/// The indices shown along a dimension of size `Size`; -1 marks "...".
llvm::SmallVector<int64_t, 8> visibleIndices(int64_t Size, bool Summarize, unsigned Edge) {
  llvm::SmallVector<int64_t, 8> Out;
  if (Summarize && Size > 2 * static_cast<int64_t>(Edge)) {
    for (int64_t I = 0; I < Edge; ++I)
      Out.push_back(I);
    Out.push_back(-1);
    for (int64_t I = Size - Edge; I < Size; ++I)
      Out.push_back(I);
    return Out;
  }
  for (int64_t I = 0; I < Size; ++I)
    Out.push_back(I);
  return Out;
}

struct ArrayRenderer {
  llvm::raw_ostream &OS;
  llvm::ArrayRef<int64_t> Shape;
  std::vector<uint64_t> Strides;
  llvm::function_ref<std::string(uint64_t)> Element;
  bool Summarize;
  unsigned Edge;
  size_t Width = 0;

  template <typename Fn> void forEachVisible(size_t Dim, uint64_t Base, Fn &&F) {
    for (int64_t I : visibleIndices(Shape[Dim], Summarize, Edge)) {
      if (I < 0)
        continue;
      uint64_t Index = Base + static_cast<uint64_t>(I) * Strides[Dim];
      if (Dim + 1 == Shape.size())
        F(Index);
      else
        forEachVisible(Dim + 1, Index, F);
    }
  }

  void render(size_t Dim, uint64_t Base) {
    OS << "[";
    bool First = true;
    size_t Rank = Shape.size();
    for (int64_t I : visibleIndices(Shape[Dim], Summarize, Edge)) {
      if (!First) {
        if (Dim + 1 == Rank) {
          OS << " ";
        } else {
          OS << std::string(Rank - Dim - 1, '\n');
          OS.indent(Dim + 1);
        }
      }
      First = false;
      if (I < 0) {
        OS << "...";
        continue;
      }
      uint64_t Index = Base + static_cast<uint64_t>(I) * Strides[Dim];
      if (Dim + 1 == Rank) {
        std::string Text = Element(Index);
        OS.indent(Width > Text.size() ? Width - Text.size() : 0) << Text;
      } else {
        render(Dim + 1, Index);
      }
    }
    OS << "]";
  }
};

std::vector<uint64_t> rowMajorStrides(llvm::ArrayRef<int64_t> Shape) {
  std::vector<uint64_t> Strides(Shape.size(), 1);
  for (size_t I = Shape.size(); I > 1; --I)
    Strides[I - 2] = Strides[I - 1] * static_cast<uint64_t>(Shape[I - 1]);
  return Strides;
}

} // namespace

void printArray(llvm::raw_ostream &OS, llvm::ArrayRef<int64_t> Shape,
                llvm::function_ref<std::string(uint64_t)> Element, bool Pad, bool Summarize,
                unsigned EdgeItems) {
  if (Shape.empty()) {
    OS << Element(0) << "\n";
    return;
  }
  if (llvm::is_contained(Shape, 0)) {
    OS << "[]\n";
    return;
  }
  ArrayRenderer R{OS, Shape, rowMajorStrides(Shape), Element, Summarize, EdgeItems};
  if (Pad)
    R.forEachVisible(0, 0, [&](uint64_t I) { R.Width = std::max(R.Width, Element(I).size()); });
  R.render(0, 0);
  OS << "\n";
}

void writeJsonArray(JsonWriter &J, llvm::ArrayRef<int64_t> Shape,
                    llvm::function_ref<std::string(uint64_t)> Element) {
  if (Shape.empty()) {
    J.raw(Element(0));
    return;
  }
  std::vector<uint64_t> Strides = rowMajorStrides(Shape);
  auto Write = [&](auto &Self, size_t Dim, uint64_t Base) -> void {
    J.arrayBegin(/*Inline=*/true);
    for (int64_t I = 0; I < Shape[Dim]; ++I) {
      uint64_t Index = Base + static_cast<uint64_t>(I) * Strides[Dim];
      if (Dim + 1 == Shape.size())
        J.raw(Element(Index));
      else
        Self(Self, Dim + 1, Index);
    }
    J.arrayEnd();
  };
  Write(Write, 0, 0);
}

} // namespace frost::inspect
