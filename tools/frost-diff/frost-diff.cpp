//===- frost-diff.cpp - Compare two graphs --------------------------------===//
#include "frost/Tools/DiffMain.h"

int main(int Argc, char **Argv) { return frost::frostDiffMain(Argc, Argv); }
