//===- FreezeArgsFuzzer.cpp - libFuzzer target for freeze-graph's flags ---===//
//
// Input: a freeze-graph command line without the program name, one argument
// per line or NUL-separated. Parsed by parseFreezeCommandLine, the argparse-
// compatible parser (prefixes, `--name value`, bool values) in front of
// freeze(); it must return a status for anything, never exit. --help output
// is rendered too.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "frost/Tools/FreezeMain.h"

#include <string>
#include <vector>

using namespace frost;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::vector<std::string> Words(1);
  for (char C : fuzz::bytes(Data, Size)) {
    if (C == '\0' || C == '\n')
      Words.emplace_back();
    else
      Words.back() += C;
  }
  if (Words.back().empty())
    Words.pop_back(); // a final newline ends the last argument
  std::vector<const char *> Args;
  for (const std::string &W : Words)
    Args.push_back(W.c_str());
  FreezeCommandLine C;
  if (parseFreezeCommandLine(Args, C).ok() && C.Help)
    printFreezeHelp(llvm::nulls());
  return 0;
}
