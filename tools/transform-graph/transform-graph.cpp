//===- transform-graph.cpp - TensorFlow's graph transforms, natively ------===//
#include "frost/Tools/TransformMain.h"

int main(int Argc, char **Argv) { return frost::frostTransformMain(Argc, Argv); }
