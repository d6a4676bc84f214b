//===- Npy.h - Tensors as numpy's .npy files ---------------------*- C++ -*-===//
//
// numpy's .npy format (numpy/lib/format.py): a magic string, a version, a
// header that is a Python dict literal ({'descr': '<f4', 'fortran_order':
// False, 'shape': (2, 3), }) and the elements in C order. The header is a
// few dozen bytes of fixed grammar, read and written here; the .npz zip
// around several arrays is lib/Run's (libzip).
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TENSOR_NPY_H
#define FROST_TENSOR_NPY_H

#include "frost/Support/Status.h"
#include "frost/Tensor/Tensor.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace frost {

/// Reads one .npy array: bool, (u)int8..64, float16/32/64, complex64/128 in
/// either byte order, and byte (S) or unicode (U) strings as DT_STRING
/// (numpy's trailing NULs dropped, unicode as UTF-8). Fortran order, object,
/// structured and other dtypes are refused; errors name `Name` (the file,
/// or `file.npz: entry`) and say what is wrong.
absl::StatusOr<TensorData> decodeNpy(llvm::StringRef Bytes, llvm::StringRef Name);

/// `T` as a .npy file (version 1.0, or 2.0 for a header over 64 KiB), header
/// padded to 64 bytes as numpy pads it; strings as bytes ('|S<longest>').
/// Dtypes numpy has no spelling for (bfloat16, quantized, variant) are
/// InvalidArgument naming `Name`.
absl::StatusOr<std::string> encodeNpy(const TensorData &T, llvm::StringRef Name);

} // namespace frost

#endif // FROST_TENSOR_NPY_H
