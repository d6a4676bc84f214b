//===- Regex.h - Regular expressions as TensorFlow's kernels compile them -===//
//
// Shared by the regex kernels (Strings.cpp) and their work estimate
// (Eval.cpp): one place for the options TensorFlow's kernels use.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_EVAL_REGEX_H
#define FROST_LIB_EVAL_REGEX_H

#include <re2/re2.h>

#include <memory>
#include <string>

namespace frost::eval {

/// `Pattern` compiled with RE2's default options, as TensorFlow compiles it,
/// except that RE2 logs nothing to stderr; check ok() and error().
std::unique_ptr<re2::RE2> compileTensorFlowRegex(const std::string &Pattern);

} // namespace frost::eval

#endif // FROST_LIB_EVAL_REGEX_H
