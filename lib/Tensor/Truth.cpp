//===- Truth.cpp - TensorFlow's truth of a tensor -------------------------===//
#include "frost/Tensor/Truth.h"

namespace frost {

std::optional<bool> truthOf(const TensorData &T) {
  if (!T.shape().empty())
    return T.numElements() > 0;
  switch (T.dtype()) {
  case tensorflow::DT_STRING:
    return !T.elements().empty() && !T.elements()[0].empty();
  case tensorflow::DT_BOOL:
  case tensorflow::DT_FLOAT:
  case tensorflow::DT_DOUBLE:
  case tensorflow::DT_INT32:
  case tensorflow::DT_UINT8:
  case tensorflow::DT_INT16:
  case tensorflow::DT_INT8:
  case tensorflow::DT_INT64: {
    long double Imag;
    return *elementAsNumber(T, 0, Imag) != 0; // a number for each of these
  }
  default:
    return std::nullopt;
  }
}

} // namespace frost
