#!/usr/bin/env python3
"""Compares Frost's Einsum and linear-algebra kernels with TensorFlow.

The ops of lib/Eval/Einsum.cpp (Einsum) and Linalg.cpp (Cholesky,
MatrixDeterminant, LogMatrixDeterminant, MatrixInverse, MatrixSolve,
MatrixTriangularSolve, MatrixBandPart) on random cases over every dtype
TensorFlow registers for each op on CPU: batched, empty, well-conditioned
matrices, singular and not positive definite ones, NaNs, and shapes and
attributes TensorFlow refuses (its message must be Frost's). Cases are
computed and written as scripts/compare_array_with_tf.py does (a Session
with Grappler off, TensorFlow's Eigen kernels: TF_ENABLE_ONEDNN_OPTS=0),
then replayed by frost-unittests' LinalgTensorFlowTest, which allows each
case `_tolerance` epsilons of its output's largest magnitude (TOLERANCE
below) and prints, per op and dtype, how many outputs were bit for bit
TensorFlow's and the largest error. Where Frost does not compute what
TensorFlow does (complex matrices, Einsum's diagonals), the
case checks that Frost refuses (Unimplemented).

  scripts/compare_linalg_with_tf.py --build build [--cases 30] [--seed 1]
      [--ops Einsum,Cholesky] [--out /tmp/frost-linalg-tf-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
# TensorFlow's own (Eigen) CPU kernels, not oneDNN's rewrites.
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_cases  # noqa: E402
from compare_array_with_tf import Case, pick, run_case as array_run_case  # noqa: E402
from tensorflow.python.framework import kernels  # noqa: E402

FLOATS = [tf.float32, tf.float64, tf.float16, tf.bfloat16]
COMPLEX = [tf.complex64, tf.complex128]

# Allowed error, in epsilons of the dtype times the output's largest
# magnitude (at least 1), about twice to four times the largest measured over
# 1400 cases each of seeds 1 to 4: Einsum's products (float and double in
# Eigen's order, measured 2.5 and 5.5; half and bfloat16 rounded once where
# TensorFlow rounds at each step, 6.9 and 6.9; its sums over one input's
# labels are bit for bit), the factorizations (Eigen 3.4 SSE2 against
# TensorFlow's Eigen: Cholesky 0.6, LogMatrixDeterminant 1.3, MatrixInverse
# 1.4, MatrixSolve 1.5, MatrixTriangularSolve 1.0 on matrices of condition
# number below ~20), MatrixDeterminant (the exponential of the summed logs
# amplifies them: 35). MatrixBandPart and integer Einsums must be exact (0).
TOLERANCE = {"Einsum": {tf.float32: 8, tf.float64: 16, tf.float16: 16, tf.bfloat16: 16},
             "Cholesky": 4, "MatrixDeterminant": 128, "LogMatrixDeterminant": 8,
             "MatrixInverse": 8, "MatrixSolve": 8, "MatrixTriangularSolve": 8,
             "MatrixBandPart": 0}


def values(rng, dtype, shape, scale=1.0):
    if dtype.is_integer:
        return rng.integers(-5, 6, size=shape).astype(dtype.as_numpy_dtype)
    if dtype.is_complex:
        v = rng.normal(size=shape) + 1j * rng.normal(size=shape)
        return (v * scale).astype(dtype.as_numpy_dtype)
    if dtype == tf.bool:
        return rng.integers(0, 2, size=shape).astype(bool)
    return (rng.normal(size=shape) * scale).astype(dtype.as_numpy_dtype)


def batch_shape(rng):
    return [int(d) for d in rng.integers(1, 4, size=int(rng.integers(0, 3)))]


def well_conditioned(rng, dtype, batch, n):
    """Diagonally dominant matrices (condition number ~ below 20)."""
    a = rng.normal(size=batch + [n, n]) * 0.3 + np.eye(n) * (2.0 + 0.5 * n ** 0.5)
    if rng.random() < 0.3:
        a = a * float(pick(rng, [1e-3, 1e3]))
    return a.astype(dtype.as_numpy_dtype)


# --- Einsum ------------------------------------------------------------------------------

# (equation, label sizes drawn per case); Keras EinsumDense and
# MultiHeadAttention's equations among them.
EQUATIONS = ["ij,jk->ik", "ij,kj->ik", "ji,jk->ik", "ji,kj->ki", "bij,bjk->bik", "bij,bkj->bki",
             "abc,cde->abde", "abc,cd->abd", "abcd,cde->abe", "aecd,abcd->acbe",
             "acbe,aecd->abcd", "bsi,ijk->bsjk", "bsjk,bsjk->bs", "i,i->", "i,j->ij",
             "ij,ij->ij", "ij,j->i", "bhqd,bhkd->bhqk", "bhqk,bhkd->bhqd", "ab,cd->acbd",
             "ij->ji", "ij->i", "ijk->", "ijk->kj", "ij,jk->ki", "abc,bd->adc", "ij,k->ij",
             "ijk,jl->il", "xy,yz->zx", "ba,ac->bc", "...ij,...jk->...ik", "...ij,jk->...ik",
             "ij,...jk->...ki", "b...i,b...i->b...", "...i->...", "i...->...i", "...ij->...ji",
             "a...c,c...->...a", "...,...->...", "ab...,b->...a"]


def gen_einsum(rng):
    eq = pick(rng, EQUATIONS)
    dt = pick(rng, FLOATS * 3 + [tf.int32, tf.int64] + COMPLEX)
    labels = sorted(set(eq) - set(",->"))
    big = rng.random() < 0.2
    size = {c: int(rng.integers(0 if rng.random() < 0.03 else 1, 40 if big else 6))
            for c in labels}
    ins = eq.split("->")[0].split(",")
    # Each ellipsis's dims, right-aligned, some of them 1 (broadcast), some
    # inputs with fewer of them.
    full = [int(d) for d in rng.integers(1, 4, size=int(rng.integers(0, 3)))]

    def dims(s):
        if "..." not in s:
            return [size[c] for c in s]
        b = full[int(rng.integers(0, len(full) + 1)):] if rng.random() < 0.3 else full
        b = [1 if rng.random() < 0.2 else d for d in b]
        head, tail = s.split("...")
        return [size[c] for c in head] + b + [size[c] for c in tail]
    xs = [values(rng, dt, dims(s)) for s in ins]
    if rng.random() < 0.05:  # A dimension that disagrees.
        xs[-1] = values(rng, dt, list(xs[-1].shape[:-1]) + [xs[-1].shape[-1] + 1]
                        if xs[-1].ndim else [2])
    elif rng.random() < 0.03:  # A rank that disagrees.
        xs[0] = values(rng, dt, list(xs[0].shape) + [2])
    case = Case("Einsum", {"inputs": xs}, {"equation": eq})
    if dt.is_complex:
        case.unimplemented = "complex matrices"
    return case


def gen_einsum_fixed(rng):
    """Diagonals (Frost refuses them), ellipses TensorFlow refuses."""
    eq, shapes = pick(rng, [("ii->i", [[3, 3]]), ("i->ii", [[3]]),
                            ("iij,jk->ik", [[2, 2, 3], [3, 4]]),
                            ("...ij,...jk->...ik", [[2, 2, 3], [3, 3, 4]]),
                            ("...ij,jk->ik", [[2, 2, 3], [3, 4]]),
                            ("...ij,jk->...ik", [[3], [3, 4]])])
    case = Case("Einsum", {"inputs": [values(rng, tf.float32, s) for s in shapes]},
                {"equation": eq})
    if "..." not in eq:
        case.unimplemented = "diagonals"
    return case


# --- Factorizations, inverses, solves ---------------------------------------------------

def square_input(rng, op, dtypes):
    dt = pick(rng, dtypes)
    batch, n = batch_shape(rng), int(rng.integers(0 if rng.random() < 0.05 else 1, 9))
    r = rng.random()
    if r < 0.05:
        return dt, values(rng, dt, [n + 1])  # Rank 1.
    if r < 0.1:
        return dt, values(rng, dt, batch + [n, n + 1])  # Not square.
    if r < 0.2 and n:
        a = well_conditioned(rng, dt, batch, n)
        a[..., -1, :] = a[..., 0, :]  # Singular.
        return dt, a
    if r < 0.25 and n:
        a = well_conditioned(rng, dt, batch, n)
        a.reshape(-1)[int(rng.integers(0, a.size))] = np.nan
        return dt, a
    if op == "Cholesky":
        a = rng.normal(size=batch + [n, n])
        a = a @ np.swapaxes(a, -1, -2) + n * np.eye(n)
        if rng.random() < 0.15 and n:
            a[..., 0, 0] = -1  # Not positive definite.
        return dt, a.astype(dt.as_numpy_dtype)
    return dt, well_conditioned(rng, dt, batch, n)


def gen_unary(op):
    def gen(rng):
        dt, a = square_input(rng, op, [tf.float32, tf.float64] * 3 + COMPLEX + [tf.float16])
        attrs = {"adjoint": bool(rng.random() < 0.5)} if op == "MatrixInverse" else {}
        case = Case(op, {"input": a}, attrs)
        if dt.is_complex or dt == tf.float16:
            case.unimplemented = "complex or half matrices"
        return case
    return gen


def gen_solve(rng):
    dt, a = square_input(rng, "MatrixSolve", [tf.float32, tf.float64] * 3 + COMPLEX)
    shape = list(a.shape)
    k = int(rng.integers(0 if rng.random() < 0.05 else 1, 5))
    rhs = values(rng, dt, shape[:-1] + [k]) if len(shape) >= 2 else values(rng, dt, [2, k])
    if rng.random() < 0.05 and len(shape) >= 2:
        rhs = values(rng, dt, shape[:-2] + [shape[-2] + 1, k])
    elif rng.random() < 0.05 and len(shape) > 2:
        rhs = values(rng, dt, [shape[0] + 1] + shape[1:-1] + [k])
    case = Case("MatrixSolve", {"matrix": a, "rhs": rhs}, {"adjoint": bool(rng.random() < 0.5)})
    if dt.is_complex:
        case.unimplemented = "complex matrices"
    return case


def gen_triangular_solve(rng):
    dt = pick(rng, [tf.float32, tf.float64] * 3 + COMPLEX + [tf.float16, tf.bfloat16])
    batch, n = batch_shape(rng), int(rng.integers(0 if rng.random() < 0.05 else 1, 9))
    a = well_conditioned(rng, dt, batch, n)
    mb = batch
    rb = list(batch)
    if rb and rng.random() < 0.3:
        mb = [1] + batch[1:]  # Broadcast the matrices' batch.
        a = a[:1]
    if rng.random() < 0.1 and n:
        a[..., n - 1, n - 1] = 0  # Singular: infinities and NaNs, no refusal.
    k = int(rng.integers(0 if rng.random() < 0.05 else 1, 5))
    rhs = values(rng, dt, rb + [n, k])
    r = rng.random()
    if r < 0.04:
        a = values(rng, dt, [n + 1])
    elif r < 0.08:
        a = values(rng, dt, mb + [n, n + 1])
    elif r < 0.12:
        rhs = values(rng, dt, rb + [n + 1, k])
    elif r < 0.16 and rb:
        rhs = values(rng, dt, [rb[0] + 1] + rb[1:] + [n, k])
        a = well_conditioned(rng, dt, [rb[0] + 2] + rb[1:], n)
    case = Case("MatrixTriangularSolve", {"matrix": a, "rhs": rhs},
                {"lower": bool(rng.random() < 0.5), "adjoint": bool(rng.random() < 0.5)})
    if dt.is_complex:
        case.unimplemented = "complex matrices"
    return case


def gen_band_part(rng):
    dt = pick(rng, FLOATS + [tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.uint16,
                             tf.uint32, tf.uint64, tf.bool] + COMPLEX)
    rank = int(rng.integers(1 if rng.random() < 0.05 else 2, 5))
    shape = [int(d) for d in rng.integers(0 if rng.random() < 0.05 else 1, 6, size=rank)]
    idt = pick(rng, [np.int32, np.int64])
    bands = []
    for limit in (shape[-2] if rank >= 2 else 1, shape[-1]):
        b = int(rng.integers(-2, limit + 1))
        if rng.random() < 0.05:
            b = limit + 1
        bands.append(np.array(b, idt) if rng.random() > 0.03 else np.array([b], idt))
    return Case("MatrixBandPart", {"input": values(rng, dt, shape), "num_lower": bands[0],
                                   "num_upper": bands[1]})


GENERATORS = [gen_einsum] * 6 + [gen_einsum_fixed, gen_unary("Cholesky"),
                                 gen_unary("MatrixDeterminant"),
                                 gen_unary("LogMatrixDeterminant"), gen_unary("MatrixInverse"),
                                 gen_solve, gen_triangular_solve, gen_band_part]


def tolerance(op, dtype):
    t = TOLERANCE[op]
    return t.get(dtype, 0) if isinstance(t, dict) else t


def registered(op):
    """The dtypes TensorFlow registers a CPU kernel of `op` for."""
    if op not in REGISTERED:
        REGISTERED[op] = {tf.as_dtype(c.allowed_values.list.type[0])
                          for k in kernels.get_registered_kernels_for_op(op).kernel
                          if k.device_type == "CPU" for c in k.constraint}
    return REGISTERED[op]


REGISTERED = {}


def drop(node, attr):
    if attr in node.attr:
        del node.attr[attr]


def run_case(case, name):
    """compare_array_with_tf's case, with the tolerance; Frost must refuse
    (`_unimplemented`) what TensorFlow computes and Frost does not, and dtypes
    TensorFlow registers no kernel for."""
    node = array_run_case(case, name)
    if node is None:
        return None
    first = case.inputs[next(iter(case.inputs))]
    dtype = tf.as_dtype((first[0] if isinstance(first, list) else first).dtype)
    if dtype not in registered(case.op):
        case.unimplemented = "no TensorFlow kernel for " + dtype.name
        drop(node, "_error")
    reason = getattr(case, "unimplemented", None)
    if reason and "_error" in node.attr and b"not invertible" in node.attr["_error"].s:
        drop(node, "_error")  # Refused for its values, which Frost does not compute.
    if reason and "_error" not in node.attr:
        drop(node, "_outputs")
        node.attr["_unimplemented"].s = reason.encode()
        return node
    if "_outputs" not in node.attr:
        return node
    dtype = tf.as_dtype(node.attr["_outputs"].list.tensor[0].dtype)
    node.attr["_tolerance"].f = tolerance(case.op, dtype)
    if case.op == "Cholesky":
        # Where the factorization fails, TensorFlow fills the lower triangle
        # with NaN and leaves the upper one unwritten: only the lower is
        # TensorFlow's answer; Frost writes zeros above it.
        t = node.attr["_outputs"].list.tensor[0]
        out = tf.make_ndarray(t).copy()
        if out.size:
            failed = np.isnan(np.tril(out)).any(axis=(-1, -2), keepdims=True)
            out = np.where(failed & (np.triu(np.ones(out.shape[-2:]), 1) > 0), 0, out)
            t.CopyFrom(tf.make_tensor_proto(out.astype(out.dtype)))
    return node


def main():
    return tf_cases.main(__doc__.splitlines()[0], GENERATORS, run_case, cases=30,
                         out="/tmp/frost-linalg-tf-cases.pb", env_var="FROST_LINALG_TF_CASES",
                         gtest_filter="LinalgTensorFlowTest.*", skipped_as="not buildable")


if __name__ == "__main__":
    sys.exit(main())
