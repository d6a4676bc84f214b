//===- RunTables.h - The lookup tables of one run --------------*- C++ -*-===//
//
// The graph runner's lookup tables: HashTable(V2), MutableHashTable(V2) and
// MutableHashTableOfTensors(V2), filled by InitializeTable(V2) and
// LookupTableImport(V2) and read by LookupTableFind(V2) and
// LookupTableSize(V2), as TensorFlow's kernels do (a static table is
// initialized once and refuses lookups before; a mutable one starts empty
// and an import replaces its contents). A table is state of the run: the
// node that makes it (its shared_name, else its name) names it, so the
// initializers GraphRunner runs first and the outputs it runs next see the
// same table. Its handle travels as a scalar whose element names the table.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_VERIFY_RUNTABLES_H
#define FROST_LIB_VERIFY_RUNTABLES_H

#include "frost/IR/Graph.h"
#include "frost/Support/Status.h"
#include "frost/Tensor/Tensor.h"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace frost::verify {

class RunTables {
public:
  /// Whether `Op` is a lookup-table op this store runs.
  static bool runs(llvm::StringRef Op);

  /// Runs `N` (an op runs() accepts; `Name`: its name in the run, the calls
  /// it runs under included) on its data inputs. Errors are what
  /// TensorFlow's kernel says; FailedPrecondition "Table not initialized."
  /// for a lookup in a static table no initializer filled.
  absl::StatusOr<std::vector<TensorData>> run(const Node &N, llvm::StringRef Name,
                                              std::vector<TensorData> Inputs);

private:
  struct Table {
    bool Mutable = false;
    tensorflow::DataType KeyDType = tensorflow::DT_INVALID;
    tensorflow::DataType ValueDType = tensorflow::DT_INVALID;
    /// MutableHashTableOfTensors: the shape of one value.
    std::vector<int64_t> ValueShape;
    bool Initialized = false;
    /// A key's bytes (a string's own, a number's in memory) -> its row.
    std::unordered_map<std::string, int64_t> Rows;
    /// The values, row after row (FixedValues for numbers, StringValues for
    /// strings).
    std::string FixedValues;
    std::vector<std::string> StringValues;
    /// The keys and values the table was initialized from (an initializer
    /// run again with other data is an error).
    std::string InitKeys, InitValues;
  };

  absl::StatusOr<Table *> table(const TensorData &Handle);
  absl::Status fill(Table &T, const TensorData &Keys, const TensorData &Values, bool Import,
                    llvm::StringRef HandleType);

  std::vector<Table> Tables;
  std::map<std::string, size_t, std::less<>> ByName;
};

} // namespace frost::verify

#endif // FROST_LIB_VERIFY_RUNTABLES_H
