//===- Json.h - JSON documents whose strings are byte strings ---*- C++ -*-===//
//
// The JSON that frost-inspect --json and freeze-graph's report print:
// llvm::json::OStream indented by 2, one member a line, with two additions the
// tests and readers rely on. Strings are byte strings: each byte becomes the
// code point of the same value (printable ASCII literally, the rest \u00XX),
// so node names and checkpoint keys that are not UTF-8 survive; decode with
// `.encode("latin-1")`. Arrays opened `Inline` print on one line with
// everything in them ("shape": [-1, 1]).
//
//===----------------------------------------------------------------------===//
#ifndef FROST_SUPPORT_JSON_H
#define FROST_SUPPORT_JSON_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace frost {

/// `Bytes` as a quoted JSON string in JsonWriter's byte encoding.
std::string jsonString(llvm::StringRef Bytes);

/// A streaming writer over llvm::json::OStream. Every value goes through
/// OStream::rawValue, already spelled: strings by jsonString, numbers as the
/// caller formats them, inline arrays whole.
class JsonWriter {
public:
  explicit JsonWriter(llvm::raw_ostream &OS) : OS(OS), J(OS, /*IndentSize=*/2) {}
  /// Ends the document with a newline.
  ~JsonWriter();

  void objectBegin();
  void objectEnd();
  void arrayBegin(bool Inline = false);
  void arrayEnd();
  /// The next member's name (inside an object). Names are spelled like
  /// strings, except that bytes from 0x7f up are written as the UTF-8 of
  /// their code point (the same JSON value): OStream quotes names itself.
  void key(llvm::StringRef Name);

  void string(llvm::StringRef Bytes) { raw(jsonString(Bytes)); }
  /// A number or literal already spelled as JSON.
  void raw(llvm::StringRef Text);
  void number(int64_t V) { raw(std::to_string(V)); }
  void number(uint64_t V) { raw(std::to_string(V)); }
  void number(int V) { number(static_cast<int64_t>(V)); }
  void number(unsigned V) { number(static_cast<uint64_t>(V)); }
  void boolean(bool V) { raw(V ? "true" : "false"); }
  void null() { raw("null"); }

  /// `["a", "b"]` / `[2, 3]` on one line (tags, shapes).
  void inlineArray(llvm::ArrayRef<std::string> Items) {
    arrayBegin(/*Inline=*/true);
    for (const std::string &I : Items)
      string(I);
    arrayEnd();
  }
  void inlineArray(llvm::ArrayRef<int64_t> Items) {
    arrayBegin(/*Inline=*/true);
    for (int64_t I : Items)
      number(I);
    arrayEnd();
  }

  /// Shorthands for a member.
  template <typename T> void member(llvm::StringRef Name, const T &V) {
    key(Name);
    value(V);
  }

private:
  void value(llvm::StringRef V) { string(V); }
  void value(const std::string &V) { string(V); }
  void value(const char *V) { string(V); }
  void value(bool V) { boolean(V); }
  void value(int V) { number(V); }
  void value(int64_t V) { number(V); }
  void value(uint64_t V) { number(V); }
  void value(unsigned V) { number(V); }

  /// Closes the member whose value was just written.
  void valueDone();

  llvm::raw_ostream &OS;
  llvm::json::OStream J;
  /// Per open object or (non-inline) array: whether a member's value is being
  /// written, which closes the member when done; always false for arrays.
  llvm::SmallVector<bool, 8> InMember;
  /// The inline array being spelled, and per open level of it whether it
  /// holds a value yet.
  std::string Inline;
  llvm::SmallVector<bool, 4> InlineHasValue;
};

} // namespace frost

#endif // FROST_SUPPORT_JSON_H
