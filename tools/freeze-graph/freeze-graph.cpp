//===- freeze-graph.cpp - Freeze a TensorFlow model for inference ---------===//
#include "frost/Tools/FreezeMain.h"

int main(int Argc, char **Argv) { return frost::frostFreezeMain(Argc, Argv); }
