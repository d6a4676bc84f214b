//===- OpInfo.h - What Frost knows about ops without a registry -*- C++ -*-===//
//
// Frost never executes ops and needs no op registry: any op, custom ones
// included, passes through. Where the number of outputs of an op is known
// (built-in table, or a function of the graph's library) it is used to check
// edges; otherwise nothing is assumed.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_IR_OPINFO_H
#define FROST_IR_OPINFO_H

#include "frost/IR/OpClasses.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace frost {

class Node;

/// How many outputs `N` has, when its op is known; nullopt for unknown ops.
std::optional<int> numOutputs(const Node &N);

/// Adds the default attributes TensorFlow's OpDef gives N's op and N lacks,
/// for the few common ops Frost knows, when there is no OpDef at hand (a
/// SavedModel's stripped op list misses the ops only If/While branches use,
/// and freezing creates ops such as GatherV2 that the model never had).
void addKnownDefaultAttrs(Node &N);

} // namespace frost

#endif // FROST_IR_OPINFO_H
