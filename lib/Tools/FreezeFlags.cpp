//===- FreezeFlags.cpp - freeze-graph's options, shared with frost-verify -===//
//
// How a model is frozen, as flags: freeze-graph's own spellings and
// freeze_graph.py's (argparse's rules: any unambiguous prefix, `_` or `-`).
// frost-verify takes the same, to freeze the source again the same way.
//
//===----------------------------------------------------------------------===//
#include "FreezeFlags.h"

#include "frost/Transforms/Utils/ShapeInference.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {

/// "a, b ,c" -> {"a", "b", "c"}: freeze_graph.py drops every space.
void appendCommaList(llvm::StringRef Text, std::vector<std::string> &Out) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Text.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef P : Parts) {
    std::string Item;
    for (char C : P)
      if (C != ' ')
        Item += C;
    if (!Item.empty())
      Out.push_back(std::move(Item));
  }
}

/// "NAME=1,224,224,3".
absl::Status parseInputShape(llvm::StringRef Text, verify::NumericOptions &N) {
  auto [Name, Dims] = Text.split('=');
  if (Name.empty() || Dims.empty())
    return absl::InvalidArgumentError("expected NAME=D,D,... (NAME= for a scalar)");
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Shape, parseDimensions(Dims));
  N.InputShapes[Name.trim().str()] = std::move(Shape);
  return absl::OkStatus();
}

absl::Status parseDouble(llvm::StringRef Text, std::optional<double> &Out) {
  double V;
  if (Text.getAsDouble(V) || !(V >= 0))
    return absl::InvalidArgumentError("expected a number >= 0");
  Out = V;
  return absl::OkStatus();
}

} // namespace

void addNumericFlags(ArgParser &P, verify::NumericOptions &N, const std::string &Main,
                     llvm::StringRef Got, llvm::StringRef Want,
                     std::vector<std::string> *FixedShapes) {
  using K = ArgParser::Kind;
  P.add({{"seed"}, K::Value, "N", "Seed of the random inputs (default 0)",
         [&N](llvm::StringRef V) {
           if (V.getAsInteger(10, N.Seed))
             return absl::InvalidArgumentError("expected a number");
           return absl::OkStatus();
         },
         Main});
  P.add({{"input-shape"}, K::Value, "NAME=D,D,...",
         absl::StrCat("Shape to feed input NAME (default: its declared shape, unknown\n"
                      "dimensions 1 first and 8 after); repeat for more inputs",
                      FixedShapes ? ". NAME:D,D,...\n(freeze-graph's) says the graph was frozen "
                                    "with that shape"
                                  : ""),
         [&N, FixedShapes](llvm::StringRef V) {
           if (FixedShapes && !V.contains('=') && V.contains(':')) {
             FixedShapes->push_back(V.str());
             return absl::OkStatus();
           }
           return parseInputShape(V, N);
         },
         Main});
  P.add({{"atol"}, K::Value, "X",
         absl::StrCat("An element holds when |", Got.str(), " - ", Want.str(), "| <= atol + rtol * |",
                      Want.str(), "|\n"
                      "(default by dtype: float32 1e-5, float64 1e-8, half 1e-3,\n"
                      "bfloat16 1e-2); an output whose ", Want.str(), " values all lie below\n"
                      "atol is judged by rtol alone"),
         [&N](llvm::StringRef V) { return parseDouble(V, N.Atol); }, Main});
  P.add({{"rtol"}, K::Value, "X",
         absl::StrCat("Tolerance relative to each ", Want.str(), " element (default: float32\n"
                      "1e-5, float64 1e-5, half 1e-2, bfloat16 5e-2)"),
         [&N](llvm::StringRef V) { return parseDouble(V, N.Rtol); }, Main});
}

void addFixedShapeFlags(ArgParser &P, std::vector<std::string> *Shapes, int64_t &BatchSize,
                        llvm::StringRef ShapeFlag, llvm::StringRef BatchFlag,
                        const std::string &Group) {
  using K = ArgParser::Kind;
  if (Shapes)
    P.add({{ShapeFlag.str()}, K::Value, "NAME:D,D,...",
           "Fix input NAME's shape (NAME: for a scalar); repeat for more\n"
           "inputs. The shape arithmetic that becomes constant is folded",
           [Shapes](llvm::StringRef V) {
             Shapes->push_back(V.str());
             return absl::OkStatus();
           },
           Group});
  P.add({{BatchFlag.str()}, K::Value, "N",
         "Fix the first dimension of every other input whose first\n"
         "dimension is unknown to N",
         [&BatchSize](llvm::StringRef V) {
           if (V.getAsInteger(10, BatchSize) || BatchSize <= 0)
             return absl::InvalidArgumentError("expected a positive number");
           return absl::OkStatus();
         },
         Group});
}

void addFreezeFlags(ArgParser &P, FreezeOptions &O, const std::string &Main) {
  using K = ArgParser::Kind;
  auto str = ArgParser::storeString;
  auto flag = [](bool &Field, bool Invert = false) { return ArgParser::storeFlag(Field, Invert); };
  auto list = [](std::vector<std::string> &Field) {
    return [&Field](llvm::StringRef V) {
      appendCommaList(V, Field);
      return absl::OkStatus();
    };
  };
  P.add({{"outputs", "output_node_names"}, K::Value, "LIST",
         "Outputs to keep, comma separated: node names, tensor names\n"
         "(add:0), collection:NAME (a MetaGraph collection's nodes),\n"
         "signature:NAME (a signature's outputs)",
         list(O.Outputs), Main});
  P.add({{"checkpoint", "input_checkpoint"}, K::Value, "PREFIX",
         "Checkpoint to freeze from: a prefix, one of its files, or a\n"
         "directory (its latest); default: the input's own", str(O.Checkpoint), Main});
  P.add({{"signature"}, K::Value, "NAME",
         "Signature whose outputs to keep when --outputs is not given",
         str(O.Signature), Main});
  P.add({{"tags", "saved_model_tags"}, K::Value, "TAG,...",
         "Tags of the SavedModel meta graph to freeze (default: serve)",
         [&O](llvm::StringRef V) {
           O.Tags.clear();
           appendCommaList(V, O.Tags);
           return absl::OkStatus();
         },
         Main});
  P.add({{"ema"}, K::OptionalValue, "NAME",
         "Freeze averaged variables with their moving averages (NAME:\n"
         "the EMA's name, default ExponentialMovingAverage)",
         [&O](llvm::StringRef V) {
           O.Ema = V.empty() ? "ExponentialMovingAverage" : V.str();
           return absl::OkStatus();
         },
         Main});
  P.add({{"rename"}, K::Value, "VAR:KEY,...",
         "Freeze graph variable VAR from checkpoint key KEY\n"
         "(what Saver({KEY: VAR}) restores)",
         list(O.Rename), Main});
  P.add({{"bind"}, K::Value, "NAME=VALUE,...",
         "Replace placeholders by constants (is_training=false) and\n"
         "fold the branches they decide",
         [&O](llvm::StringRef V) {
           llvm::SmallVector<llvm::StringRef, 4> Parts;
           V.split(Parts, ',', -1, false);
           for (llvm::StringRef Part : Parts)
             O.Bind.push_back(Part.trim().str());
           return absl::OkStatus();
         },
         Main});
  P.add({{"only", "variable_names_whitelist"}, K::Value, "VAR,...",
         "Freeze only these variables (node names)", list(O.Only), Main});
  P.add({{"except", "variable_names_blacklist", "variable_names_denylist"}, K::Value,
         "VAR,...", "Leave these variables unfrozen (node names)", list(O.Except), Main});
  P.add({{"keep-devices"}, K::Bool, "", "Keep the nodes' device placements",
         flag(O.ClearDevices, /*Invert=*/true), Main});
  P.add({{"strip-training-ops"}, K::Bool, "",
         "Rewrite reference-typed training ops left after pruning\n"
         "(RefSwitch to Switch, AssignSub to Sub, ...)",
         flag(O.StripTrainingOps), Main});
  P.add({{"drop-variable-writes"}, K::Bool, "",
         "Make the ops that write a frozen variable (v.assign_add in a\n"
         "signature, optimizer updates kept as outputs) NoOps, with a\n"
         "warning; without it freezing refuses them",
         flag(O.DropVariableWrites), Main});
  P.add({{"keep-functional-control-flow"}, K::Bool, "",
         "TF2 SavedModels: keep If/While functional instead of lowering\n"
         "them to Switch/Merge (TensorFlow's lower_control_flow=False)",
         flag(O.KeepFunctionalControlFlow), Main});
  P.add({{"optimize"}, K::Bool, "",
         "Then optimize for inference, in the same run and write:\n"
         "training nodes removed, batch norms folded into weights,\n"
         "constants folded, pad/resize fused into convolutions\n"
         "(optimize_for_inference.py's passes; docs/transforms.md)",
         flag(O.Optimize), Main});
  P.add({{"toco-compatible"}, K::Bool, "",
         "With --optimize: only rewrites TensorFlow Lite's converter\n"
         "understands (no fused pad/resize convolutions)",
         flag(O.TocoCompatible), Main});
  P.add({{"compute-in-float32"}, K::Bool, "",
         "With --optimize: compute half and bfloat16 (mixed-precision)\n"
         "graphs in float32 (for runtimes without half or Cast)",
         flag(O.ComputeInFloat32), Main});
  P.add({{"pass-pipeline"}, K::Value, "PIPELINE",
         "More passes to run after freezing (frost-opt --list-passes)",
         str(O.ExtraPipeline), Main, /*Hidden=*/false, /*Multiline=*/true});
}

void addFreezeCompatFlags(ArgParser &P, FreezeOptions &O, const std::string &Compat) {
  using K = ArgParser::Kind;
  auto str = ArgParser::storeString;
  auto flag = [](bool &Field) { return ArgParser::storeFlag(Field); };
  auto list = [](std::vector<std::string> &Field) {
    return [&Field](llvm::StringRef V) {
      appendCommaList(V, Field);
      return absl::OkStatus();
    };
  };

  P.add({{"input_graph"}, K::Value, "FILE", "GraphDef to freeze (binary or text)",
         str(O.InputGraph), Compat});
  P.add({{"input_meta_graph"}, K::Value, "FILE",
         "MetaGraphDef to freeze (wins over --input_graph, as in TF)",
         str(O.InputMetaGraph), Compat});
  P.add({{"input_saved_model_dir"}, K::Value, "DIR", "SavedModel to freeze",
         str(O.SavedModelDir), Compat});
  P.add({{"input_saver"}, K::Value, "FILE",
         "SaverDef whose restore op maps variables to checkpoint keys",
         str(O.InputSaver), Compat});
  P.add({{"input_binary"}, K::Bool, "",
         "Accepted; binary and text are told apart by content",
         [](llvm::StringRef) { return absl::OkStatus(); }, Compat});
  P.add({{"clear_devices"}, K::Bool, "", "Clear device placements (default true)",
         flag(O.ClearDevices), Compat});
  P.add({{"initializer_nodes"}, K::Value, "NODE,...",
         "Nodes to keep with the outputs (table initializers, ...)",
         list(O.InitializerNodes), Compat});
  P.add({{"checkpoint_version"}, K::Value, "1|2",
         "Accepted; the checkpoint's format is detected",
         [](llvm::StringRef V) {
           if (V != "1" && V != "2")
             return absl::InvalidArgumentError("must be 1 or 2");
           return absl::OkStatus();
         },
         Compat});
  P.add({{"restore_op_name"}, K::Value, "NAME", "Accepted and ignored (deprecated in TF)",
         [](llvm::StringRef) { return absl::OkStatus(); }, Compat});
  P.add({{"filename_tensor_name"}, K::Value, "NAME", "Accepted and ignored (deprecated in TF)",
         [](llvm::StringRef) { return absl::OkStatus(); }, Compat});
}

} // namespace frost
