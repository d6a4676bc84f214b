//===- FreezeFlags.h - The flags that say how a graph is frozen -*- C++ -*-===//
//
// freeze-graph's flags that fill FreezeOptions, shared with frost-verify,
// which is told how a graph was frozen with the same words.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_TOOLS_FREEZEFLAGS_H
#define FROST_LIB_TOOLS_FREEZEFLAGS_H

#include "ArgParser.h"

#include "frost/Freeze/Freeze.h"
#include "frost/Verify/Verify.h"

#include <string>

namespace frost {

/// --outputs, --checkpoint, --signature, --tags, --ema, --rename, --bind,
/// --only, --except, the sequence's switches and --pass-pipeline, in group
/// `Main`.
void addFreezeFlags(ArgParser &P, FreezeOptions &O, const std::string &Main);

/// The fixed-shape flags (freeze-graph's --input-shape/--batch-size,
/// optimize-for-inference's --input_shape/--batch_size): NAME:D,D,... items
/// and a positive batch size; only the batch flag without `Shapes` (whose
/// items frost-verify's numeric --input-shape takes).
void addFixedShapeFlags(ArgParser &P, std::vector<std::string> *Shapes, int64_t &BatchSize,
                        llvm::StringRef ShapeFlag, llvm::StringRef BatchFlag,
                        const std::string &Group);

/// freeze_graph.py's own spellings (--input_graph, --input_meta_graph, ...),
/// in group `Compat`.
void addFreezeCompatFlags(ArgParser &P, FreezeOptions &O, const std::string &Compat);

/// --seed, --input-shape, --atol and --rtol: the random inputs of a run and
/// the tolerances of a comparison of `Got` with the reference `Want`
/// ("frozen", "source"), in group `Main`. With `FixedShapes`, --input-shape
/// also takes freeze-graph's NAME:D,D,... (how the graph was frozen) into it.
void addNumericFlags(ArgParser &P, verify::NumericOptions &N, const std::string &Main,
                     llvm::StringRef Got = "frozen", llvm::StringRef Want = "source",
                     std::vector<std::string> *FixedShapes = nullptr);

} // namespace frost

#endif // FROST_LIB_TOOLS_FREEZEFLAGS_H
