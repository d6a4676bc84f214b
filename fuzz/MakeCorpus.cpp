//===- MakeCorpus.cpp - Seed inputs for every Frost fuzzer ----------------===//
//
// frost-fuzz-corpus SOURCE_DIR OUTPUT_DIR writes OUTPUT_DIR/<fuzzer>/ for each
// fuzzer (its name without frost-fuzz-), all from what the repository has:
//   checkpoint   small checkpoints made by the unit tests' writer, packed in
//                the fuzzer's layout (flags, table length, table, data shard)
//   model-text   each case of every test/**/*.pbtxt (split at `# -----`)
//   model        those cases that import, written binary by Frost, with the
//                container byte frost-fuzz-model expects
//   functions    the cases with a function library, text and binary
//   pipeline     every --pass-pipeline of the lit tests, and the registry's
//                named pipelines
//   freeze-args  every freeze-graph command line of the lit tests, one
//                argument per line
//
//===----------------------------------------------------------------------===//
#include "../unittests/Checkpoint/BundleTestWriter.h"

#include "frost/IO/GraphIO.h"
#include "frost/Support/Context.h"
#include "frost/Pass/PassRegistry.h"
#include "frost/Transforms/Passes.h"

#include "google/protobuf/stubs/logging.h"
#include "llvm/ADT/StringExtras.h"

#include <cstdio>
#include <filesystem>
#include <functional>
#include <set>

using namespace frost::testwriter;

namespace {

std::string pack(bool V1, const std::string &Table, const std::string &Shard) {
  std::string Out;
  Out.push_back(V1 ? 1 : 0);
  Out.push_back(static_cast<char>(Table.size() & 0xff));
  Out.push_back(static_cast<char>(Table.size() >> 8));
  return Out + Table + Shard;
}

void bundle(const std::string &OutDir, const std::string &Name, BundleOptions Options,
            const std::function<void(TestBundleWriter &)> &Fill) {
  TempDir Dir;
  TestBundleWriter W(Dir / "b", Options);
  Fill(W);
  std::string Index = W.finish();
  writeFile(OutDir + "/" + Name, pack(false, Index, readFile(W.shardPath(0))));
}

void writeCheckpointSeeds(const std::string &Out) {
  bundle(Out, "v2-floats", {}, [](TestBundleWriter &W) {
    W.add<float>("dense/kernel", tensorflow::DT_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
    W.add<float>("dense/bias", tensorflow::DT_FLOAT, {3}, {0, 1, 2});
    W.add<int64_t>("global_step", tensorflow::DT_INT64, {}, {100});
  });
  bundle(Out, "v2-types", {}, [](TestBundleWriter &W) {
    W.add<double>("d", tensorflow::DT_DOUBLE, {1}, {1.5});
    W.add<uint16_t>("h", tensorflow::DT_HALF, {2}, {0x3c00, 0x3800});
    W.add<uint16_t>("bf", tensorflow::DT_BFLOAT16, {1}, {0x3f80});
    W.add<float>("c", tensorflow::DT_COMPLEX64, {1}, {1, 2});
    W.add<uint8_t>("b", tensorflow::DT_BOOL, {2}, {1, 0});
    W.add<int8_t>("q", tensorflow::DT_QINT8, {1}, {-3});
    W.add<uint64_t>("u", tensorflow::DT_UINT64, {1}, {7});
  });
  bundle(Out, "v2-strings", {}, [](TestBundleWriter &W) {
    W.addStrings("vocab", {3}, {"", "a", std::string(130, 'z')});
    tensorflow::VariantTensorDataProto V;
    V.set_type_name("T");
    V.set_metadata("m");
    W.addVariants("var", {1}, {V.SerializeAsString()});
  });
  BundleOptions BE;
  BE.BigEndian = true;
  bundle(Out, "v2-bigendian", BE, [](TestBundleWriter &W) {
    W.add<float>("f", tensorflow::DT_FLOAT, {2}, {1, -2});
    W.addStrings("s", {1}, {"x"});
  });
  BundleOptions Snappy;
  Snappy.Table.Snappy = true;
  Snappy.Table.BlockSize = 64;
  bundle(Out, "v2-snappy", Snappy, [](TestBundleWriter &W) {
    for (int I = 0; I < 12; ++I)
      W.add<int32_t>("layer_" + std::to_string(I) + "/weights", tensorflow::DT_INT32, {2}, {I, I});
  });
  bundle(Out, "v2-partitioned", {}, [](TestBundleWriter &W) {
    W.addSlice("emb", tensorflow::DT_FLOAT, {3, 2}, {{0, 1}, {0, -1}}, rawBytes<float>({1, 2}));
    W.addSlice("emb", tensorflow::DT_FLOAT, {3, 2}, {{1, 2}, {0, -1}},
               rawBytes<float>({3, 4, 5, 6}));
    W.add<float>("z", tensorflow::DT_FLOAT, {1}, {9});
  });
  {
    TempDir Dir;
    TestV1Writer W;
    tensorflow::TensorProto A, M, S;
    A.add_float_val(0.5f);
    for (float F : {1.f, 2.f, 3.f, 4.f})
      M.add_float_val(F);
    S.add_string_val("hi");
    W.addSlice("a", tensorflow::DT_FLOAT, {}, {}, A);
    W.addSlice("m", tensorflow::DT_FLOAT, {2, 2}, {{0, 1}, {0, -1}}, [] {
      tensorflow::TensorProto P;
      P.add_float_val(1);
      P.add_float_val(2);
      return P;
    }());
    W.addSlice("m", tensorflow::DT_FLOAT, {2, 2}, {{1, 1}, {0, -1}}, [] {
      tensorflow::TensorProto P;
      P.add_float_val(3);
      P.add_float_val(4);
      return P;
    }());
    W.addSlice("s", tensorflow::DT_STRING, {1}, {{0, -1}}, S);
    std::string Table = W.finish(Dir / "v1");
    writeFile(Out + "/v1-slices", pack(true, Table, ""));
  }
}



/// One seed directory; seeds are named by number, duplicates dropped.
class SeedDir {
public:
  explicit SeedDir(std::string Path) : Path(std::move(Path)) {
    std::filesystem::create_directories(this->Path);
  }
  void add(const std::string &Bytes) {
    if (Bytes.empty() || !Seen.insert(Bytes).second)
      return;
    writeFile(Path + "/seed-" + std::to_string(Seen.size()), Bytes);
  }

private:
  std::string Path;
  std::set<std::string> Seen;
};

/// The files under `Dir` whose names end with `Suffix`, sorted.
std::vector<std::string> filesUnder(const std::string &Dir, llvm::StringRef Suffix) {
  std::vector<std::string> Files;
  for (const auto &E : std::filesystem::recursive_directory_iterator(Dir))
    if (E.is_regular_file() && llvm::StringRef(E.path().string()).ends_with(Suffix))
      Files.push_back(E.path().string());
  std::sort(Files.begin(), Files.end());
  return Files;
}

/// The cases of a lit .pbtxt, split where frost-opt --split-input-file splits
/// them, without comment lines (RUN and CHECK lines are no graph).
std::vector<std::string> testCases(const std::string &Text) {
  std::vector<std::string> Cases(1);
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  llvm::StringRef(Text).split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    if (Line.rtrim().starts_with("# -----") && !Line.contains("//")) {
      Cases.emplace_back();
      continue;
    }
    if (Line.ltrim().starts_with("#"))
      continue;
    Cases.back() += Line.str() + "\n";
  }
  return Cases;
}

/// The RUN lines of a lit test, continuations joined.
std::vector<std::string> runLines(const std::string &Text) {
  std::vector<std::string> Runs;
  bool Continued = false;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  llvm::StringRef(Text).split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    size_t At = Line.find("RUN:");
    if (At == llvm::StringRef::npos) {
      Continued = false;
      continue;
    }
    llvm::StringRef Command = Line.drop_front(At + 4).trim();
    if (Continued)
      Runs.back() += " " + Command.str();
    else
      Runs.push_back(Command.str());
    Continued = llvm::StringRef(Runs.back()).ends_with("\\");
    if (Continued)
      Runs.back().pop_back();
  }
  return Runs;
}

/// Shell words up to the first pipe or redirection, quotes removed.
std::vector<std::string> shellWords(llvm::StringRef Command) {
  std::vector<std::string> Words;
  std::string Word;
  bool InWord = false;
  char Quote = 0;
  for (size_t I = 0; I < Command.size(); ++I) {
    char C = Command[I];
    if (Quote) {
      if (C == Quote)
        Quote = 0;
      else
        Word += C;
      continue;
    }
    if (C == '\'' || C == '"') {
      Quote = C;
      InWord = true;
      continue;
    }
    if (C == '|' || C == '>' || C == '<' || C == ';' || C == '&' ||
        (C == '2' && I + 1 < Command.size() && Command[I + 1] == '>' && !InWord))
      break;
    if (llvm::isSpace(C)) {
      if (InWord)
        Words.push_back(std::move(Word));
      Word.clear();
      InWord = false;
      continue;
    }
    Word += C;
    InWord = true;
  }
  if (InWord)
    Words.push_back(std::move(Word));
  return Words;
}

void writeModelSeeds(const std::string &Source, const std::string &Out) {
  SeedDir Text(Out + "/model-text"), Binary(Out + "/model"), Functions(Out + "/functions");
  for (const std::string &File : filesUnder(Source + "/test", ".pbtxt")) {
    for (const std::string &Case : testCases(readFile(File))) {
      if (llvm::StringRef(Case).trim().empty())
        continue;
      Text.add(Case);
      bool HasFunctions = llvm::StringRef(Case).contains("library");
      if (HasFunctions)
        Functions.add(Case);
      // The binary form, read under the name its container byte stands for.
      for (bool AnyTags : {false, true}) {
        frost::ReadOptions Options;
        if (AnyTags)
          Options.Tags.clear();
        absl::StatusOr<std::unique_ptr<frost::Model>> M =
            frost::parseModel(Case, "case.pbtxt", Options);
        if (!M.ok())
          continue;
        frost::Context Ctx;
        absl::StatusOr<std::string> Bytes = frost::serializeModel(Ctx, **M);
        if (!Bytes.ok())
          break;
        char Container = static_cast<char>((*M)->kind()) | (AnyTags ? 4 : 0);
        Binary.add(std::string(1, Container) + *Bytes);
        if (HasFunctions && (*M)->kind() == frost::ContainerKind::GraphDef)
          Functions.add(*Bytes);
        break;
      }
    }
  }
}

void writeCommandLineSeeds(const std::string &Source, const std::string &Out) {
  SeedDir Pipelines(Out + "/pipeline"), FreezeArgs(Out + "/freeze-args");
  frost::PassRegistry Registry;
  frost::registerAllPasses(Registry);
  for (const frost::PipelineInfo *P : Registry.pipelines()) {
    Pipelines.add(P->Name);
    Pipelines.add(P->Passes);
  }
  std::vector<std::string> Tests = filesUnder(Source + "/test", ".pbtxt");
  for (const std::string &F : filesUnder(Source + "/test", ".test"))
    Tests.push_back(F);
  for (const std::string &File : Tests) {
    for (const std::string &Run : runLines(readFile(File))) {
      std::vector<std::string> Words = shellWords(Run);
      auto Tool = std::find_if(Words.begin(), Words.end(), [](const std::string &W) {
        return W == "freeze-graph" || W == "frost-opt";
      });
      if (Tool == Words.end())
        continue;
      std::string Args;
      for (auto W = Tool + 1; W != Words.end(); ++W) {
        Args += *W + "\n";
        llvm::StringRef Word(*W);
        if (Word.consume_front("--pass-pipeline="))
          Pipelines.add(Word.str());
        else if (Word == "--pass-pipeline" && W + 1 != Words.end())
          Pipelines.add(*(W + 1));
      }
      if (*Tool == "freeze-graph")
        FreezeArgs.add(Args);
    }
  }
  // freeze_graph.py's spellings, as CI scripts pass them.
  FreezeArgs.add("--input_graph=graph.pbtxt\n--input_checkpoint\nmodel.ckpt\n"
                 "--output_graph=frozen.pb\n--output_node_names=a,b\n--input_bin\n"
                 "--clear_devices=False\n--checkpoint_version\n2\n");
  FreezeArgs.add("--input_saved_model_dir\nsm\n--saved_model_tags=serve,gpu\n"
                 "--output_node_names\nout\n--output_graph\nf.pb\n--ema\n--\n-dash\n");
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s SOURCE_DIR OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  google::protobuf::SetLogHandler(nullptr); // negative cases need not be logged
  std::string Source = argv[1], Out = argv[2];
  try {
    std::filesystem::create_directories(Out + "/checkpoint");
    writeCheckpointSeeds(Out + "/checkpoint");
    writeModelSeeds(Source, Out);
    writeCommandLineSeeds(Source, Out);
  } catch (const std::exception &E) {
    std::fprintf(stderr, "error: %s\n", E.what());
    return 1;
  }
  return 0;
}
