//===- ArgParserTest.cpp - The tools' one argument parser ------------------===//
#include "../../lib/Tools/ArgParser.h"
#include "frost/Tools/InspectMain.h"
#include "frost/Tools/OptMain.h"

#include "gtest/gtest.h"

using namespace frost;

namespace {

struct Flags {
  std::vector<std::string> Tags = {"serve"}, Tensors, Outputs = {"default"};
  bool Json = false;
};

ArgParser makeParser(Flags &F) {
  using K = ArgParser::Kind;
  ArgParser P;
  P.add({{"tags"}, K::Value, "TAG,...", "", ArgParser::appendCommaList(F.Tags), ""});
  P.add({{"tensor"}, K::Value, "NAME", "", ArgParser::appendString(F.Tensors), ""});
  P.add({{"output_nodes"}, K::Value, "NAMES", "", ArgParser::storeCommaList(F.Outputs), ""});
  P.add({{"json"}, K::Bool, "", "", ArgParser::storeFlag(F.Json), ""});
  return P;
}

absl::Status parse(Flags &F, std::vector<const char *> Args,
                   std::vector<std::string> *Positional = nullptr) {
  std::vector<std::string> Rest;
  return makeParser(F).parse(Args, Positional ? *Positional : Rest);
}

TEST(ArgParserTest, RepeatedListsAppendAfterReplacingTheDefault) {
  Flags F;
  ASSERT_TRUE(parse(F, {"--tags", "a, b", "--tags=c", "--tensor=x,y", "--tensor", "z"}).ok());
  EXPECT_EQ(F.Tags, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(F.Tensors, (std::vector<std::string>{"x,y", "z"}));
  Flags Default;
  ASSERT_TRUE(parse(Default, {}).ok());
  EXPECT_EQ(Default.Tags, (std::vector<std::string>{"serve"}));
}

TEST(ArgParserTest, StoredListsKeepTheLastValue) {
  Flags F;
  ASSERT_TRUE(parse(F, {"--output_nodes=a,b", "--output-nodes", "c"}).ok());
  EXPECT_EQ(F.Outputs, (std::vector<std::string>{"c"}));
}

TEST(ArgParserTest, PrefixesAndBooleans) {
  Flags F;
  std::vector<std::string> Positional;
  ASSERT_TRUE(parse(F, {"--js=true", "model", "--tag", "t"}, &Positional).ok());
  EXPECT_TRUE(F.Json);
  EXPECT_EQ(F.Tags, (std::vector<std::string>{"t"}));
  EXPECT_EQ(Positional, (std::vector<std::string>{"model"}));
  absl::Status S = parse(F, {"--t", "x"});
  EXPECT_EQ(S.message(), "ambiguous option '--t' could be --tags, --tensor");
}

TEST(ArgParserTest, Subcommands) {
  std::vector<llvm::StringRef> Names = {"checkpoint", "graph"};
  absl::StatusOr<size_t> Found = findSubcommand("graph", Names);
  ASSERT_TRUE(Found.ok());
  EXPECT_EQ(*Found, 1u);
  EXPECT_EQ(findSubcommand("chekpoint", Names).status().message(),
            "unknown subcommand 'chekpoint'; did you mean 'checkpoint'? (see --help)");
  // A control byte is never echoed as it is.
  EXPECT_EQ(findSubcommand("a\nb", Names).status().message(),
            "unknown subcommand 'a\\nb' (see --help)");
}

} // namespace

namespace {

// Nothing of a command line is process-wide (llvm::cl's options were): every
// tool runs again in the same process, as `python -m frost` runs them.
TEST(ArgParserTest, ToolsRunTwiceInOneProcess) {
  for (int Run = 0; Run < 2; ++Run) {
    std::string Opt = "frost-opt", Inspect = "frost-inspect", Sub = "graph";
    std::string Version = "--version", Bogus = "--bogus";
    char *OptArgs[] = {Opt.data(), Version.data(), nullptr};
    EXPECT_EQ(frostOptMain(2, OptArgs), 0);
    char *InspectArgs[] = {Inspect.data(), Sub.data(), Bogus.data(), nullptr};
    EXPECT_EQ(frostInspectMain(3, InspectArgs), 2);
  }
}

} // namespace
