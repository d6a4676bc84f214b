//===- ValueFormatTest.cpp - numpy-style and exact JSON values ------------===//
#include "frost/Inspect/ValueFormat.h"

#include "gtest/gtest.h"

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace frost;
using namespace frost::inspect;

namespace {

TEST(ValueFormatTest, Floats) {
  EXPECT_EQ(formatFloat(2.0f, Style::Text), "2.");
  EXPECT_EQ(formatFloat(2.0f, Style::Json), "2.0");
  EXPECT_EQ(formatFloat(0.5f, Style::Text), "0.5");
  EXPECT_EQ(formatDouble(1e20, Style::Text), "1.e+20");
  EXPECT_EQ(formatDouble(-0.0, Style::Json), "-0.0");
  EXPECT_EQ(formatFloat(NAN, Style::Text), "nan");
  EXPECT_EQ(formatDouble(-INFINITY, Style::Json), "\"-inf\"");
}

TEST(ValueFormatTest, Float32SurvivesDoubleRounding) {
  // The one float32 whose shortest digits round to a neighbour via double.
  float V = std::bit_cast<float>(0x15ae43fdu);
  std::string Text = formatFloat(V, Style::Json);
  EXPECT_EQ(static_cast<float>(std::strtod(Text.c_str(), nullptr)), V) << Text;
}

TEST(ValueFormatTest, Elements) {
  const int32_t Ints[] = {1, -20, 300};
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Ints), sizeof(Ints));
  ElementFormatter F(tensorflow::DT_INT32, Bytes, {}, Style::Text);
  ASSERT_TRUE(F.supported());
  EXPECT_EQ(F(1), "-20");
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printArray(OS, {3}, F, F.padded(), /*Summarize=*/false);
  EXPECT_EQ(Out, "[  1 -20 300]\n");

  std::vector<std::string> Strings = {"a'b", std::string("\xff", 1)};
  ElementFormatter S(tensorflow::DT_STRING, {}, Strings, Style::Text);
  EXPECT_EQ(S(0), "b'a\\'b'");
  EXPECT_EQ(S(1), "b'\\xff'");
  EXPECT_FALSE(ElementFormatter(tensorflow::DT_VARIANT, {}, {}, Style::Text).supported());
}

TEST(ValueFormatTest, SummarizedArray) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printArray(OS, {2, 10}, [](uint64_t I) { return std::to_string(I); }, /*Pad=*/true,
             /*Summarize=*/true, /*EdgeItems=*/2);
  EXPECT_EQ(Out, "[[ 0  1 ...  8  9]\n [10 11 ... 18 19]]\n");
}

TEST(ValueFormatTest, JsonArray) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  {
    JsonWriter J(OS);
    writeJsonArray(J, {2, 2}, [](uint64_t I) { return std::to_string(I); });
  }
  EXPECT_EQ(Out, "[[0, 1], [2, 3]]\n");
}

TEST(ValueFormatTest, Plural) {
  EXPECT_EQ(plural(1, "shard"), "1 shard");
  EXPECT_EQ(plural(0, "tensor"), "0 tensors");
}

} // namespace
