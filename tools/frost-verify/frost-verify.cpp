//===- frost-verify.cpp - Check a frozen graph against its source ---------===//
#include "frost/Tools/VerifyMain.h"

int main(int Argc, char **Argv) { return frost::frostVerifyMain(Argc, Argv); }
