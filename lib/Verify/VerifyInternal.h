//===- VerifyInternal.h - What the three checks and the report share -*- C++ -*-===//
//
// Verify.cpp (checks 1 and 2, verifyFrozen), VerifyNumeric.cpp and
// VerifyInputs.cpp (check 3) and VerifyReport.cpp (text and JSON) share these.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_VERIFY_VERIFYINTERNAL_H
#define FROST_LIB_VERIFY_VERIFYINTERNAL_H

#include "frost/Checkpoint/CheckpointReader.h"
#include "frost/Freeze/Freeze.h"
#include "frost/Tensor/Tensor.h"
#include "frost/Verify/Verify.h"

#include "llvm/ADT/StringSet.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace frost::verify::detail {

/// 'S'.
std::string inQuotes(llvm::StringRef S);
/// A difference or tolerance in three digits; "inf".
std::string formatDiff(double V);

/// Element `I` of `T` as text, exactly (numbers as JSON spells them).
std::string elementText(const TensorData &T, int64_t I);
/// An output's worst element ("worst at [0,3]: frozen 4.0, source 5.0 (abs
/// diff 1, rel diff 0.2)"; "first at [1]: ..." compared exactly); "" if none.
std::string worstText(const OutputCheck &C, llvm::StringRef Got = "frozen",
                      llvm::StringRef Want = "source");
/// The tolerance an output was judged by, in words.
std::string toleranceText(const OutputCheck &C, llvm::StringRef Want = "source");

/// `T` converted by the evaluator's Cast (TensorFlow's conversions).
absl::StatusOr<TensorData> castTo(const TensorData &T, tensorflow::DataType To);
bool isFloating(tensorflow::DataType T);
bool isComplex(tensorflow::DataType T);
/// Whether `T` has numbers to subtract (else it compares exactly).
bool isArithmetic(const TensorData &T);
/// Real component `K` of a float or complex tensor (a complex element has
/// two), read in place.
double componentAt(const TensorData &T, uint64_t K);
uint64_t numComponents(const TensorData &T);

/// Every variable freezing made a constant, with the key it was read from,
/// by name (also those --optimize folded into other constants).
std::map<std::string, VariableSource, std::less<>>
convertedVariables(const FreezeResult &Expected);
/// The variables freezing the source again leaves variables (--only,
/// --except).
llvm::StringSet<> keptVariables(const FreezeResult &Expected);
/// The value freezing read for a variable: its key's tensor, or the slice.
absl::StatusOr<TensorData> checkpointValue(const CheckpointReader &Reader,
                                           const VariableSource &Source);
/// The nodes `Outputs` need in `G` (none when one is missing).
std::vector<bool> reached(const Graph &G, const std::vector<std::string> &Outputs);

/// Check 3's inputs (VerifyInputs.cpp).
/// What verification feeds: a placeholder the outputs need, or a TF1
/// signature's input that another node computes.
struct InputDecl {
  const Node *N;
  tensorflow::DataType DType;
  /// Unknown dimensions already chosen; none when the rank is unknown.
  std::optional<std::vector<int64_t>> Shape;
  /// Fed in place of what computes it (a signature's input), in both graphs.
  bool InPlace = false;
  /// The ParseExample op that parses this string input, if any.
  const Node *Parser = nullptr;
};

/// The inputs the source's `Outputs` need: its placeholders, and a TF1
/// SavedModel signature's inputs other nodes compute (fed in their place).
std::vector<InputDecl> declaredInputs(const Model &Source, const FreezeResult &Expected,
                                      const std::vector<std::string> &Outputs,
                                      const NumericOptions &Options);
/// The shapes tried, in order, for inputs of unknown rank.
const std::vector<std::vector<int64_t>> &unknownRankCandidates();
/// A seeded random value for input `Name` of `Shape`; serialized
/// tf.train.Examples for a string input `Parser` (a ParseExample op) reads.
absl::StatusOr<TensorData> randomValue(llvm::StringRef Name, tensorflow::DataType DType,
                                       const std::vector<int64_t> &Shape,
                                       const NumericOptions &Options,
                                       const Node *Parser = nullptr);

/// Check 3 (VerifyNumeric.cpp).
void checkNumeric(Context &Ctx, const FreezeResult &Expected, const Model &Frozen,
                  const CheckpointReader *Reader, const NumericOptions &Options,
                  VerifyReport &R);

} // namespace frost::verify::detail

#endif // FROST_LIB_VERIFY_VERIFYINTERNAL_H
