//===- GraphTransformsTest.cpp - graph_transforms' list grammar -----------===//
//
// The expected calls follow TensorFlow's ParseTransformParameters
// (transform_graph.cc) read by hand, case by case.
//
//===----------------------------------------------------------------------===//
#include "frost/Transforms/GraphTransforms.h"
#include "frost/Transforms/Passes.h"

#include "gtest/gtest.h"

using namespace frost;

namespace {

/// The calls as `name(p=v,p=v) name()`, or the error's first line.
std::string parsed(llvm::StringRef Text) {
  absl::StatusOr<std::vector<TransformCall>> Calls = parseTransformList(Text);
  if (!Calls.ok()) {
    std::string Message(Calls.status().message());
    return "error: " + Message.substr(0, Message.find('\n'));
  }
  std::string Out;
  for (const TransformCall &C : *Calls) {
    Out += (Out.empty() ? "" : " ") + C.Name + "(";
    for (size_t I = 0; I < C.Params.size(); ++I)
      Out += (I ? "," : "") + C.Params[I].Name + "=" + C.Params[I].Value;
    Out += ")";
  }
  return Out;
}

TEST(GraphTransformsTest, ReadmeExamples) {
  EXPECT_EQ(parsed("fold_constants(ignore_errors=true)"), "fold_constants(ignore_errors=true)");
  EXPECT_EQ(parsed("\n  strip_unused_nodes(type=float, shape=\"1,299,299,3\")\n"
                   "  remove_nodes(op=Identity, op=CheckNumerics)\n"
                   "  fold_constants(ignore_errors=true)\n  fold_batch_norms\n"
                   "  fold_old_batch_norms\n"),
            "strip_unused_nodes(type=float,shape=1,299,299,3) "
            "remove_nodes(op=Identity,op=CheckNumerics) fold_constants(ignore_errors=true) "
            "fold_batch_norms() fold_old_batch_norms()");
  EXPECT_EQ(parsed("rename_attribute(old_attribute_name=a, new_attribute_name=b)"),
            "rename_attribute(old_attribute_name=a,new_attribute_name=b)");
  EXPECT_EQ(parsed("set_device(device=/cpu:0)"), "error: --transforms:1:23: expected a "
                                                 "parameter name (letters, digits and '_')");
  EXPECT_EQ(parsed("set_device(device=\"/cpu:0\")"), "set_device(device=/cpu:0)");
}

TEST(GraphTransformsTest, Separators) {
  // Transforms need no blank after ')'; parameters take ',' or blanks.
  EXPECT_EQ(parsed("a(x=1)b(y=2)"), "a(x=1) b(y=2)");
  EXPECT_EQ(parsed("a(x=1 y=2)"), "a(x=1,y=2)");
  EXPECT_EQ(parsed("a(,x=1)"), "a(x=1)");
  EXPECT_EQ(parsed("a()"), "a()");
  EXPECT_EQ(parsed("\t a \r\n b\f"), "a() b()");
  // Accepted where TensorFlow errors: blanks before ')' or ','.
  EXPECT_EQ(parsed("a(x=1 )"), "a(x=1)");
  EXPECT_EQ(parsed("a(x=1 , y=2)"), "a(x=1,y=2)");
  EXPECT_EQ(parsed("a,b"), "error: --transforms:1:2: expected a transform name (letters, "
                           "digits and '_'); transforms are separated by blanks");
  EXPECT_EQ(parsed("a\\\nb"), "error: --transforms:1:2: expected a transform name (letters, "
                              "digits and '_'); transforms are separated by blanks");
}

TEST(GraphTransformsTest, Values) {
  // Unquoted: letters, digits and _ - . /; anything else ends the value.
  EXPECT_EQ(parsed("a(p=x-y.z/w_1)"), "a(p=x-y.z/w_1)");
  EXPECT_EQ(parsed("a(p=)"), "error: --transforms:1:5: expected a value for 'p'; quote values "
                             "with characters other than letters, digits and _ - . /");
  EXPECT_EQ(parsed("a(p=x:0)"), "error: --transforms:1:6: expected a parameter name (letters, "
                                "digits and '_')");
  // Quoted: anything up to an unescaped quote; escapes are kept as written.
  EXPECT_EQ(parsed("a(p=\"x, y\\\"z\")"), "a(p=x, y\\\"z)");
  EXPECT_EQ(parsed("a(p=\"\")"), "a(p=)");
  // One stray '"' and one stray '\'' after a value are swallowed.
  EXPECT_EQ(parsed("a(p=x\"', q=\"y\"\"')"), "a(p=x,q=y)");
  // Repeats are kept in order.
  EXPECT_EQ(parsed("a(op=A, op=B, op=A)"), "a(op=A,op=B,op=A)");
}

TEST(GraphTransformsTest, ErrorsTensorFlowIsSilentAbout) {
  // TensorFlow drops an unterminated transform and accepts an empty list.
  EXPECT_EQ(parsed("a b(x=1"), "error: --transforms:1:4: '(' of transform 'b' is never closed");
  EXPECT_EQ(parsed("a(p=\"x)"), "error: --transforms:1:5: the quoted value of 'p' is never closed");
  EXPECT_EQ(parsed("  \n "), "error: --transforms:2:2: no transform in the list");
  EXPECT_EQ(parsed("a(p)"), "error: --transforms:1:4: expected '=' after parameter 'p'");
}

TEST(GraphTransformsTest, EveryTransformIsListedOnceInOrder) {
  llvm::ArrayRef<GraphTransformInfo> All = graphTransforms();
  ASSERT_FALSE(All.empty());
  for (size_t I = 1; I < All.size(); ++I)
    EXPECT_LT(llvm::StringRef(All[I - 1].Name), llvm::StringRef(All[I].Name));
  PassRegistry Registry;
  registerAllPasses(Registry);
  for (const GraphTransformInfo &T : All) {
    // The docs' table says how each differs from TensorFlow's, or why it is missing.
    EXPECT_FALSE(llvm::StringRef(T.Differences).empty()) << T.Name;
    llvm::SmallVector<llvm::StringRef, 4> Passes;
    llvm::StringRef(T.Passes).split(Passes, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef P : Passes)
      EXPECT_TRUE(Registry.findPass(P)) << T.Name << " runs " << P.str();
  }
}

} // namespace
