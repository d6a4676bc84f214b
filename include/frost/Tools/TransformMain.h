//===- TransformMain.h - The transform-graph driver -------------*- C++ -*-===//
#ifndef FROST_TOOLS_TRANSFORMMAIN_H
#define FROST_TOOLS_TRANSFORMMAIN_H

#include "llvm/Support/raw_ostream.h"

namespace frost {

/// transform-graph --help.
void printTransformHelp(llvm::raw_ostream &OS);

/// transform-graph: TensorFlow's transform_graph tool, with its flags
/// (--in_graph --out_graph --inputs --outputs --transforms --output_as_text)
/// and transform list. Returns the exit code: 0 on success, 1 when reading,
/// transforming or writing fails, 2 for a bad command line.
int frostTransformMain(int Argc, char **Argv);

} // namespace frost

#endif // FROST_TOOLS_TRANSFORMMAIN_H
