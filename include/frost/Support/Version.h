//===- Version.h - The version every tool and report names ------*- C++ -*-===//
#ifndef FROST_SUPPORT_VERSION_H
#define FROST_SUPPORT_VERSION_H

namespace frost {

/// "Frost X.Y.Z": the tools' --version line and the reports' "tool".
const char *frostVersion();

} // namespace frost

#endif // FROST_SUPPORT_VERSION_H
