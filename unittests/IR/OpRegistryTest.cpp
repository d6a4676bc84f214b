//===- OpRegistryTest.cpp - Numbering outputs from OpDefs -----------------===//
#include "frost/IR/OpRegistry.h"

#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"

#include <thread>

using namespace frost;

namespace {

tensorflow::OpDef opDef(const char *Text) {
  tensorflow::OpDef Def;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(Text, &Def));
  return Def;
}

ProtoAttrMap attrs(const char *Text) {
  tensorflow::NodeDef N;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(Text, &N));
  return N.attr();
}

// Outputs: a single tensor, a list counted by an int attribute, a list typed
// by a type-list attribute, a single tensor again.
const char *Mixed = R"pb(
  name: "Mixed"
  output_arg { name: "first" type: DT_FLOAT }
  output_arg { name: "parts" type: DT_FLOAT number_attr: "num" }
  output_arg { name: "typed" type_list_attr: "Tout" }
  output_arg { name: "last" type: DT_INT32 }
  attr { name: "num" type: "int" default_value { i: 2 } }
  attr { name: "Tout" type: "list(type)" }
  attr { name: "flag" type: "bool" default_value { b: false } }
)pb";

TEST(OpRegistryTest, FlatOutputIndexCountsListArguments) {
  tensorflow::OpDef Def = opDef(Mixed);
  ProtoAttrMap A = attrs(R"(attr { key: "num" value { i: 3 } }
                           attr { key: "Tout" value { list { type: DT_INT32 type: DT_BOOL } } })");
  EXPECT_EQ(*flatOutputIndex(Def, A, "first", 0), 0);
  EXPECT_EQ(*flatOutputIndex(Def, A, "parts", 0), 1);
  EXPECT_EQ(*flatOutputIndex(Def, A, "parts", 2), 3);
  EXPECT_EQ(*flatOutputIndex(Def, A, "typed", 1), 5);
  EXPECT_EQ(*flatOutputIndex(Def, A, "last", 0), 6);
}

TEST(OpRegistryTest, FlatOutputIndexErrors) {
  tensorflow::OpDef Def = opDef(Mixed);
  ProtoAttrMap A = attrs(R"(attr { key: "num" value { i: 1 } })");
  // Out of range within the list.
  absl::StatusOr<int> Beyond = flatOutputIndex(Def, A, "parts", 1);
  ASSERT_FALSE(Beyond.ok());
  EXPECT_NE(std::string(Beyond.status().message()).find("out of range (1 tensors)"),
            std::string::npos)
      << Beyond.status();
  // A later argument needs the type list this node lacks.
  absl::StatusOr<int> NoList = flatOutputIndex(Def, A, "last", 0);
  ASSERT_FALSE(NoList.ok());
  EXPECT_NE(std::string(NoList.status().message()).find("'Tout'"), std::string::npos);
  // No such output.
  absl::StatusOr<int> Unknown = flatOutputIndex(Def, A, "nope", 0);
  ASSERT_FALSE(Unknown.ok());
  EXPECT_EQ(Unknown.status().message(), "op Mixed has no output named 'nope'");
}

TEST(OpRegistryTest, DefaultsFillOnlyMissingAttributes) {
  tensorflow::OpDef Def = opDef(Mixed);
  ProtoAttrMap A = attrs(R"(attr { key: "num" value { i: 5 } })");
  addDefaultAttrs(Def, A);
  EXPECT_EQ(A.at("num").i(), 5);    // kept
  EXPECT_FALSE(A.at("flag").b());   // added
  EXPECT_EQ(A.count("Tout"), 0u);   // no default to add
}

TEST(OpRegistryTest, FirstDefinitionWinsAndFunctionsAreOps) {
  OpRegistry R;
  tensorflow::OpList Ops;
  *Ops.add_op() = opDef(Mixed);
  R.add(Ops);
  tensorflow::FunctionDefLibrary Lib;
  tensorflow::FunctionDef &F = *Lib.add_function();
  F.mutable_signature()->set_name("Mixed"); // does not replace the op
  tensorflow::FunctionDef &G = *Lib.add_function();
  G.mutable_signature()->set_name("my_fn");
  G.mutable_signature()->add_output_arg()->set_name("out");
  R.add(Lib);
  ASSERT_NE(R.find("Mixed"), nullptr);
  EXPECT_EQ(R.find("Mixed")->output_arg_size(), 4);
  ASSERT_NE(R.find("my_fn"), nullptr);
  EXPECT_EQ(*flatOutputIndex(*R.find("my_fn"), ProtoAttrMap(), "out", 0), 0);
  EXPECT_EQ(R.find("Absent"), nullptr);
}

// TensorFlow's standard OpDefs are found after the registry's own, and only
// when it falls back to them.
TEST(OpRegistryTest, StandardOpsAreTheFallback) {
  OpRegistry R;
  tensorflow::OpList Ops;
  *Ops.add_op() = opDef(R"pb(name: "Split" output_arg { name: "mine" type: DT_FLOAT })pb");
  R.add(Ops);
  EXPECT_EQ(R.find("Tile"), nullptr);
  R.fallBackToStandardOps();
  EXPECT_EQ(R.find("Split")->output_arg(0).name(), "mine"); // its own wins
  const tensorflow::OpDef *Tile = R.find("Tile");
  ASSERT_NE(Tile, nullptr);
  EXPECT_EQ(Tile->input_arg_size(), 2);
  EXPECT_EQ(R.find("NoSuchOp"), nullptr);
  EXPECT_EQ(R.size(), 1u);
}

// Facts about TensorFlow's interface, checked by hand against its op
// registrations (nn_ops.cc, array_ops.cc, function_ops.cc, logging_ops.cc).
TEST(OpRegistryTest, StandardOpsKnowTensorFlowsInterface) {
  EXPECT_GT(numStandardOpDefs(), 1500u);
  const tensorflow::OpDef *Lrn = findStandardOpDef("LRN");
  ASSERT_NE(Lrn, nullptr);
  ProtoAttrMap A;
  addDefaultAttrs(*Lrn, A);
  EXPECT_EQ(A.at("depth_radius").i(), 5);
  EXPECT_EQ(A.at("bias").f(), 1.0f);
  EXPECT_EQ(A.at("alpha").f(), 1.0f);
  EXPECT_EQ(A.at("beta").f(), 0.5f);
  EXPECT_EQ(A.at("T").type(), tensorflow::DT_FLOAT);
  // Split(axis, value) -> output: num_split tensors.
  const tensorflow::OpDef *Split = findStandardOpDef("Split");
  ASSERT_NE(Split, nullptr);
  ProtoAttrMap SplitAttrs = attrs(R"(attr { key: "num_split" value { i: 3 } })");
  EXPECT_EQ(*argLength(Split->output_arg(0), SplitAttrs), 3);
  EXPECT_EQ(*flatOutputIndex(*Split, SplitAttrs, "output", 2), 2);
  EXPECT_FALSE(Split->is_stateful());
  EXPECT_TRUE(findStandardOpDef("Print")->is_stateful());
  EXPECT_TRUE(findStandardOpDef("Assign")->input_arg(0).is_ref());
  EXPECT_NE(findStandardOpDef("_Arg"), nullptr); // internal ops too, as in TensorFlow's registry
  EXPECT_EQ(findStandardOpDef("NoSuchOp"), nullptr);
  EXPECT_EQ(findStandardOpDef("LRN"), Lrn); // parsed once
}

// Threads looking the same ops up at once get the same OpDefs.
TEST(OpRegistryTest, StandardOpsAreSharedByThreads) {
  const char *Names[] = {"Conv2D", "MatMul", "Tile", "All", "Equal", "GatherV2", "Where"};
  std::vector<std::vector<const tensorflow::OpDef *>> Found(4);
  std::vector<std::thread> Threads;
  for (auto &Mine : Found)
    Threads.emplace_back([&Mine, &Names] {
      for (const char *Name : Names)
        Mine.push_back(findStandardOpDef(Name));
    });
  for (std::thread &T : Threads)
    T.join();
  for (size_t I = 0; I < std::size(Names); ++I) {
    ASSERT_NE(Found[0][I], nullptr) << Names[I];
    EXPECT_EQ(Found[0][I]->name(), Names[I]);
    for (const auto &Other : Found)
      EXPECT_EQ(Other[I], Found[0][I]);
  }
}

} // namespace
