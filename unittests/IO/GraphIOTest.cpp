//===- GraphIOTest.cpp - Reading and writing graphs -----------------------===//
#include "frost/IO/GraphIO.h"
#include "frost/Support/Context.h"
#include "frost/IR/Graph.h"

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace frost;
namespace fs = std::filesystem;

namespace {

/// What protobuf itself writes for a message with deterministic map order:
/// the canonical form Frost's writer must reproduce byte for byte.
std::string canonical(const google::protobuf::Message &Msg) {
  std::string Out;
  google::protobuf::io::StringOutputStream Stream(&Out);
  google::protobuf::io::CodedOutputStream Coded(&Stream);
  Coded.SetSerializationDeterministic(true);
  Msg.SerializeToCodedStream(&Coded);
  Coded.Trim();
  return Out;
}

std::string readBytes(const fs::path &P) {
  std::ifstream In(P, std::ios::binary);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

std::unique_ptr<Model> parseOk(const std::string &Bytes, const std::string &Name,
                               ReadOptions Options = {}) {
  auto M = parseModel(Bytes, Name, Options);
  EXPECT_TRUE(M.ok()) << M.status();
  return M.ok() ? *std::move(M) : nullptr;
}

tensorflow::GraphDef sampleGraph() {
  tensorflow::GraphDef Def;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(R"pb(
    node {
      name: "w" op: "Const"
      attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } }
                                           tensor_content: "\000\000\200?\000\000\000@\000\000@@" } } }
      attr { key: "dtype" value { type: DT_FLOAT } }
      attr { key: "" value { } }
      attr { key: "empty_list" value { list { } } }
      experimental_type { type_id: TFT_PRODUCT }
    }
    node { name: "" op: "" }
    node { name: "x" op: "Placeholder" device: "/cpu:0"
           attr { key: "shape" value { shape { unknown_rank: true } } } }
    node { name: "y" op: "MatMul" input: "x" input: "w:0" input: "^w" }
    library { function { signature { name: "f" } ret { key: "b" value: "a" } ret { key: "a" value: "b" } } }
    versions { producer: 9 bad_consumers: 3 }
  )pb", &Def));
  Def.mutable_node()->DeleteSubrange(1, 1); // the nameless node only checked the parser
  // A field from a newer TensorFlow this schema does not know.
  Def.mutable_node(0)->GetReflection()->MutableUnknownFields(Def.mutable_node(0))->AddVarint(99, 7);
  Def.GetReflection()->MutableUnknownFields(&Def)->AddLengthDelimited(77, "future");
  return Def;
}

TEST(GraphIOTest, BinaryOutputIsProtobufsCanonicalEncoding) {
  tensorflow::GraphDef Def = sampleGraph();
  std::string Expected = canonical(Def);
  auto M = parseOk(Def.SerializeAsString(), "sample.pb");
  ASSERT_TRUE(M);
  Context Ctx;
  auto Bytes = serializeModel(Ctx, *M);
  ASSERT_TRUE(Bytes.ok()) << Bytes.status();
  EXPECT_EQ(*Bytes, Expected);
}

TEST(GraphIOTest, ExternalTensorContentIsWrittenWhereProtobufWouldPutIt) {
  auto M = parseOk(sampleGraph().SerializeAsString(), "sample.pb");
  ASSERT_TRUE(M);
  Node *W = M->graph().findNode("w");
  // 300 floats: the content's length needs a two-byte varint.
  auto Weights = std::make_shared<std::string>(1200, '\x3f');
  W->setExternalTensorAttr("value", tensorflow::DT_FLOAT, {3, 100},
                           ExternalContent{*Weights, Weights});
  W->attr("other").mutable_tensor()->set_dtype(tensorflow::DT_INT32);
  Context Ctx;
  auto Bytes = serializeModel(Ctx, *M);
  ASSERT_TRUE(Bytes.ok());
  // The same graph with the content copied in, as protobuf encodes it.
  tensorflow::GraphDef Materialized;
  M->graph().toGraphDef(Materialized);
  const tensorflow::TensorProto &T = Materialized.node(0).attr().at("value").tensor();
  EXPECT_EQ(T.tensor_content(), *Weights);
  EXPECT_EQ(T.tensor_shape().dim(1).size(), 100);
  EXPECT_EQ(*Bytes, canonical(Materialized));
  W->materializeAttr("value");
  EXPECT_EQ(W->externalContent("value"), nullptr);
  EXPECT_EQ(*serializeModel(Ctx, *M), *Bytes);
}

TEST(GraphIOTest, MetaGraphAndSavedModelKeepTheirEnvelope) {
  tensorflow::MetaGraphDef Meta;
  Meta.mutable_meta_info_def()->add_tags("serve");
  *Meta.mutable_graph_def() = sampleGraph();
  (*Meta.mutable_collection_def())["z"].mutable_node_list()->add_value("w:0");
  (*Meta.mutable_collection_def())["a"].mutable_int64_list()->add_value(5);
  Meta.mutable_saver_def()->set_version(tensorflow::SaverDef::V2);
  auto M = parseOk(Meta.SerializeAsString(), "model.meta");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->kind(), ContainerKind::MetaGraph);
  Context Ctx;
  EXPECT_EQ(*serializeModel(Ctx, *M), canonical(Meta));

  tensorflow::SavedModel Saved;
  Saved.set_saved_model_schema_version(1);
  *Saved.add_meta_graphs() = Meta;
  Saved.mutable_meta_graphs(0)->mutable_meta_info_def()->set_tags(0, "train");
  *Saved.add_meta_graphs() = Meta;
  auto S = parseOk(Saved.SerializeAsString(), "saved_model.pb");
  ASSERT_TRUE(S);
  EXPECT_EQ(S->kind(), ContainerKind::SavedModel);
  EXPECT_EQ(S->metaGraphIndex(), 1);
  EXPECT_EQ(*serializeModel(Ctx, *S), canonical(Saved));
}

TEST(GraphIOTest, TellsContainersApartByContentAlone) {
  tensorflow::GraphDef Def = sampleGraph();
  tensorflow::MetaGraphDef Meta;
  *Meta.mutable_graph_def() = Def;
  Meta.mutable_meta_info_def()->set_meta_graph_version("v1");
  tensorflow::MetaGraphDef GraphOnly; // no meta_info_def: field 2 alone
  *GraphOnly.mutable_graph_def() = Def;
  tensorflow::SavedModel Saved;
  *Saved.add_meta_graphs() = Meta;
  Saved.mutable_meta_graphs(0)->mutable_meta_info_def()->add_tags("serve");
  EXPECT_EQ(parseOk(Def.SerializeAsString(), "x.bin")->kind(), ContainerKind::GraphDef);
  EXPECT_EQ(parseOk(Meta.SerializeAsString(), "x.bin")->kind(), ContainerKind::MetaGraph);
  EXPECT_EQ(parseOk(GraphOnly.SerializeAsString(), "x.bin")->kind(), ContainerKind::MetaGraph);
  ReadOptions AnyTags;
  AnyTags.Tags = {"serve"};
  EXPECT_EQ(parseOk(Saved.SerializeAsString(), "x.bin", AnyTags)->kind(),
            ContainerKind::SavedModel);
  // Text: by the first field. (Text cannot carry unknown fields.)
  Meta.DiscardUnknownFields();
  std::string Text;
  google::protobuf::TextFormat::PrintToString(Meta, &Text);
  EXPECT_EQ(detectEncoding(Text), Encoding::Text);
  EXPECT_EQ(parseOk("# comment\n" + Text, "x.txt")->kind(), ContainerKind::MetaGraph);
  // An empty file is a mistake (a failed download, /dev/null), not a graph.
  auto Empty = parseModel("", "empty.pb");
  ASSERT_FALSE(Empty.ok());
  EXPECT_EQ(Empty.status().message(),
            "empty.pb: is empty, not a GraphDef, MetaGraphDef or SavedModel");
}

TEST(GraphIOTest, MalformedInputsAreClearErrors) {
  std::string Bytes = sampleGraph().SerializeAsString();
  auto Truncated = parseModel(llvm::StringRef(Bytes).drop_back(5), "cut.pb");
  ASSERT_FALSE(Truncated.ok());
  EXPECT_NE(Truncated.status().message().find("cut.pb: "), std::string::npos)
      << Truncated.status();
  auto Text = parseModel("node { name: \"a\" op: \"Const\" \n bogus: 1 }", "bad.pbtxt");
  ASSERT_FALSE(Text.ok());
  EXPECT_EQ(std::string(Text.status().message()).rfind("bad.pbtxt:2:", 0), 0u) << Text.status();
  auto Unknown = parseModel("mystery_field: 3", "what.pbtxt");
  ASSERT_FALSE(Unknown.ok());
  EXPECT_NE(Unknown.status().message().find("starts with field 'mystery_field'"),
            std::string::npos);
}

TEST(GraphIOTest, NodeLocationsInMessages) {
  tensorflow::GraphDef Def;
  Def.add_node()->set_name("ok");
  Def.mutable_node(0)->set_op("Const");
  Def.add_node()->set_name("bad");
  Def.mutable_node(1)->set_op("Identity");
  Def.mutable_node(1)->add_input("nowhere");
  std::string Bytes = Def.SerializeAsString();
  auto M = parseModel(Bytes, "g.pb");
  ASSERT_FALSE(M.ok());
  // Node 0 takes 2 bytes of framing + its body; node 1 starts right after.
  size_t Offset = 2 + Def.node(0).ByteSizeLong();
  EXPECT_NE(M.status().message().find("g.pb:byte " + std::to_string(Offset) + ": node 'bad'"),
            std::string::npos)
      << M.status();
}

TEST(GraphIOTest, RefusesFilesOverTheSizeLimitNamingTheBiggestNodes) {
  tensorflow::GraphDef Def = sampleGraph();
  tensorflow::NodeDef &Big = *Def.add_node();
  Big.set_name("huge");
  Big.set_op("Const");
  (*Big.mutable_attr())["value"].mutable_tensor()->set_tensor_content(std::string(5000, 'x'));
  std::string Bytes = Def.SerializeAsString();
  ReadOptions Small;
  Small.SizeLimit = 1000;
  auto M = parseModel(Bytes, "big.pb", Small);
  ASSERT_FALSE(M.ok());
  EXPECT_EQ(M.status().code(), absl::StatusCode::kResourceExhausted);
  std::string Message(M.status().message());
  EXPECT_NE(Message.find("over protobuf's limit of 1000 bytes"), std::string::npos) << Message;
  EXPECT_NE(Message.find("biggest nodes: 'huge' (Const)"), std::string::npos) << Message;

  auto Ok = parseOk(Bytes, "big.pb");
  ASSERT_TRUE(Ok);
  WriteOptions SmallWrite;
  SmallWrite.SizeLimit = 1000;
  fs::path Out = fs::temp_directory_path() / "frost-graphio-too-big.pb";
  fs::remove(Out);
  Context Ctx;
  absl::Status S = writeModel(Ctx, *Ok, Out.string(), SmallWrite);
  ASSERT_FALSE(S.ok());
  EXPECT_NE(S.message().find("'huge' (Const)"), std::string::npos) << S;
  EXPECT_FALSE(fs::exists(Out)) << "no partial output";
}

// Every graph-bearing file TensorFlow wrote under ../shared/data: decode ->
// encode equals protobuf's canonical encoding, and encode -> decode -> encode
// is stable.
TEST(GraphIOTest, SharedDataRoundTripsCanonically) {
  fs::path Root(FROST_SHARED_DATA);
  if (!fs::is_directory(Root))
    GTEST_SKIP() << "skipped: shared data not present";
  int Checked = 0;
  for (const auto &Entry : fs::recursive_directory_iterator(Root)) {
    fs::path P = Entry.path();
    std::string Name = P.filename().string();
    std::unique_ptr<google::protobuf::Message> Reference;
    if (Name == "saved_model.pb")
      Reference = std::make_unique<tensorflow::SavedModel>();
    else if (P.extension() == ".meta")
      Reference = std::make_unique<tensorflow::MetaGraphDef>();
    else if (Name == "frozen.pb")
      Reference = std::make_unique<tensorflow::GraphDef>();
    else
      continue;
    std::string Bytes = readBytes(P);
    ASSERT_TRUE(Reference->ParseFromString(Bytes)) << P;
    ReadOptions Any;
    Any.Tags = {"serve"};
    auto M = parseModel(Bytes, P.string(), Any);
    ASSERT_TRUE(M.ok()) << M.status();
    Context Ctx;
    auto Out = serializeModel(Ctx, **M);
    ASSERT_TRUE(Out.ok()) << Out.status();
    EXPECT_EQ(*Out, canonical(*Reference)) << P;
    auto Again = parseModel(*Out, P.string(), Any);
    ASSERT_TRUE(Again.ok());
    EXPECT_EQ(*serializeModel(Ctx, **Again), *Out) << P;
    ++Checked;
  }
  EXPECT_GE(Checked, 7);
}

} // namespace
