//===- Status.h - absl::Status helpers --------------------------*- C++ -*-===//
//
// Error plumbing shared by every library: library code returns absl::Status or
// absl::StatusOr<T> and never exits on bad input.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_SUPPORT_STATUS_H
#define FROST_SUPPORT_STATUS_H

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/cord.h"

#define FROST_CONCAT_IMPL(a, b) a##b
#define FROST_CONCAT(a, b) FROST_CONCAT_IMPL(a, b)

/// Returns from the enclosing function when `expr` yields a non-OK status.
#define FROST_RETURN_IF_ERROR(expr)                                            \
  do {                                                                         \
    if (::absl::Status frost_status_ = (expr); !frost_status_.ok())            \
      return frost_status_;                                                    \
  } while (false)

/// `FROST_ASSIGN_OR_RETURN(auto x, f())`: unwraps a StatusOr or returns its
/// error.
#define FROST_ASSIGN_OR_RETURN(lhs, expr)                                      \
  FROST_ASSIGN_OR_RETURN_IMPL(FROST_CONCAT(frost_statusor_, __LINE__), lhs,    \
                              expr)
#define FROST_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr)                            \
  auto tmp = (expr);                                                           \
  if (!tmp.ok())                                                               \
    return std::move(tmp).status();                                            \
  lhs = *std::move(tmp)

namespace frost {

inline constexpr char UsageErrorPayload[] = "frost.usage-error";

/// `S` marked as a mistake in a job's options (no input named, a pipeline
/// that does not parse, an unknown transform): what a tool reports as a
/// usage error (exit 2, as argparse does). Code and message stay as they are.
inline absl::Status usageError(absl::Status S) {
  if (!S.ok())
    S.SetPayload(UsageErrorPayload, absl::Cord("1"));
  return S;
}

inline bool isUsageError(const absl::Status &S) {
  return S.GetPayload(UsageErrorPayload).has_value();
}

} // namespace frost

#endif // FROST_SUPPORT_STATUS_H
