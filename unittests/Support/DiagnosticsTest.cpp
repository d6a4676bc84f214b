//===- DiagnosticsTest.cpp - A job's notes and warnings -------------------===//
#include "frost/Pass/Pass.h"
#include "frost/Support/Context.h"

#include "gtest/gtest.h"

#include <string>

using namespace frost;

namespace {

TEST(DiagnosticsTest, KeptInOrderAndPrintedOnlyWhereAsked) {
  Context Ctx;
  Ctx.diagnostics().note("before anyone listens");
  std::string All, Warnings;
  llvm::raw_string_ostream AllOS(All), WarningsOS(Warnings);
  Ctx.diagnostics().printTo(AllOS);
  Ctx.diagnostics().warning("w1");
  Ctx.diagnostics().note("n1");
  Ctx.diagnostics().printTo(WarningsOS, Diagnostics::Shown::WarningsOnly);
  Ctx.diagnostics().note("n2");
  Ctx.diagnostics().warning("w2");
  EXPECT_EQ(All, "warning: w1\nnote: n1\n");
  EXPECT_EQ(Warnings, "warning: w2\n");
  std::vector<Diagnostic> Kept = Ctx.diagnostics().all();
  ASSERT_EQ(Kept.size(), 5u);
  EXPECT_EQ(Kept[0].Message, "before anyone listens");
  EXPECT_EQ(Kept[0].Level, Severity::Note);
  EXPECT_EQ(Kept[4].Level, Severity::Warning);
  EXPECT_EQ(Ctx.diagnostics().warnings(), (std::vector<std::string>{"w1", "w2"}));
}

TEST(DiagnosticsTest, PassRemarksAreTheirJobs) {
  Context First, Second;
  PassContext FirstPasses(First);
  FirstPasses.warning("fold-constants", "left computed");
  PassContext SecondPasses(Second);
  SecondPasses.note("prune", "nothing to do");
  EXPECT_EQ(First.diagnostics().warnings(),
            (std::vector<std::string>{"fold-constants: left computed"}));
  ASSERT_EQ(Second.diagnostics().all().size(), 1u);
  EXPECT_EQ(Second.diagnostics().all()[0].Message, "prune: nothing to do");
  EXPECT_TRUE(Second.diagnostics().warnings().empty());
}

} // namespace
