#!/usr/bin/env python3
"""Compares Frost's index, rearranging, scan and selection kernels with TensorFlow.

The ops of lib/Eval/Rearrange.cpp (IdentityN, SpaceToBatchND, BatchToSpaceND,
SpaceToDepth, DepthToSpace), Scatter.cpp (GatherNd, ScatterNd,
TensorScatterUpdate, TensorScatterAdd), Scan.cpp (Cumsum, Cumprod) and
Selection.cpp (TopKV2, OneHot, Where) on random cases over every dtype
TensorFlow registers for each op on CPU, some out of range on purpose. Cases
are computed and written as scripts/compare_array_with_tf.py does, and replayed
by the same frost-unittests test (ArrayTensorFlowTest): equal bytes, or
TensorFlow's message.

  scripts/compare_index_with_tf.py --build build [--cases 40] [--seed 1]
      [--ops GatherNd,TopKV2] [--out /tmp/index-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import re
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_cases  # noqa: E402
from compare_array_with_tf import (Case, values, idx, rand_shape, pick,  # noqa: E402
                                   index_dtype, run_case, MOVABLE)

REAL = [tf.float32, tf.float64, tf.float16, tf.bfloat16, tf.int8, tf.int16, tf.int32,
        tf.int64, tf.uint8, tf.uint16, tf.uint32, tf.uint64]
FLOATS = [tf.float32, tf.float64, tf.float16, tf.bfloat16]


def small_values(rng, dtype, shape, low=-3, high=3):
    """Few distinct values (ties, zeros); unsigned types stay non-negative."""
    if dtype == tf.bool:
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype.is_unsigned:
        low = 0
    v = rng.integers(low, high + 1, size=shape)
    if dtype.is_floating:
        v = v + (rng.random(size=shape) < 0.3) * rng.normal(size=shape)
    return np.asarray(v).astype(dtype.as_numpy_dtype)


# --- IdentityN, space/batch/depth rearranging --------------------------------------------

def gen_identity_n(rng):
    xs = [values(rng, pick(rng, MOVABLE), rand_shape(rng)) for _ in range(rng.integers(1, 4))]
    return Case("IdentityN", {"input": xs})


def gen_space_batch(rng):
    dt = pick(rng, REAL)
    m = int(rng.integers(1, 3))
    block = [int(b) for b in rng.integers(1, 4, size=m)]
    if rng.random() < 0.05:
        block[0] = int(rng.integers(-1, 1))
    idt = index_dtype(rng)
    if rng.random() < 0.5:
        pads = [[int(p) for p in rng.integers(0, 3, size=2)] for _ in range(m)]
        spatial = []
        for (a, b), k in zip(pads, block):
            n = int(rng.integers(0, 3)) * max(k, 1) - a - b
            if n < 0 or rng.random() < 0.1:
                n = int(rng.integers(0, 5))
            spatial.append(n)
        if rng.random() < 0.05:
            pads[0][0] = -1
        shape = [int(rng.integers(1, 3))] + spatial + rand_shape(rng, rank=int(rng.integers(0, 2)))
        if rng.random() < 0.05:
            shape = shape[:m]
        pads_t = idx(pads, idt).reshape(-1, 2)
        if rng.random() < 0.05:
            pads_t = pads_t.reshape(-1)
        return Case("SpaceToBatchND", {"input": values(rng, dt, shape),
                                       "block_shape": idx(block, idt), "paddings": pads_t})
    prod = int(np.prod(block))
    batch = int(rng.integers(0, 3)) * max(prod, 1)
    if rng.random() < 0.1:
        batch += 1
    spatial = [int(s) for s in rng.integers(0, 4, size=m)]
    crops = [[int(c) for c in rng.integers(0, 2, size=2)] for _ in range(m)]
    if rng.random() < 0.05:
        crops[0][1] = 9
    shape = [batch] + spatial + rand_shape(rng, rank=int(rng.integers(0, 2)))
    return Case("BatchToSpaceND", {"input": values(rng, dt, shape),
                                   "block_shape": idx(block, idt),
                                   "crops": idx(crops, index_dtype(rng)).reshape(-1, 2)})


def gen_space_depth(rng):
    dt = pick(rng, MOVABLE)
    bs = int(rng.integers(2, 4)) if rng.random() > 0.05 else 1
    if rng.random() < 0.5:
        shape = [int(rng.integers(1, 3)), bs * int(rng.integers(0, 3)),
                 bs * int(rng.integers(1, 3)), int(rng.integers(1, 4))]
        if rng.random() < 0.1:
            shape[1] += 1
        if rng.random() < 0.05:
            shape = shape[:3]
        return Case("SpaceToDepth", {"input": values(rng, dt, shape)}, {"block_size": bs})
    shape = [int(rng.integers(1, 3)), int(rng.integers(0, 3)), int(rng.integers(1, 3)),
             bs * bs * int(rng.integers(1, 3))]
    if rng.random() < 0.1:
        shape[3] += 1
    return Case("DepthToSpace", {"input": values(rng, dt, shape)}, {"block_size": bs})


# --- Gather and scatter by index tuples ---------------------------------------------------

def nd_indices(rng, shape, depth, batch_shape, bad=0.1):
    ind = np.zeros(batch_shape + [depth], dtype=np.int64)
    for d in range(depth):
        hi = shape[d] if d < len(shape) else 1
        ind[..., d] = rng.integers(0, max(hi, 1), size=batch_shape)
    if ind.size and rng.random() < bad:
        ind.reshape(-1)[rng.integers(0, ind.size)] = pick(rng, [-1, 7])
    return ind


def gen_gather_nd(rng):
    shape = rand_shape(rng, rank=int(rng.integers(1, 4)), zeros=False)
    if rng.random() < 0.03:
        shape = []
    x = values(rng, pick(rng, MOVABLE), shape)
    depth = int(rng.integers(0, len(shape) + 1)) if rng.random() > 0.05 else len(shape) + 1
    ind = nd_indices(rng, shape, depth, rand_shape(rng, rank=int(rng.integers(0, 3))))
    if rng.random() < 0.03:
        ind = np.array(0)
    return Case("GatherNd", {"params": x, "indices": idx(ind, pick(rng, [np.int32, np.int64,
                                                                          np.int16]))})


SCATTER = REAL + [tf.bool, tf.string]


def gen_scatter(rng):
    op = pick(rng, ["ScatterNd", "TensorScatterUpdate", "TensorScatterAdd"])
    dt = pick(rng, REAL if op == "TensorScatterAdd" else SCATTER)
    shape = rand_shape(rng, rank=int(rng.integers(1, 4)), zeros=False)
    depth = int(rng.integers(1, len(shape) + 1))
    batch = rand_shape(rng, rank=int(rng.integers(1, 3)))
    ind = idx(nd_indices(rng, shape, depth, batch), index_dtype(rng))
    ushape = batch + shape[depth:]
    if rng.random() < 0.05:
        ushape = ushape + [2]
    upd = small_values(rng, dt, ushape) if dt != tf.string else values(rng, dt, ushape)
    if dt.is_floating and rng.random() < 0.5:
        upd = values(rng, dt, ushape)
    if op == "ScatterNd":
        return Case(op, {"indices": ind, "updates": upd,
                         "shape": idx(shape, ind.dtype)})
    base = values(rng, dt, shape)
    return Case(op, {"tensor": base, "indices": ind, "updates": upd})


# --- Scans -----------------------------------------------------------------------------------

def gen_scan(rng):
    dt = pick(rng, REAL)
    shape = rand_shape(rng, rank=int(rng.integers(0, 4)), max_dim=6)
    op = pick(rng, ["Cumsum", "Cumprod"])
    x = values(rng, dt, shape) if rng.random() < 0.5 else small_values(rng, dt, shape)
    if dt.is_floating and rng.random() < 0.5:
        x = (rng.normal(size=shape) * (1.5 if op == "Cumprod" else 100)).astype(
            dt.as_numpy_dtype)
    rank = len(shape)
    axis = int(rng.integers(-rank - 1, rank + 1)) if rank else int(rng.integers(-1, 1))
    a = idx(axis, index_dtype(rng))
    if rng.random() < 0.03:
        a = a.reshape(1)
    return Case(op, {"x": x, "axis": a},
                {"exclusive": bool(rng.random() < 0.5), "reverse": bool(rng.random() < 0.5)})


# --- Selection: TopKV2, OneHot, Where --------------------------------------------------------

def gen_top_k(rng):
    dt = pick(rng, REAL)
    shape = rand_shape(rng, rank=int(rng.integers(1, 4)), max_dim=7)
    if rng.random() < 0.03:
        shape = []
    x = small_values(rng, dt, shape) if rng.random() < 0.5 else values(rng, dt, shape)
    n = shape[-1] if shape else 0
    k = int(rng.integers(0, n + 1)) if rng.random() > 0.08 else pick(rng, [-1, n + 1])
    kt = np.array(k, dtype=np.int32)
    if rng.random() < 0.03:
        kt = kt.reshape(1)
    # Unsorted only where the order is specified (Frost refuses the others).
    attrs = {"sorted": not (k in (0, 1, n) and rng.random() < 0.3),
             "index_type": pick(rng, [tf.int32, tf.int64, tf.int16])}
    return Case("TopKV2", {"input": x, "k": kt}, attrs)


def gen_one_hot(rng):
    dt = pick(rng, MOVABLE)
    ishape = rand_shape(rng, rank=int(rng.integers(0, 3)))
    depth = int(rng.integers(0, 5)) if rng.random() > 0.05 else -1
    idt = pick(rng, [np.int32, np.int64, np.uint8, np.int8])
    lo = 0 if idt == np.uint8 else -1
    ind = rng.integers(lo, depth + 2, size=ishape).astype(idt)
    rank = len(ishape)
    axis = int(rng.integers(-1, rank + 1)) if rng.random() > 0.05 else pick(rng, [-2, rank + 1])
    on, off = values(rng, dt, []), values(rng, dt, [])
    if rng.random() < 0.03:
        on = values(rng, dt, [1])
    return Case("OneHot", {"indices": ind, "depth": idx(depth), "on_value": on,
                           "off_value": off}, {"axis": axis})


WHERE = REAL + [tf.bool]


def gen_where(rng):
    dt = pick(rng, WHERE)
    shape = rand_shape(rng, rank=int(rng.integers(0, 5)))
    x = small_values(rng, dt, shape, -1, 1)
    if dt.is_floating and x.size and rng.random() < 0.3:
        x.reshape(-1)[0] = pick(rng, [np.nan, -0.0])
    return Case("Where", {"condition": x})


# Refused inputs the random generators above never make, one after another: each
# must be refused with TensorFlow's message.
REFUSED = [
    lambda rng: Case("BatchToSpaceND", {"input": values(rng, tf.float32, [4, 2, 2, 1]),
                                        "block_shape": idx([2, 2]),
                                        "crops": idx([[0, -1], [0, 0]])}),
    lambda rng: Case("ScatterNd", {"indices": idx([[0]]), "updates": idx([1]),
                                   "shape": idx([[2, 2]])}),
    lambda rng: Case("ScatterNd", {"indices": idx([[0]]), "updates": idx([[1, 2]]),
                                   "shape": idx([0, 2])}),
    lambda rng: Case("ScatterNd", {"indices": idx([[0], [1]]), "updates": idx([1, 2, 3]),
                                   "shape": idx([4])}),
    # ScatterNd checks its shape input's rank after the slice shapes.
    lambda rng: Case("ScatterNd", {"indices": idx([[0]]), "updates": idx([[1, 2], [3, 4]]),
                                   "shape": idx([[0, 2]])}),
    lambda rng: Case("ScatterNd", {"indices": idx([[0]]), "updates": idx([[1, 2], [3, 4]]),
                                   "shape": idx([0, 2])}),
    lambda rng: Case("ScatterNd", {"indices": idx(0), "updates": idx([1]), "shape": idx([2])}),
    lambda rng: Case("ScatterNd", {"indices": idx([[0]]), "updates": idx(5),
                                   "shape": idx([[2, 2]])}),
    lambda rng: Case("ScatterNd", {"indices": idx(np.zeros([1, 0])), "updates": idx([5]),
                                   "shape": idx(np.zeros([0]))}),
    lambda rng: Case("ScatterNd", {"indices": idx([0, 1]), "updates": idx([1]),
                                   "shape": idx([3, 4])}),
    lambda rng: Case("ScatterNd", {"indices": idx([1]), "updates": idx([1, 2, 3, 4]),
                                   "shape": idx([3, 4])}),
    lambda rng: Case("ScatterNd", {"indices": idx([1, 0]), "updates": idx([1]),
                                   "shape": idx([2, 1, 1])}),
    lambda rng: Case("ScatterNd", {"indices": idx([1]), "updates": idx([1]),
                                   "shape": idx([3, 1])}),
    lambda rng: Case("TensorScatterUpdate", {"tensor": idx([1, 2, 3]), "indices": idx(0),
                                             "updates": idx(5)}),
    lambda rng: Case("TensorScatterUpdate", {"tensor": idx([1, 2, 3]),
                                             "indices": idx([[0], [1]]),
                                             "updates": idx([5, 6, 7])}),
    lambda rng: Case("TensorScatterAdd", {"tensor": idx(np.zeros([0])), "indices": idx([[0]]),
                                          "updates": idx([5])}),
    lambda rng: Case("GatherNd", {"params": values(rng, tf.float32, [0, 2]),
                                  "indices": idx([[0]])}),
    lambda rng: Case("OneHot", {"indices": idx([0, 1]), "depth": idx([3]),
                                "on_value": idx(1), "off_value": idx(0)}),
    lambda rng: Case("OneHot", {"indices": idx([0, 1]), "depth": idx(3),
                                "on_value": idx(1), "off_value": idx([0])}),
    lambda rng: Case("Where", {"condition": np.ones([1] * 9, dtype=bool)}),
]


def gen_refused(rng, _next=iter(range(1 << 30))):
    return REFUSED[next(_next) % len(REFUSED)](rng)


GENERATORS = [gen_identity_n, gen_space_batch, gen_space_depth, gen_gather_nd, gen_scatter,
              gen_scan, gen_top_k, gen_one_hot, gen_where, gen_refused]


# Arguments whose shapes must be known for the op's shape function to build the node.
KNOWN_SHAPES = {"SpaceToBatchND": ("block_shape",), "BatchToSpaceND": ("block_shape",)}


def run_index_case(case, name):
    node = run_case(case, name, KNOWN_SHAPES.get(case.op, ()))
    # GatherNd names the node it ran as; Frost's kernels do not know node names.
    if node is not None and "_error" in node.attr:
        node.attr["_error"].s = re.sub(rb", node name: \S+$", b"", node.attr["_error"].s)
    return node


def main():
    return tf_cases.main(__doc__.splitlines()[0], GENERATORS, run_index_case, cases=40,
                         out="/tmp/frost-index-tf-cases.pb", env_var="FROST_ARRAY_TF_CASES",
                         gtest_filter="ArrayTensorFlowTest.*", skipped_as="not buildable")


if __name__ == "__main__":
    sys.exit(main())
