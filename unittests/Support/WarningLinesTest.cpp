//===- WarningLinesTest.cpp - Only the warnings of a notes stream ---------===//
#include "frost/Support/WarningLines.h"

#include "gtest/gtest.h"

#include <string>

namespace frost {
namespace {

TEST(WarningLinesTest, PassesWholeWarningLinesOnly) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  {
    WarningLines Warnings(OS);
    Warnings << "note: read 3 nodes\nwarn";
    Warnings << "ing: first ";
    Warnings << "one\n";
    Warnings << "  warning: indented is not one\nnote: warning: neither\n";
    Warnings << "warning: the last, unterminated";
  }
  EXPECT_EQ(Out, "warning: first one\nwarning: the last, unterminated");
}

} // namespace
} // namespace frost
