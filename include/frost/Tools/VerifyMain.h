//===- VerifyMain.h - The frost-verify driver -------------------*- C++ -*-===//
#ifndef FROST_TOOLS_VERIFYMAIN_H
#define FROST_TOOLS_VERIFYMAIN_H

namespace frost {

/// frost-verify FROZEN --source INPUT [freeze-graph's options]: checks that
/// FROZEN is what freezing INPUT that way gives (docs/verify.md). Returns 0
/// when every check held, 1 on a finding or an unreadable input, 2 for a bad
/// command line.
int frostVerifyMain(int Argc, char **Argv);

} // namespace frost

#endif // FROST_TOOLS_VERIFYMAIN_H
