//===- Version.cpp - The version every tool and report names --------------===//
#include "frost/Support/Version.h"

namespace frost {

const char *frostVersion() { return "Frost 0.1.0"; }

} // namespace frost
