//===- OpenedReader.h - A checkpoint reader with its own Context ----------===//
#ifndef FROST_UNITTESTS_CHECKPOINT_OPENEDREADER_H
#define FROST_UNITTESTS_CHECKPOINT_OPENEDREADER_H

#include "frost/Checkpoint/CheckpointReader.h"
#include "frost/Support/Context.h"

#include <memory>

namespace frost {

/// A reader together with the Context it was opened in, which outlives it:
/// what tests hand around as one object.
struct OpenedReader {
  std::unique_ptr<Context> Ctx = std::make_unique<Context>();
  std::unique_ptr<CheckpointReader> Reader;

  explicit operator bool() const { return Reader != nullptr; }
  CheckpointReader *operator->() const { return Reader.get(); }
  CheckpointReader &operator*() const { return *Reader; }
};

} // namespace frost

#endif // FROST_UNITTESTS_CHECKPOINT_OPENEDREADER_H
