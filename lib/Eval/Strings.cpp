//===- Strings.cpp - String ops: hashing, joining, splitting, converting --===//
//
// TensorFlow's string kernels over DT_STRING tensors (bytes, no encoding
// assumed), with their checks and messages: StringToHashBucketFast (FarmHash's
// Fingerprint64), StringJoin, StringLength, StringLower/StringUpper (ASCII;
// ICU's case mapping for non-ASCII UTF-8 is not reproduced), Substr (in bytes
// or UTF-8 characters), AsString (printf formats as TensorFlow builds them),
// StringToNumber (absl's number parsers, as TensorFlow's), StringSplitV2
// (Python's str.split), and (Static)RegexReplace and (Static)RegexFullMatch
// through RE2, the library TensorFlow's kernels use.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"
#include "ElementwiseSupport.h"
#include "Farmhash.h"
#include "Regex.h"

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/SipHash.h"

#include <cstdio>
#include <limits>
#include <memory>

namespace frost::eval {

namespace {

using tensorflow::DataType;

absl::Status checkString(const KernelContext &Ctx, size_t I) {
  return checkDType(Ctx, Ctx.input(I).dtype(), dtypes::String);
}

TensorData stringsLike(const TensorData &Shape, std::vector<std::string> Elements) {
  return TensorData::strings(tensorflow::DT_STRING, shapeVector(Shape), std::move(Elements));
}

/// TensorFlow's error text shows a string as Python's bytes literal would
/// not: raw, between b' and '.
std::string quoted(llvm::StringRef S) { return absl::StrCat("b'", S.str(), "'"); }

/// A byte that continues a UTF-8 character (10xxxxxx): TensorFlow counts
/// characters as the bytes that are not, whether or not the string is UTF-8.
bool isContinuation(char C) { return (static_cast<unsigned char>(C) & 0xC0) == 0x80; }

} // namespace

absl::StatusOr<Outputs> evalStringToHashBucketFast(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_RETURN_IF_ERROR(checkString(Ctx, 0));
  FROST_ASSIGN_OR_RETURN(int64_t Buckets, Ctx.intAttr("num_buckets"));
  if (Buckets < 1)
    return Ctx.invalid(absl::StrCat("num_buckets must be >= 1, got ", Buckets));
  const TensorData &In = Ctx.input(0);
  OutputOf<int64_t> Out(shapeVector(In));
  for (int64_t I = 0; I < Out.size(); ++I)
    Out[I] = static_cast<int64_t>(fingerprint64(In.elements()[I]) % uint64_t(Buckets));
  return Outputs{std::move(Out).finish()};
}

// StringToHashBucketStrong: SipHash-2-4 keyed by the two 64-bit words of
// `key` (little-endian bytes, as highwayhash's SipHash reads them).
absl::StatusOr<Outputs> evalStringToHashBucketStrong(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_RETURN_IF_ERROR(checkString(Ctx, 0));
  FROST_ASSIGN_OR_RETURN(int64_t Buckets, Ctx.intAttr("num_buckets"));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Key, Ctx.intListAttr("key"));
  if (Key.size() != 2)
    return Ctx.invalid("Key must have 2 elements");
  if (Buckets < 1)
    return Ctx.invalid(absl::StrCat("num_buckets must be >= 1, got ", Buckets));
  uint8_t KeyBytes[16];
  for (int W = 0; W < 2; ++W)
    llvm::support::endian::write64le(KeyBytes + 8 * W, static_cast<uint64_t>(Key[W]));
  const TensorData &In = Ctx.input(0);
  OutputOf<int64_t> Out(shapeVector(In));
  for (int64_t I = 0; I < Out.size(); ++I) {
    llvm::StringRef S = In.elements()[I];
    uint8_t Hash[8];
    llvm::getSipHash_2_4_64(llvm::arrayRefFromStringRef(S), KeyBytes, Hash);
    Out[I] = static_cast<int64_t>(llvm::support::endian::read64le(Hash) % uint64_t(Buckets));
  }
  return Outputs{std::move(Out).finish()};
}

absl::StatusOr<Outputs> evalStringJoin(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1, /*AtLeast=*/true));
  FROST_ASSIGN_OR_RETURN(std::string Separator, Ctx.stringAttr("separator", ""));
  const TensorData *Shaped = nullptr;
  for (size_t I = 0; I < Ctx.numInputs(); ++I) {
    FROST_RETURN_IF_ERROR(checkString(Ctx, I));
    const TensorData &In = Ctx.input(I);
    if (In.shape().empty())
      continue;
    if (!Shaped)
      Shaped = &In;
    else if (Shaped->shape() != In.shape())
      return Ctx.invalid(absl::StrCat("Input shapes do not match: ", shapeOf(*Shaped), " vs. ",
                                      shapeOf(In)));
  }
  const TensorData &Shape = Shaped ? *Shaped : Ctx.input(0);
  const int64_t Count = Shape.numElements();
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, tensorflow::DT_STRING, Shape.shape()).status());
  std::vector<std::string> Out(static_cast<size_t>(Count));
  std::vector<absl::string_view> Parts(Ctx.numInputs());
  for (int64_t E = 0; E < Count; ++E) {
    for (size_t I = 0; I < Ctx.numInputs(); ++I) {
      const TensorData &In = Ctx.input(I);
      Parts[I] = In.elements()[In.shape().empty() ? 0 : E];
    }
    Out[E] = absl::StrJoin(Parts, Separator);
  }
  return Outputs{stringsLike(Shape, std::move(Out))};
}

absl::StatusOr<Outputs> evalStringLength(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_RETURN_IF_ERROR(checkString(Ctx, 0));
  FROST_ASSIGN_OR_RETURN(std::string Unit, Ctx.stringAttr("unit", "BYTE"));
  if (Unit != "BYTE" && Unit != "UTF8_CHAR")
    return Ctx.invalid(absl::StrCat("unit must be BYTE or UTF8_CHAR, got ", Unit));
  const TensorData &In = Ctx.input(0);
  OutputOf<int32_t> Out(shapeVector(In));
  for (int64_t I = 0; I < Out.size(); ++I) {
    llvm::StringRef S = In.elements()[I];
    if (Unit == "BYTE") {
      Out[I] = static_cast<int32_t>(S.size());
    } else {
      int32_t N = 0;
      for (char C : S)
        N += !isContinuation(C);
      Out[I] = N;
    }
  }
  return Outputs{std::move(Out).finish()};
}

namespace {
absl::StatusOr<Outputs> changeCase(const KernelContext &Ctx, bool Upper) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_RETURN_IF_ERROR(checkString(Ctx, 0));
  FROST_ASSIGN_OR_RETURN(std::string Encoding, Ctx.stringAttr("encoding", ""));
  if (!Encoding.empty() && Encoding != "utf-8")
    return Ctx.invalid(absl::StrCat("encoding ", Encoding, " is not supported"));
  const TensorData &In = Ctx.input(0);
  std::vector<std::string> Out(In.elements().begin(), In.elements().end());
  for (std::string &S : Out) {
    // UTF-8 case mapping is ICU's; on ASCII it is the ASCII mapping.
    if (!Encoding.empty() && llvm::any_of(S, [](char C) { return (C & 0x80) != 0; }))
      return Ctx.unimplemented("case mapping of non-ASCII UTF-8 (ICU's) is not implemented");
    Upper ? absl::AsciiStrToUpper(&S) : absl::AsciiStrToLower(&S);
  }
  return Outputs{stringsLike(In, std::move(Out))};
}
} // namespace

absl::StatusOr<Outputs> evalStringLower(const KernelContext &Ctx) { return changeCase(Ctx, false); }
absl::StatusOr<Outputs> evalStringUpper(const KernelContext &Ctx) { return changeCase(Ctx, true); }

namespace {

/// Where TensorFlow's Substr in UTF8_CHAR units cuts, in bytes.
struct Utf8Span {
  size_t Start, Length;
};

/// TensorFlow's character steps (its ForwardNUTF8CharPositions and
/// BackNUTF8CharPositions): a character is a byte that does not continue one
/// (10xxxxxx) and the bytes that do, valid UTF-8 or not. True when all `Count`
/// steps were taken; a negative count takes none and is false.
bool stepForward(llvm::StringRef S, int64_t Count, size_t &At) {
  int64_t Taken = 0;
  for (; Taken < Count && At < S.size(); ++Taken)
    do
      ++At;
    while (At < S.size() && isContinuation(S[At]));
  return Taken == Count;
}

bool stepBack(llvm::StringRef S, int64_t Count, size_t &At) {
  int64_t Taken = 0;
  for (; Taken < Count && At > 0; ++Taken)
    do
      --At;
    while (isContinuation(S[At]) && At > 0);
  return Taken == Count;
}

/// `Pos` and `Len` in characters as TensorFlow's kernel takes them: a negative
/// position counts from the end, a length is capped at either end (so a
/// negative one from a non-negative position is empty). Its -pos - len is
/// exact, as TensorFlow's build computes it (TF-checked with the extreme
/// lengths). std::nullopt where TensorFlow reports pos out of range.
std::optional<Utf8Span> utf8Span(llvm::StringRef S, int64_t Pos, int64_t Len) {
  size_t Start = 0, End;
  if (Pos >= 0) {
    if (!stepForward(S, Pos, Start))
      return std::nullopt;
    End = Start;
    stepForward(S, Len, End);
    return Utf8Span{Start, End - Start};
  }
  // From the end: first back over what lies beyond the substring, then over
  // the substring itself. No string has 2^63 characters: a count past that
  // fails as the exact one would.
  auto Count = [](__int128 N) {
    return static_cast<int64_t>(std::min<__int128>(N, std::numeric_limits<int64_t>::max()));
  };
  __int128 Beyond = std::max<__int128>(0, -static_cast<__int128>(Pos) - Len);
  End = S.size();
  if (!stepBack(S, Count(Beyond), End))
    return std::nullopt;
  Start = End;
  if (!stepBack(S, Count(-static_cast<__int128>(Pos) - Beyond), Start))
    return std::nullopt;
  return Utf8Span{Start, End - Start};
}

} // namespace

absl::StatusOr<Outputs> evalSubstr(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  FROST_RETURN_IF_ERROR(checkString(Ctx, 0));
  FROST_ASSIGN_OR_RETURN(std::string Unit, Ctx.stringAttr("unit", "BYTE"));
  if (Unit != "BYTE" && Unit != "UTF8_CHAR")
    return Ctx.invalid(absl::StrCat("unit must be BYTE or UTF8_CHAR, got ", Unit));
  const bool Characters = Unit == "UTF8_CHAR";
  const TensorData &In = Ctx.input(0), &Pos = Ctx.input(1), &Len = Ctx.input(2);
  if (Pos.shape() != Len.shape())
    return Ctx.invalid(absl::StrCat("pos and len should have the same shape, got: ", shapeOf(Pos),
                                    " vs. ", shapeOf(Len)));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> PosValues, intElements(Ctx, 1));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> LenValues, intElements(Ctx, 2));
  // The strings and positions broadcast against each other, the output
  // bounded before anything is allocated. TensorFlow's broadcasting path
  // (shapes that differ, pos not a scalar) takes at most 2 dims and names
  // an element of a 2-D output by its row and column.
  FROST_ASSIGN_OR_RETURN(elementwise::StringBroadcast B,
                         elementwise::broadcastStrings(Ctx, In, Pos));
  const bool Broadcasts = !Pos.shape().empty() && Pos.shape() != In.shape();
  if (Broadcasts && B.Shape.size() > 2)
    return Ctx.invalid(
        absl::StrCat("Substr broadcast not implemented for ", B.Shape.size(), " dimensions"));
  auto IndexName = [&](int64_t I) {
    if (Broadcasts && B.Shape.size() == 2)
      return absl::StrCat("(", I / B.Shape[1], ", ", I % B.Shape[1], ")");
    return absl::StrCat(I);
  };
  std::vector<std::string> Out(B.IndexX.size());
  for (size_t I = 0; I < Out.size(); ++I) {
    llvm::StringRef S = In.elements()[B.IndexX[I]];
    int64_t P = PosValues[B.IndexY[I]], L = LenValues[B.IndexY[I]];
    if (Characters) {
      std::optional<Utf8Span> Span = utf8Span(S, P, L);
      // Of a 2-D output, TensorFlow's UTF8_CHAR message names the row only.
      if (!Span)
        return Ctx.invalid(absl::StrCat("pos ", P, " out of range for string at index ",
                                        Broadcasts && B.Shape.size() == 2 ? I / B.Shape[1] : I));
      Out[I] = S.substr(Span->Start, Span->Length).str();
      continue;
    }
    if (std::abs(P) > static_cast<int64_t>(S.size()))
      return Ctx.invalid(absl::StrCat("pos ", P, " out of range for string ", quoted(S),
                                      " at index ", IndexName(I)));
    size_t Start = P < 0 ? S.size() + P : P;
    // A negative length, taken as unsigned, reaches the end of the string.
    Out[I] = S.substr(Start, static_cast<size_t>(L)).str();
  }
  return Outputs{TensorData::strings(tensorflow::DT_STRING, std::move(B.Shape), std::move(Out))};
}

absl::StatusOr<Outputs> evalStringToNumber(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_RETURN_IF_ERROR(checkString(Ctx, 0));
  FROST_ASSIGN_OR_RETURN(DataType Type, Ctx.typeAttr("out_type"));
  const TensorData &In = Ctx.input(0);
  return dispatch<Float32 | Float64 | Int32 | Int64>(
      Ctx, Type, [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        OutputOf<T> Out(shapeVector(In));
        for (int64_t I = 0; I < Out.size(); ++I) {
          llvm::StringRef S = In.elements()[I];
          // TensorFlow 2.21 reads numbers with absl's SimpleAtof/SimpleAtod/
          // SimpleAtoi: spaces around, a sign, hex, "inf", "infinity", "nan".
          absl::string_view View(S.data(), S.size());
          bool Ok;
          if constexpr (std::is_same_v<T, float>)
            Ok = absl::SimpleAtof(View, &Out[I]);
          else if constexpr (std::is_same_v<T, double>)
            Ok = absl::SimpleAtod(View, &Out[I]);
          else
            Ok = absl::SimpleAtoi(View, &Out[I]);
          if (!Ok)
            return Ctx.invalid(
                absl::StrCat("StringToNumberOp could not correctly convert string: ", S.str()));
        }
        return Outputs{std::move(Out).finish()};
      });
}

absl::StatusOr<Outputs> evalAsString(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  const TensorData &In = Ctx.input(0);
  FROST_ASSIGN_OR_RETURN(int64_t Precision, Ctx.intAttr("precision", -1));
  FROST_ASSIGN_OR_RETURN(bool Scientific, Ctx.boolAttr("scientific", false));
  FROST_ASSIGN_OR_RETURN(bool Shortest, Ctx.boolAttr("shortest", false));
  FROST_ASSIGN_OR_RETURN(int64_t Width, Ctx.intAttr("width", -1));
  FROST_ASSIGN_OR_RETURN(std::string Fill, Ctx.stringAttr("fill", ""));
  DataType DType = In.dtype();
  bool IsFloat = DType == tensorflow::DT_FLOAT || DType == tensorflow::DT_DOUBLE ||
                 DType == tensorflow::DT_HALF || DType == tensorflow::DT_BFLOAT16;
  if (Scientific && Shortest)
    return Ctx.invalid("Cannot select both scientific and shortest notation");
  if (Fill.size() > 1)
    return Ctx.invalid(absl::StrCat("Fill string must be one or fewer characters"));
  if (!IsFloat && (Scientific || Shortest || Precision > -1))
    return Ctx.unimplemented("precision, scientific and shortest apply to floats only");
  std::string Format = "%";
  if (!Fill.empty()) {
    if (llvm::StringRef(" +-0#").find(Fill[0]) == llvm::StringRef::npos)
      return Ctx.invalid(absl::StrCat("Fill argument not supported: \"", Fill, "\""));
    Format += Fill;
  }
  if (Width > -1)
    absl::StrAppend(&Format, Width);
  if (Precision > -1)
    absl::StrAppend(&Format, ".", Precision);
  auto Print = [&](const char *Conversion, auto Value) {
    std::string F = Format + Conversion;
    int N = std::snprintf(nullptr, 0, F.c_str(), Value);
    std::string S(N > 0 ? N : 0, '\0');
    std::snprintf(S.data(), S.size() + 1, F.c_str(), Value);
    return S;
  };
  const char *FloatConversion = Shortest ? "g" : Scientific ? "e" : "f";
  std::vector<std::string> Out(static_cast<size_t>(In.numElements()));
  auto Each = [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    ElementsOf<T> V(In);
    for (int64_t I = 0; I < V.size(); ++I) {
      if constexpr (std::is_same_v<T, bool>)
        Out[I] = V[I] ? "true" : "false"; // TensorFlow ignores width and fill
      else if constexpr (std::is_floating_point_v<T>)
        Out[I] = Print(FloatConversion, static_cast<double>(V[I]));
      else if constexpr (!std::is_integral_v<T>)
        Out[I] = Print(FloatConversion, static_cast<double>(static_cast<float>(V[I])));
      else if constexpr (std::is_signed_v<T>)
        Out[I] = Print("lld", static_cast<long long>(V[I]));
      else
        Out[I] = Print("llu", static_cast<unsigned long long>(V[I]));
    }
    return Outputs{stringsLike(In, std::move(Out))};
  };
  return dispatch<Floats | Ints | Bool>(Ctx, DType, Each);
}

absl::StatusOr<Outputs> evalStringSplitV2(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  FROST_RETURN_IF_ERROR(checkString(Ctx, 0));
  FROST_RETURN_IF_ERROR(checkString(Ctx, 1));
  FROST_ASSIGN_OR_RETURN(int64_t MaxSplit, Ctx.intAttr("maxsplit", -1));
  const TensorData &In = Ctx.input(0), &Sep = Ctx.input(1);
  if (In.shape().size() != 1)
    return Ctx.invalid(absl::StrCat("input must be a vector, got shape: ", shapeOf(In)));
  if (!Sep.shape().empty())
    return Ctx.invalid(absl::StrCat("sep must be a scalar, got shape: ", shapeOf(Sep)));
  llvm::StringRef Separator = Sep.elements()[0];
  std::vector<int64_t> Indices;
  std::vector<std::string> Values;
  int64_t Widest = 0;
  auto isSpace = [](char C) { return absl::ascii_isspace(static_cast<unsigned char>(C)); };
  for (int64_t Row = 0; Row < In.numElements(); ++Row) {
    llvm::StringRef S = In.elements()[Row];
    std::vector<llvm::StringRef> Tokens;
    if (Separator.empty()) {
      // Runs of whitespace separate, none at either end, as Python's split();
      // but TensorFlow's maxsplit keeps maxsplit 0's string whole and, after
      // maxsplit tokens, adds the rest past the spaces even when it is empty.
      if (MaxSplit == 0) {
        Tokens.push_back(S);
      } else {
        size_t P = 0;
        auto SkipSpaces = [&] {
          while (P < S.size() && isSpace(S[P]))
            ++P;
        };
        SkipSpaces();
        while (P < S.size()) {
          size_t End = P;
          while (End < S.size() && !isSpace(S[End]))
            ++End;
          Tokens.push_back(S.slice(P, End));
          P = End;
          SkipSpaces();
          if (static_cast<int64_t>(Tokens.size()) == MaxSplit) {
            Tokens.push_back(S.substr(P));
            break;
          }
        }
      }
    } else {
      size_t P = 0;
      while (true) {
        size_t Hit = MaxSplit >= 0 && static_cast<int64_t>(Tokens.size()) == MaxSplit
                         ? llvm::StringRef::npos
                         : S.find(Separator, P);
        if (Hit == llvm::StringRef::npos) {
          Tokens.push_back(S.substr(P));
          break;
        }
        Tokens.push_back(S.slice(P, Hit));
        P = Hit + Separator.size();
      }
    }
    for (size_t Col = 0; Col < Tokens.size(); ++Col) {
      Indices.push_back(Row);
      Indices.push_back(static_cast<int64_t>(Col));
      Values.push_back(Tokens[Col].str());
    }
    Widest = std::max<int64_t>(Widest, static_cast<int64_t>(Tokens.size()));
  }
  int64_t Count = static_cast<int64_t>(Values.size());
  OutputOf<int64_t> IndexOut({Count, 2});
  std::copy(Indices.begin(), Indices.end(), IndexOut.data());
  OutputOf<int64_t> ShapeOut({2});
  ShapeOut[0] = In.numElements();
  ShapeOut[1] = Widest;
  return Outputs{std::move(IndexOut).finish(),
                 TensorData::strings(tensorflow::DT_STRING, {Count}, std::move(Values)),
                 std::move(ShapeOut).finish()};
}

namespace {

absl::StatusOr<std::unique_ptr<re2::RE2>> compileRegex(const KernelContext &Ctx,
                                                       const std::string &Pattern) {
  std::unique_ptr<re2::RE2> Regex = compileTensorFlowRegex(Pattern);
  if (!Regex->ok())
    return Ctx.invalid(absl::StrCat("Invalid pattern: ", Pattern, ", error: ", Regex->error()));
  return Regex;
}

/// InvalidArgument unless input `I` is a scalar (`What` names it as TensorFlow does).
absl::Status checkScalar(const KernelContext &Ctx, size_t I, llvm::StringRef What) {
  const TensorData &T = Ctx.input(I);
  if (T.shape().empty())
    return absl::OkStatus();
  return Ctx.invalid(
      absl::StrCat(What.str(), " must be scalar, but received ", shapeOf(T)));
}

absl::StatusOr<Outputs> regexReplace(const KernelContext &Ctx, const re2::RE2 &Regex,
                                     const std::string &Rewrite, bool Global) {
  const TensorData &In = Ctx.input(0);
  // Bounded before replacing: each of the at most size + 1 matches writes the
  // rewrite's literal bytes, and each of its \N groups copies parts of
  // matches, which do not overlap: at most the whole string per group.
  uint64_t Bytes = 0;
  for (const std::string &S : In.elements()) {
    uint64_t Size = S.size(), Matches = Global ? Size + 1 : 1;
    Bytes += sizeof(std::string) + Size + Matches * Rewrite.size() + Rewrite.size() * Size;
    if (Bytes > MaxOutputBytes)
      return Ctx.unimplemented(absl::StrCat("output of shape ", shapeOf(In),
                                            " could be larger than a constant can hold (2 GiB)"));
  }
  FROST_RETURN_IF_ERROR(Ctx.checkTensorBytes(Bytes, shapeVector(In)));
  std::vector<std::string> Out(In.elements().begin(), In.elements().end());
  for (std::string &S : Out) {
    if (Global)
      re2::RE2::GlobalReplace(&S, Regex, Rewrite);
    else
      re2::RE2::Replace(&S, Regex, Rewrite);
  }
  return Outputs{stringsLike(In, std::move(Out))};
}

absl::StatusOr<Outputs> regexFullMatch(const KernelContext &Ctx, const re2::RE2 &Regex) {
  const TensorData &In = Ctx.input(0);
  OutputOf<bool> Out(shapeVector(In));
  for (int64_t I = 0; I < Out.size(); ++I)
    Out[I] = re2::RE2::FullMatch(In.elements()[I], Regex);
  return Outputs{std::move(Out).finish()};
}

} // namespace

// Each kernel compiles its pattern once, in TensorFlow's order of checks: the
// pattern (its shape, then RE2's verdict) before the rewrite.

absl::StatusOr<Outputs> evalStaticRegexReplace(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_RETURN_IF_ERROR(checkString(Ctx, 0));
  FROST_ASSIGN_OR_RETURN(std::string Pattern, Ctx.stringAttr("pattern"));
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<re2::RE2> Regex, compileRegex(Ctx, Pattern));
  FROST_ASSIGN_OR_RETURN(std::string Rewrite, Ctx.stringAttr("rewrite"));
  FROST_ASSIGN_OR_RETURN(bool Global, Ctx.boolAttr("replace_global", true));
  return regexReplace(Ctx, *Regex, Rewrite, Global);
}

absl::StatusOr<Outputs> evalRegexReplace(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  for (size_t I = 0; I < 3; ++I)
    FROST_RETURN_IF_ERROR(checkString(Ctx, I));
  FROST_ASSIGN_OR_RETURN(bool Global, Ctx.boolAttr("replace_global", true));
  FROST_RETURN_IF_ERROR(checkScalar(Ctx, 1, "Pattern"));
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<re2::RE2> Regex,
                         compileRegex(Ctx, Ctx.input(1).elements()[0]));
  FROST_RETURN_IF_ERROR(checkScalar(Ctx, 2, "Rewrite"));
  return regexReplace(Ctx, *Regex, Ctx.input(2).elements()[0], Global);
}

absl::StatusOr<Outputs> evalStaticRegexFullMatch(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_RETURN_IF_ERROR(checkString(Ctx, 0));
  FROST_ASSIGN_OR_RETURN(std::string Pattern, Ctx.stringAttr("pattern"));
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<re2::RE2> Regex, compileRegex(Ctx, Pattern));
  return regexFullMatch(Ctx, *Regex);
}

absl::StatusOr<Outputs> evalRegexFullMatch(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  FROST_RETURN_IF_ERROR(checkString(Ctx, 0));
  FROST_RETURN_IF_ERROR(checkString(Ctx, 1));
  FROST_RETURN_IF_ERROR(checkScalar(Ctx, 1, "Pattern"));
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<re2::RE2> Regex,
                         compileRegex(Ctx, Ctx.input(1).elements()[0]));
  return regexFullMatch(Ctx, *Regex);
}

std::unique_ptr<re2::RE2> compileTensorFlowRegex(const std::string &Pattern) {
  re2::RE2::Options Options;
  Options.set_log_errors(false);
  return std::make_unique<re2::RE2>(Pattern, Options);
}

} // namespace frost::eval
