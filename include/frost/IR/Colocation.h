//===- Colocation.h - `_class: loc:@X` references ---------------*- C++ -*-===//
#ifndef FROST_IR_COLOCATION_H
#define FROST_IR_COLOCATION_H

namespace frost {

class Graph;

/// Drops every colocation entry (`loc:@X` in a `_class` attribute) naming a
/// node not in `G`, and the `_class` attribute it leaves empty. Colocation is
/// a placement hint; once a pass has removed or renamed its anchor the hint
/// means nothing, but TensorFlow's importer refuses the graph over it ("expects
/// to be colocated with unknown node"). The pass manager calls this after
/// every pass, so no pass that removes nodes needs to. Returns how many
/// entries went.
unsigned dropColocationsWithMissingTargets(Graph &G);

} // namespace frost

#endif // FROST_IR_COLOCATION_H
