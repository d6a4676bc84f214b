//===- PipelineParserTest.cpp - Printed pipelines parse back the same -----===//
#include "frost/Pass/PassManager.h"
#include "frost/Pass/PassRegistry.h"
#include "frost/Transforms/Passes.h"

#include "gtest/gtest.h"

#include "AllPasses.h"

using namespace frost;

namespace {

const PassRegistry &registry() { return allPassesRegistry(); }

/// Parses `Text`, prints it, and checks the print parses to the same value.
std::string roundTrip(const std::string &Text) {
  PassManager PM;
  absl::Status S = parsePassPipeline(Text, registry(), PM);
  EXPECT_TRUE(S.ok()) << S;
  std::string Printed = PM.printPipeline();
  PassManager Again;
  S = parsePassPipeline(Printed, registry(), Again);
  EXPECT_TRUE(S.ok()) << Printed << ": " << S;
  EXPECT_EQ(Again.printPipeline(), Printed);
  return Printed;
}

TEST(PipelineParserTest, ValuesWithAnyWhitespaceAreQuoted) {
  // Unquoted values are trimmed, so a value that starts with a newline (or
  // any other whitespace) must come back quoted (fuzzer finding).
  EXPECT_EQ(roundTrip("ema-remap{ema=\"\n\na:b\"}"), "ema-remap{ema=\"\n\na:b\"}");
  EXPECT_EQ(roundTrip("ema-remap{ema=\"\tx\r\"}"), "ema-remap{ema=\"\tx\r\"}");
  EXPECT_EQ(roundTrip("ema-remap{ema=\"a\\\"b\"}"), "ema-remap{ema=\"a\\\"b\"}");
  EXPECT_EQ(roundTrip("ema-remap{ema=plain}"), "ema-remap{ema=plain}");
}

TEST(PipelineParserTest, ListItemsAreTrimmedAndKeptApart) {
  EXPECT_EQ(roundTrip("prune{outputs= a ;\nb }"), "prune{outputs=a;b}");
  EXPECT_EQ(roundTrip("bind-placeholders{bind=\"p=1;s={1,2}\"}"),
            "bind-placeholders{bind=\"p=1;s={1,2}\"}");
}

} // namespace
