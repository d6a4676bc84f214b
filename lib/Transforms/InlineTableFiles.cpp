//===- InlineTableFiles.cpp - Vocabulary files read into the graph --------===//
//
// A table initialized from a text file (tf.lookup.TextFileInitializer; Keras
// StringLookup, IntegerLookup and TextVectorization with a vocabulary file)
// reads the file when the graph runs: InitializeTableFromTextFile(V2)(table,
// filename). This pass reads it now and makes the op InitializeTable(V2)(table,
// keys, values) with two new Consts `<op>/keys` and `<op>/values`, keeping its
// name (init ops and `init_all_tables` refer to it), so a frozen graph needs
// no file. TensorFlow has no equivalent: its frozen TF1 graph still reads the
// file, and its frozen TF2 graph cannot run at all (docs/conformance.md).
//
// The file: for a tensor the SavedModel binds to an asset (asset_file_def,
// else the TF1 builder's `saved_model_assets` collection), the asset in
// `<SavedModel>/assets/`, as TensorFlow's loaders feed it; else the path in a
// Const. A missing asset is an error; a missing file at any other path is a
// warning and the op stays (the graph reads the file at run time, as
// TensorFlow's does).
//
// The file is read as TensorFlow 2.21 reads it (lookup_util.cc,
// TextFileLineIterator), and whatever makes TensorFlow's initializer fail is
// an error here, naming the node, the file and the line (1-based):
//  - Lines end at '\n'; one '\r' before it (or at the end of the file) is
//    dropped; a last line without '\n' counts, nothing after a final '\n'
//    does. An empty line is an error; so is a file without lines.
//  - key_index/value_index -2 = the whole line, -1 = the line number (from 0,
//    plus `offset`; int64 only), k >= 0 = field k of the line split at every
//    `delimiter` (one character; empty fields kept). A line with fewer fields
//    than the larger index needs is an error.
//  - Fields become the table's key/value dtype: string as is; int32, int64,
//    float, double as absl::SimpleAtoi/Atof/Atod parse them (TensorFlow's
//    safe_strto*: surrounding whitespace allowed, the text ends at a NUL);
//    `offset` is added to int32 fields too (wrapping), not to int64 ones.
//  - vocab_size N (-1: all lines): only the first N lines are read; a file
//    with fewer lines is an error.
//  - A key repeated with an equal value is fine; with another value it is an
//    error (TensorFlow's HashTable refuses it).
//
//===----------------------------------------------------------------------===//
#include "frost/Support/Suggest.h"
#include "frost/IR/Model.h"
#include "frost/IR/OpClasses.h"
#include "frost/Support/Escape.h"
#include "frost/Support/File.h"
#include "frost/Tensor/TensorProtoCodec.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/Utils/SignatureInstantiation.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"

#include <cstring>
#include <map>
#include <tuple>

namespace frost {

namespace {

using tensorflow::DataType;

constexpr int64_t WholeLine = -2;
constexpr int64_t LineNumber = -1;

bool isIntegerType(DataType DT) {
  return DT == tensorflow::DT_INT32 || DT == tensorflow::DT_INT64;
}

/// Up to a NUL: TensorFlow hands its number parsers a C string.
llvm::StringRef cString(llvm::StringRef S) { return S.substr(0, S.find('\0')); }

/// A field for a message: quoted, escaped, cut when long.
std::string quoted(llvm::StringRef S) {
  constexpr size_t Max = 40;
  return absl::StrCat("'", escapeBytes(S.take_front(Max), '\'', ByteEscape::Hex), "'",
                      S.size() > Max ? "..." : "");
}

/// The keys or the values of the table being built, in file order.
class Column {
public:
  explicit Column(DataType DT) : DType(DT) {}

  void reserve(size_t N) {
    if (DType == tensorflow::DT_STRING)
      Strings.reserve(N);
    else
      Bytes.reserve(N * dataTypeSize(DType));
  }

  size_t size() const {
    return DType == tensorflow::DT_STRING ? Strings.size() : Bytes.size() / dataTypeSize(DType);
  }
  /// Element `I`'s bytes (a string's characters).
  llvm::StringRef element(size_t I) const {
    if (DType == tensorflow::DT_STRING)
      return Strings[I];
    size_t Size = dataTypeSize(DType);
    return llvm::StringRef(Bytes).substr(I * Size, Size);
  }
  /// Whether elements `I` and `J` are equal as TensorFlow compares them
  /// (0.0 == -0.0, NaN != NaN).
  bool equal(size_t I, size_t J) const {
    if (DType == tensorflow::DT_FLOAT)
      return get<float>(I) == get<float>(J);
    if (DType == tensorflow::DT_DOUBLE)
      return get<double>(I) == get<double>(J);
    return element(I) == element(J);
  }
  std::string show(size_t I) const {
    switch (DType) {
    case tensorflow::DT_INT32: return absl::StrCat(get<int32_t>(I));
    case tensorflow::DT_INT64: return absl::StrCat(get<int64_t>(I));
    case tensorflow::DT_FLOAT: return absl::StrCat(get<float>(I));
    case tensorflow::DT_DOUBLE: return absl::StrCat(get<double>(I));
    default: return quoted(element(I));
    }
  }

  /// Appends field `Index` of a line (see the header); false with `Error`
  /// set when it does not parse.
  bool append(llvm::StringRef Line, llvm::ArrayRef<llvm::StringRef> Fields, int64_t Index,
              int64_t LineNo, int64_t Offset, std::string &Error) {
    // Sums wrap as TensorFlow's int64 arithmetic stored into int32 does.
    auto plusOffset = [Offset](int64_t V) {
      return static_cast<int64_t>(static_cast<uint64_t>(V) + static_cast<uint64_t>(Offset));
    };
    if (Index == LineNumber) {
      put<int64_t>(plusOffset(LineNo));
      return true;
    }
    llvm::StringRef Field = Index == WholeLine ? Line : Fields[Index];
    absl::string_view Text(cString(Field).data(), cString(Field).size());
    bool Ok = true;
    switch (DType) {
    case tensorflow::DT_STRING: Strings.emplace_back(Field.str()); break;
    case tensorflow::DT_INT32: {
      int32_t V;
      if ((Ok = absl::SimpleAtoi(Text, &V)))
        put<int32_t>(static_cast<int32_t>(plusOffset(V)));
      break;
    }
    case tensorflow::DT_INT64: {
      int64_t V;
      if ((Ok = absl::SimpleAtoi(Text, &V)))
        put<int64_t>(V);
      break;
    }
    case tensorflow::DT_FLOAT: {
      float V;
      if ((Ok = absl::SimpleAtof(Text, &V)))
        put<float>(V);
      break;
    }
    case tensorflow::DT_DOUBLE: {
      double V;
      if ((Ok = absl::SimpleAtod(Text, &V)))
        put<double>(V);
      break;
    }
    default: llvm_unreachable("dtype checked before reading");
    }
    if (!Ok)
      Error = absl::StrCat(quoted(Field), " is not a valid ", dataTypeName(DType));
    return Ok;
  }

  TensorData take() {
    std::vector<int64_t> Shape{static_cast<int64_t>(size())};
    if (DType == tensorflow::DT_STRING)
      return TensorData::strings(DType, std::move(Shape), std::move(Strings));
    return TensorData::owned(DType, std::move(Shape), std::move(Bytes));
  }

private:
  // Host order is little-endian, as TensorData's bytes are.
  template <typename T> void put(T V) {
    Bytes.append(reinterpret_cast<const char *>(&V), sizeof V);
  }
  template <typename T> T get(size_t I) const {
    T V;
    std::memcpy(&V, Bytes.data() + I * sizeof V, sizeof V);
    return V;
  }

  DataType DType;
  std::vector<std::string> Strings;
  std::string Bytes;
};

/// What one initializer asks for, from its attributes and its table.
struct TextFileSpec {
  std::string Path;
  int64_t KeyIndex = 0, ValueIndex = 0, VocabSize = -1, Offset = 0;
  char Delimiter = '\t';
  DataType KeyType = tensorflow::DT_INVALID, ValueType = tensorflow::DT_INVALID;
};

/// Reads `Bytes` (the file at S.Path) into `Keys` and `Values`.
absl::Status readTable(const TextFileSpec &S, llvm::StringRef Bytes, Column &Keys,
                       Column &Values) {
  auto lineError = [&](int64_t LineNo, const std::string &What) {
    return absl::InvalidArgumentError(absl::StrCat(S.Path, ":", LineNo + 1, ": ", What));
  };
  bool Split = std::max(S.KeyIndex, S.ValueIndex) >= 0;
  size_t NeededFields = static_cast<size_t>(std::max(S.KeyIndex, S.ValueIndex) + 1);
  size_t MaxLines = Bytes.count('\n') + 1;
  if (S.VocabSize != -1)
    MaxLines = std::min<size_t>(MaxLines, static_cast<size_t>(S.VocabSize));
  Keys.reserve(MaxLines);
  Values.reserve(MaxLines);
  llvm::SmallVector<llvm::StringRef, 8> Fields;
  std::string Error;
  int64_t LineNo = 0;
  for (size_t Pos = 0; Pos < Bytes.size();) {
    size_t End = Bytes.find('\n', Pos);
    bool Last = End == llvm::StringRef::npos;
    llvm::StringRef Line = Bytes.slice(Pos, Last ? Bytes.size() : End);
    Pos = Last ? Bytes.size() : End + 1;
    Line.consume_back("\r");
    if (Last && Line.empty())
      break; // a lone '\r' after the last '\n' is no line
    if (S.VocabSize != -1 && LineNo >= S.VocabSize)
      break;
    if (Line.empty())
      return lineError(LineNo, "empty line");
    if (Split) {
      Fields.clear();
      Line.split(Fields, S.Delimiter, /*MaxSplit=*/-1, /*KeepEmpty=*/true);
      if (Fields.size() < NeededFields)
        return lineError(LineNo, absl::StrCat(Fields.size(),
                                              Fields.size() == 1 ? " field" : " fields",
                                              " split at ", quoted({&S.Delimiter, 1}),
                                              ", but column ", NeededFields - 1, " is read"));
    }
    if (!Keys.append(Line, Fields, S.KeyIndex, LineNo, S.Offset, Error))
      return lineError(LineNo, absl::StrCat("key ", Error));
    if (!Values.append(Line, Fields, S.ValueIndex, LineNo, S.Offset, Error))
      return lineError(LineNo, absl::StrCat("value ", Error));
    ++LineNo;
  }
  if (S.VocabSize != -1 && LineNo < S.VocabSize)
    return absl::InvalidArgumentError(absl::StrCat(S.Path, ": vocab_size is ", S.VocabSize,
                                                   " but the file has ", LineNo, " lines"));
  if (LineNo == 0)
    return absl::InvalidArgumentError(absl::StrCat(
        S.Path, S.VocabSize == 0 ? ": vocab_size is 0" : "", ": no line to build the table from"));
  // One value per key.
  llvm::DenseMap<llvm::StringRef, size_t> First;
  First.reserve(Keys.size());
  for (size_t I = 0; I < Keys.size(); ++I) {
    auto [It, New] = First.try_emplace(Keys.element(I), I);
    if (!New && !Values.equal(It->second, I))
      return lineError(static_cast<int64_t>(I),
                       absl::StrCat("key ", Keys.show(I), " has value ", Values.show(I),
                                    ", but ", Values.show(It->second), " on line ",
                                    It->second + 1, " (a table has one value per key)"));
  }
  return absl::OkStatus();
}

/// (node, port) -> the asset file name bound to that tensor.
using AssetMap = std::map<std::pair<std::string, int>, std::string>;

/// The tensors bound to assets, as TensorFlow's loaders bind them: the meta
/// graph's asset_file_def, else the saved_model_assets collection.
AssetMap assetBindings(const Model &M) {
  AssetMap Out;
  const tensorflow::MetaGraphDef *Meta = M.metaGraph();
  if (!Meta)
    return Out;
  std::vector<tensorflow::AssetFileDef> Defs(Meta->asset_file_def().begin(),
                                             Meta->asset_file_def().end());
  if (Defs.empty())
    if (auto It = Meta->collection_def().find("saved_model_assets");
        It != Meta->collection_def().end())
      for (const auto &Any : It->second.any_list().value())
        if (tensorflow::AssetFileDef Def; Def.ParseFromString(Any.value()))
          Defs.push_back(std::move(Def));
  for (const tensorflow::AssetFileDef &Def : Defs) {
    auto [Name, Port] = llvm::StringRef(Def.tensor_info().name()).rsplit(':');
    int K = 0;
    if (Port.getAsInteger(10, K))
      K = 0;
    Out[{Name.str(), K}] = Def.filename();
  }
  return Out;
}

/// Follows Identity nodes up from input `I` of `N`.
Input source(const Node &N, unsigned I) {
  Input In = N.input(I);
  while (In.Src->op() == "Identity" && In.Src->numDataInputs() > 0)
    In = In.Src->input(0);
  return In;
}

/// What initializer `N` asks for; S.Path stays empty when the file is named
/// at run time. `IsAsset`: the file is one of the SavedModel's assets.
absl::Status readSpec(const Model &M, const Node &N, const AssetMap &Assets, TextFileSpec &S,
                      bool &IsAsset) {
  if (N.numDataInputs() != 2)
    return absl::InvalidArgumentError(
        absl::StrCat("has ", N.numDataInputs(), " inputs, not 2 (table, filename)"));
  const std::pair<llvm::StringRef, int64_t *> IntAttrs[] = {
      {"key_index", &S.KeyIndex}, {"value_index", &S.ValueIndex}, {"vocab_size", &S.VocabSize},
      {"offset", &S.Offset}};
  for (auto [Attr, Out] : IntAttrs) {
    const tensorflow::AttrValue *V = N.findAttr(Attr);
    if (V && V->value_case() != tensorflow::AttrValue::kI)
      return absl::InvalidArgumentError(absl::StrCat("attribute ", Attr.str(), " is not an int"));
    if (V)
      *Out = V->i();
    else if (Attr == "key_index" || Attr == "value_index") // others have defaults
      return absl::InvalidArgumentError(absl::StrCat("has no ", Attr.str()));
  }
  for (auto [Attr, Index] : IntAttrs)
    if (Attr.ends_with("_index") && *Index < WholeLine)
      return absl::InvalidArgumentError(absl::StrCat(
          Attr.str(), " is ", *Index, "; -2 (whole line), -1 (line number) or a column are valid"));
  if (S.VocabSize < -1)
    return absl::InvalidArgumentError(absl::StrCat("vocab_size is ", S.VocabSize));
  if (const tensorflow::AttrValue *D = N.findAttr("delimiter")) {
    if (D->s().size() != 1)
      return absl::InvalidArgumentError(
          absl::StrCat("delimiter ", quoted(D->s()), " is not one character"));
    S.Delimiter = D->s()[0];
  }

  // The table's dtypes, from the op that makes it.
  const Node *Table = source(N, 0).Src;
  const tensorflow::AttrValue *K = Table->findAttr("key_dtype");
  const tensorflow::AttrValue *V = Table->findAttr("value_dtype");
  if (!K || !V)
    return absl::InvalidArgumentError(
        absl::StrCat("its table comes from '", Table->name().str(), "' (", Table->op().str(),
                     "), which has no key_dtype and value_dtype"));
  S.KeyType = baseDataType(K->type());
  S.ValueType = baseDataType(V->type());
  const std::tuple<const char *, int64_t, DataType> Columns[] = {
      {"key", S.KeyIndex, S.KeyType}, {"value", S.ValueIndex, S.ValueType}};
  for (auto [What, Index, DT] : Columns) {
    if (Index == LineNumber && DT != tensorflow::DT_INT64)
      return absl::InvalidArgumentError(absl::StrCat(
          What, "_index -1 (line number) needs an int64 ", What, ", not ", dataTypeName(DT)));
    if (Index == WholeLine && !isIntegerType(DT) && DT != tensorflow::DT_STRING)
      return absl::InvalidArgumentError(absl::StrCat(
          What, "_index -2 (whole line) needs a string or integer ", What, ", not ",
          dataTypeName(DT)));
    if (!isIntegerType(DT) && DT != tensorflow::DT_STRING && DT != tensorflow::DT_FLOAT &&
        DT != tensorflow::DT_DOUBLE)
      return absl::InvalidArgumentError(absl::StrCat(
          "a ", What, " of dtype ", dataTypeName(DT), " cannot be read from a text file"));
  }

  // The file: an asset of the SavedModel (bound to any tensor on the way up
  // through Identity nodes), or a constant path.
  for (Input In = N.input(1);; In = In.Src->input(0)) {
    if (auto It = Assets.find({In.Src->name().str(), In.Port}); It != Assets.end()) {
      FROST_ASSIGN_OR_RETURN(S.Path, savedModelAssetPath(M.sourcePath(), It->second));
      IsAsset = true;
      return absl::OkStatus();
    }
    if (In.Src->op() != "Identity" || In.Src->numDataInputs() == 0)
      break;
  }
  IsAsset = false;
  Input File = source(N, 1);
  const tensorflow::AttrValue *Value = File.Src->findAttr("value");
  if (File.Src->op() != "Const" || !Value || !Value->has_tensor())
    return absl::OkStatus(); // read at run time
  const tensorflow::TensorProto &T = Value->tensor();
  if (T.dtype() != tensorflow::DT_STRING || T.tensor_shape().dim_size() != 0 ||
      T.string_val_size() != 1)
    return absl::InvalidArgumentError(absl::StrCat("its filename '", File.Src->name().str(),
                                                   "' is not one string"));
  if (T.string_val(0).empty())
    return absl::InvalidArgumentError(
        absl::StrCat("its filename '", File.Src->name().str(), "' is empty"));
  S.Path = T.string_val(0);
  return absl::OkStatus();
}

class InlineTableFilesPass : public Pass {
public:
  InlineTableFilesPass() = default;
  explicit InlineTableFilesPass(const KeepOutputsOptions &O) {
    Outputs.setIfGiven(O.Outputs);
  }

private:
  ListOption<std::string> Outputs{
      *this, "outputs",
      "Inline only the initializers these nodes need (data, control and colocation inputs); "
      "default: every one"};
  GraphEnds graphEnds() override { return {nullptr, &Outputs}; }
  Statistic NumTables{*this, "tables-inlined", "Table initializers that read a file now"};
  Statistic NumEntries{*this, "entries", "Key/value pairs read from files"};

  absl::Status run(Model &M, PassContext &Ctx) override {
    Graph &G = M.graph();
    const std::vector<bool> *Needed = nullptr;
    if (!Outputs.empty()) {
      FROST_ASSIGN_OR_RETURN(Needed, Ctx.analyses().nodesNeededBy(G, *Outputs));
    }
    std::vector<Node *> Inits;
    for (Node &N : G)
      if (isTextFileTableInitializerOp(N.op()) && (!Needed || (*Needed)[N.id()]))
        Inits.push_back(&N);
    AssetMap Assets = assetBindings(M);
    // Every table that cannot be built is reported at once.
    absl::StatusCode Code = absl::StatusCode::kOk;
    std::vector<std::string> Errors;
    uint64_t Before = NumTables.value();
    for (Node *N : Inits)
      if (absl::Status S = inlineTable(M, *N, Assets, Ctx); !S.ok()) {
        if (Errors.empty())
          Code = S.code();
        Errors.push_back(absl::StrCat("node '", N->name().str(), "' (", N->op().str(), "): ",
                                      S.message()));
      }
    if (!Errors.empty())
      return absl::Status(Code, joinFindings(Errors));
    if (NumTables.value() == Before)
      Ctx.markGraphAnalysesPreserved();
    return absl::OkStatus();
  }

  absl::Status inlineTable(Model &M, Node &N, const AssetMap &Assets, PassContext &Ctx);
};

absl::Status InlineTableFilesPass::inlineTable(Model &M, Node &N, const AssetMap &Assets,
                                              PassContext &Ctx) {
  TextFileSpec S;
  bool IsAsset = false;
  FROST_RETURN_IF_ERROR(readSpec(M, N, Assets, S, IsAsset));
  std::string Where = absl::StrCat("node '", N.name().str(), "'");
  if (S.Path.empty()) {
    const Node *File = source(N, 1).Src;
    Ctx.warning(name(), absl::StrCat(Where, " reads its table from a file named by '",
                                     File->name().str(), "' (", File->op().str(),
                                     "), not a constant: the graph reads it when it runs"));
    return absl::OkStatus();
  }
  // A pipe would block; "-" is a file here, not standard input.
  std::string Path = S.Path == "-" ? "./-" : S.Path;
  llvm::sys::fs::file_status Status;
  bool Exists = !llvm::sys::fs::status(Path, Status);
  if (!Exists && !IsAsset) {
    Ctx.warning(name(), absl::StrCat(Where, " reads its table from ", S.Path,
                                     ", which is not there: the graph reads it when it runs"));
    return absl::OkStatus();
  }
  if (Exists && Status.type() != llvm::sys::fs::file_type::regular_file &&
      Status.type() != llvm::sys::fs::file_type::directory_file)
    return absl::InvalidArgumentError(absl::StrCat(S.Path, ": not a regular file"));
  absl::StatusOr<std::unique_ptr<MappedFile>> File = MappedFile::open(Ctx.context(), Path);
  if (!File.ok())
    return absl::Status(File.status().code(),
                        absl::StrCat(IsAsset ? "asset " : "", File.status().message()));

  Column Keys(S.KeyType), Values(S.ValueType);
  FROST_RETURN_IF_ERROR(readTable(S, (*File)->bytes(), Keys, Values));
  size_t Entries = Keys.size();
  Graph &G = M.graph();
  auto constant = [&](llvm::StringRef Suffix, Column &C, DataType DT) -> absl::StatusOr<Node *> {
    Node *Const = G.createNode(G.uniqueName((N.name() + "/" + Suffix).str()), "Const");
    Const->attr("dtype").set_type(DT);
    FROST_RETURN_IF_ERROR(makeTensorProto(C.take(), *Const->attr("value").mutable_tensor()));
    return Const;
  };
  FROST_ASSIGN_OR_RETURN(Node *KeysConst, constant("keys", Keys, S.KeyType));
  FROST_ASSIGN_OR_RETURN(Node *ValuesConst, constant("values", Values, S.ValueType));
  N.setOp(N.op() == "InitializeTableFromTextFileV2" ? "InitializeTableV2" : "InitializeTable");
  N.setInput(1, KeysConst, 0);
  N.addDataInput(ValuesConst, 0);
  for (const char *Attr : {"key_index", "value_index", "vocab_size", "delimiter", "offset"})
    N.eraseAttr(Attr);
  N.attr("Tkey").set_type(S.KeyType);
  N.attr("Tval").set_type(S.ValueType);
  Ctx.note(name(), absl::StrCat(Where, ": ", Entries, Entries == 1 ? " entry" : " entries",
                                " read from ", S.Path));
  ++NumTables;
  NumEntries += Entries;
  return absl::OkStatus();
}

} // namespace

std::unique_ptr<Pass> createInlineTableFilesPass() {
  return std::make_unique<InlineTableFilesPass>();
}

std::unique_ptr<Pass> createInlineTableFilesPass(const KeepOutputsOptions &Options) {
  return makeNamedPass<InlineTableFilesPass>(PassName::createInlineTableFilesPass, Options);
}

} // namespace frost
