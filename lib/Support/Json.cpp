//===- Json.cpp - JSON documents whose strings are byte strings -----------===//
#include "frost/Support/Json.h"

#include "frost/Support/Escape.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ConvertUTF.h"

#include <cassert>

namespace frost {

std::string jsonString(llvm::StringRef Bytes) {
  return "\"" + escapeBytes(Bytes, '"', ByteEscape::Unicode) + "\"";
}

JsonWriter::~JsonWriter() {
  assert(InMember.empty() && InlineHasValue.empty() && "unbalanced JSON");
  OS << "\n";
}

void JsonWriter::valueDone() {
  if (!InMember.empty() && InMember.back()) {
    InMember.back() = false;
    J.attributeEnd();
  }
}

void JsonWriter::key(llvm::StringRef Name) {
  assert(!InMember.empty() && !InMember.back() && InlineHasValue.empty() &&
         "a member name belongs in an object");
  InMember.back() = true;
  // Bytes below 0x7f are quoted by OStream as jsonString quotes them.
  if (llvm::all_of(Name, [](char C) { return static_cast<unsigned char>(C) < 0x7f; })) {
    J.attributeBegin(Name);
    return;
  }
  // Byte B is code point B, as in jsonString; OStream wants valid UTF-8.
  std::string Utf8;
  for (unsigned char C : Name) {
    char Buf[UNI_MAX_UTF8_BYTES_PER_CODE_POINT];
    char *End = Buf;
    llvm::ConvertCodePointToUTF8(C, End);
    Utf8.append(Buf, End);
  }
  J.attributeBegin(Utf8);
}

void JsonWriter::objectBegin() {
  assert(InlineHasValue.empty() && "no objects inside inline arrays");
  J.objectBegin();
  InMember.push_back(false);
}

void JsonWriter::objectEnd() {
  assert(!InMember.empty() && !InMember.back());
  InMember.pop_back();
  J.objectEnd();
  valueDone();
}

void JsonWriter::arrayBegin(bool IsInline) {
  if (InlineHasValue.empty() && !IsInline) {
    J.arrayBegin();
    InMember.push_back(false);
    return;
  }
  if (InlineHasValue.empty())
    Inline = "[";
  else
    raw("[");
  InlineHasValue.push_back(false);
}

void JsonWriter::arrayEnd() {
  if (InlineHasValue.empty()) {
    InMember.pop_back();
    J.arrayEnd();
    valueDone();
    return;
  }
  InlineHasValue.pop_back();
  Inline += "]";
  if (InlineHasValue.empty()) {
    J.rawValue(Inline);
    valueDone();
  }
}

void JsonWriter::raw(llvm::StringRef Text) {
  if (InlineHasValue.empty()) {
    J.rawValue(Text);
    valueDone();
    return;
  }
  if (InlineHasValue.back())
    Inline += ", ";
  InlineHasValue.back() = true;
  Inline += Text;
}

} // namespace frost
