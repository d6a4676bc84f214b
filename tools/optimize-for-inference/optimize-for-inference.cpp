//===- optimize-for-inference.cpp - optimize_for_inference.py, natively ---===//
#include "frost/Tools/OptimizeMain.h"

int main(int Argc, char **Argv) { return frost::frostOptimizeMain(Argc, Argv); }
