//===- JsonTest.cpp - JSON documents whose strings are byte strings -------===//
#include "frost/Support/Json.h"

#include "gtest/gtest.h"

using namespace frost;

namespace {

TEST(JsonTest, LayoutAndInlineArrays) {
  std::string Out;
  {
    llvm::raw_string_ostream OS(Out);
    JsonWriter J(OS);
    J.objectBegin();
    J.member("name", "a\"b\\c\n");
    J.key("shape");
    J.arrayBegin(/*Inline=*/true);
    J.number(-1);
    J.arrayBegin(true);
    J.raw("2.0");
    J.string("x");
    J.arrayEnd();
    J.arrayBegin(true);
    J.arrayEnd();
    J.arrayEnd();
    J.key("list");
    J.arrayBegin();
    J.objectBegin();
    J.member("n", uint64_t(18446744073709551615ULL));
    J.objectEnd();
    J.objectBegin();
    J.objectEnd();
    J.null();
    J.arrayEnd();
    J.key("empty");
    J.arrayBegin();
    J.arrayEnd();
    J.member("ok", true);
    J.objectEnd();
  }
  EXPECT_EQ(Out, R"({
  "name": "a\"b\\c\n",
  "shape": [-1, [2.0, "x"], []],
  "list": [
    {
      "n": 18446744073709551615
    },
    {},
    null
  ],
  "empty": [],
  "ok": true
}
)");
}

TEST(JsonTest, StringsAreByteStrings) {
  EXPECT_EQ(jsonString(llvm::StringRef("\x00\x1f\x7f\xc3\xa9\xff", 6)),
            R"("\u0000\u001f\u007f\u00c3\u00a9\u00ff")");
  std::string Out;
  {
    llvm::raw_string_ostream OS(Out);
    JsonWriter J(OS);
    J.objectBegin();
    J.member("k\x01", "\xff"); // invalid UTF-8 as a value is fine
    J.member("\xe9", 1);       // a name: code point U+00E9 in UTF-8
    J.objectEnd();
  }
  EXPECT_EQ(Out, "{\n  \"k\\u0001\": \"\\u00ff\",\n  \"\xc3\xa9\": 1\n}\n");
}

TEST(JsonTest, TopLevelScalar) {
  std::string Out;
  {
    llvm::raw_string_ostream OS(Out);
    JsonWriter J(OS);
    J.string("s");
  }
  EXPECT_EQ(Out, "\"s\"\n");
}

} // namespace
