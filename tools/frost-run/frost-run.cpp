//===- frost-run.cpp - Run a graph on given or random inputs --------------===//
#include "frost/Tools/RunMain.h"

int main(int Argc, char **Argv) { return frost::frostRunMain(Argc, Argv); }
