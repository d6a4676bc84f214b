//===- OptimizeMain.h - The optimize-for-inference driver -------*- C++ -*-===//
#ifndef FROST_TOOLS_OPTIMIZEMAIN_H
#define FROST_TOOLS_OPTIMIZEMAIN_H

namespace frost {

/// optimize-for-inference: TensorFlow's optimize_for_inference.py, with its
/// flags (--input --output --input_names --output_names --frozen_graph
/// --placeholder_type_enum --toco_compatible --placeholder_to_const_names).
/// Returns the exit code: 0 on success, 1 when reading, optimizing or
/// writing fails, 2 for a bad command line.
int frostOptimizeMain(int Argc, char **Argv);

} // namespace frost

#endif // FROST_TOOLS_OPTIMIZEMAIN_H
