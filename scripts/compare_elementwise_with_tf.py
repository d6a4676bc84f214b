#!/usr/bin/env python3
"""Compares Frost's elementwise kernels (lib/Eval) with TensorFlow's.

For every op and every dtype TensorFlow registers on the CPU, builds inputs
with numpy (random values, special values such as NaN, infinities, -0.0 and
the integer extremes, broadcasting shapes, sizes on both sides of Eigen's
vector steps), runs tf.raw_ops.<Op> as the oracle, then runs Frost's kernels
on the same inputs through the gtest EvalOracle.CasesFromEnvironment (it reads
FROST_EVAL_CASES and writes FROST_EVAL_RESULTS) and prints each mismatch and a
summary per op and dtype: the largest difference in ulps for transcendental
functions, exact (bitwise, any NaN equal to any NaN) equality for the rest.
Errors are compared too: TensorFlow's InvalidArgument must be Frost's, with
TensorFlow's message.

  scripts/compare_elementwise_with_tf.py [--unittests build/bin/frost-unittests]
      [--ops Add,Tanh] [--seed 1] [--keep DIR]

Exits 1 when something differs beyond the allowed ulps (--max-ulp, 2).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

R = tf.raw_ops

FLOATS = [tf.float32, tf.float64, tf.float16, tf.bfloat16]
SIGNED = [tf.int8, tf.int16, tf.int32, tf.int64]
UNSIGNED = [tf.uint8, tf.uint16, tf.uint32, tf.uint64]
INTS = SIGNED + UNSIGNED
NUMBERS = FLOATS + INTS
COMPLEX = [tf.complex64, tf.complex128]

# Ops whose float results may differ by a few ulps (other libm/Eigen versions).
# Sqrt and Reciprocal too: TensorFlow's vectorized float ones are Newton
# refinements, not always correctly rounded.
TRANSCENDENTAL = {"Exp", "Expm1", "Log", "Log1p", "Tanh", "Sigmoid", "Erf", "Rsqrt",
                  "Pow", "Softplus", "Elu", "Selu", "Sqrt", "Reciprocal", "Inv",
                  "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Atan2", "Sinh", "Cosh", "Asinh",
                  "Acosh", "Atanh", "Erfc", "Lgamma", "Xlogy"}

# Ops whose kernels are run kernels (FROST_RUN_KERNEL: within rounding, never
# folded); their cases ask the oracle for Exactness::WithinRounding.
RUN_KERNELS = {"Asin", "Acos", "Atan", "Atan2", "Atanh", "ResizeArea", "RFFT", "IRFFT",
               "AdjustContrastv2"}
# Ops with a run kernel for complex dtypes only (their real dtypes fold).
COMPLEX_RUN_KERNELS = {"Exp", "Mul"}


def within_rounding(case):
    return case.op in RUN_KERNELS or (case.op in COMPLEX_RUN_KERNELS and case.dtype.is_complex)


# Ops compared by their largest error over the largest magnitude of the
# case's output, in float epsilons (an FFT's error is spread over a row, so
# ulps of small outputs mean nothing): op -> allowed epsilons.
NORM_BOUND = {"RFFT": 8, "IRFFT": 8, "AdjustContrastv2": 8}

# op -> (argument names, dtypes, kind)
UNARY_FLOAT = ["Sqrt", "Rsqrt", "Reciprocal", "Inv", "Exp", "Expm1", "Log", "Log1p", "Tanh",
               "Sigmoid", "Erf", "Floor", "Ceil", "Softplus", "Elu", "Selu", "IsNan",
               "IsInf", "IsFinite", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh",
               "Asinh", "Acosh", "Atanh", "Erfc", "Softsign"]
OPS = {}
for op in UNARY_FLOAT:
    OPS[op] = (["features"] if op in ("Softplus", "Elu", "Selu", "Softsign") else ["x"], FLOATS)
OPS["Exp"] = (["x"], FLOATS + COMPLEX)
OPS.update({
    "Abs": (["x"], FLOATS + SIGNED),
    "Neg": (["x"], FLOATS + SIGNED + COMPLEX),
    "Conj": (["input"], COMPLEX),
    "Sign": (["x"], FLOATS + SIGNED),
    "Square": (["x"], NUMBERS),
    "Round": (["x"], FLOATS),
    "Rint": (["x"], [tf.float32, tf.float64]),
    "Relu": (["features"], NUMBERS),
    "Relu6": (["features"], NUMBERS),
    "LeakyRelu": (["features"], FLOATS),
    "LogicalNot": (["x"], [tf.bool]),
    "Lgamma": (["x"], [tf.float32, tf.float64, tf.float16]),
    "Atan2": (["y", "x"], FLOATS),
    "Mod": (["x", "y"], [tf.float32, tf.float64, tf.int32, tf.int64]),
    "Xlogy": (["x", "y"], FLOATS),
    "Xdivy": (["x", "y"], FLOATS),
    "DivNoNan": (["x", "y"], FLOATS),
    "Add": (["x", "y"], FLOATS + SIGNED + [tf.uint8, tf.string] + COMPLEX),
    "AddV2": (["x", "y"], NUMBERS + COMPLEX),
    "Sub": (["x", "y"], NUMBERS + COMPLEX),
    "Mul": (["x", "y"], NUMBERS + COMPLEX),
    "RealDiv": (["x", "y"], FLOATS),
    "Div": (["x", "y"], NUMBERS),
    "TruncateDiv": (["x", "y"], NUMBERS),
    "TruncateMod": (["x", "y"], [tf.float32, tf.float64, tf.int32, tf.int64]),
    "FloorDiv": (["x", "y"], NUMBERS),
    "FloorMod": (["x", "y"], NUMBERS),
    "Maximum": (["x", "y"], NUMBERS),
    "Minimum": (["x", "y"], NUMBERS),
    "Pow": (["x", "y"], FLOATS + SIGNED),
    "SquaredDifference": (["x", "y"], FLOATS + [tf.int32, tf.int64]),
    "Equal": (["x", "y"], NUMBERS + [tf.bool, tf.string]),
    "NotEqual": (["x", "y"], NUMBERS + [tf.bool, tf.string]),
    "Less": (["x", "y"], NUMBERS),
    "LessEqual": (["x", "y"], NUMBERS),
    "Greater": (["x", "y"], NUMBERS),
    "GreaterEqual": (["x", "y"], NUMBERS),
    "LogicalAnd": (["x", "y"], [tf.bool]),
    "LogicalOr": (["x", "y"], [tf.bool]),
    "BiasAdd": (["value", "bias"], NUMBERS),
    "Select": (["condition", "x", "y"], NUMBERS + [tf.bool, tf.string]),
    "SelectV2": (["condition", "t", "e"], NUMBERS + [tf.bool, tf.string]),
    "ClipByValue": (["t", "clip_value_min", "clip_value_max"],
                    FLOATS + SIGNED + [tf.uint8, tf.uint16]),
    "Cast": (["x"], NUMBERS + [tf.bool]),
    "AddN": (["inputs"], NUMBERS + COMPLEX),
})

# Fake quantization and quantize-and-dequantize: cases of their own.
QUANT_OPS = ["FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxVars",
             "FakeQuantWithMinMaxVarsPerChannel", "QuantizeAndDequantizeV2",
             "QuantizeAndDequantizeV3", "QuantizeAndDequantizeV4"]
for op in QUANT_OPS:
    OPS[op] = ([], [tf.float32] if op.startswith("Fake") else [tf.float32, tf.float64])
# Image and signal ops: cases of their own too.
OTHER_OPS = {"RGBToHSV": [tf.float32, tf.float64], "HSVToRGB": [tf.float32, tf.float64],
             "ResizeArea": [tf.float32, tf.float64, tf.uint8, tf.int32, tf.float16],
             "RFFT": [tf.float32], "IRFFT": [tf.complex64],
             "ComplexAbs": [tf.complex64, tf.complex128], "Real": [tf.complex64, tf.complex128],
             "Imag": [tf.complex64, tf.complex128], "Complex": [tf.float32, tf.float64]}
for op, dts in OTHER_OPS.items():
    OPS[op] = ([], dts)
OTHER_OPS["AdjustContrastv2"] = [tf.float32]
OPS["AdjustContrastv2"] = ([], OTHER_OPS["AdjustContrastv2"])
TRANSCENDENTAL.add("ResizeArea")

# AddN's input counts: each of TensorFlow's first functors (Add2 .. Add9: the
# first K % 8 inputs, 8 for 0, 9 for 1), then groups of 8 added to the sum.
ADDN_COUNTS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 17, 18, 25, 265)
# The smallest normal of each float dtype: AddN inputs around it are
# subnormal or sum to subnormals (flushed).
TINY = {tf.float32: 1.1754944e-38, tf.float64: 2.2250738585072014e-308,
        tf.float16: 6.1035156e-05, tf.bfloat16: 1.1754944e-38}

FLOAT_SPECIALS = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, np.inf, -np.inf, np.nan,
                  1e-3, 3.0, 7.0, -7.0, 100.0, -100.0, 1e30, -1e30, 1e-30, 65504.0, 300.7,
                  -129.0, 1e10, -3e9, 4e9,
                  # Subnormals (TensorFlow flushes them: FTZ and DAZ) and
                  # inputs whose exp is subnormal or overflows.
                  1e-40, -1e-40, 5e-324, -5e-324, 1.1754942e-38, -87.5, -100.0, -745.0,
                  88.7, 709.7]


def numpy_dtype(dt):
    return dt.as_numpy_dtype


# Complex parts: besides FLOAT_SPECIALS, imaginary parts near multiples of
# pi/2 and past psincos_float's Payne-Hanek thresholds (18838, 25966), real
# parts where exp overflows or underflows.
COMPLEX_SPECIALS = [np.pi / 2, -np.pi, 3 * np.pi / 2, 18838.0, 20000.5, 25966.0, 1e5, 3e38,
                    88.72, -103.9, 709.78, -745.2]


def complex_values(rng, dt, n, op):
    """n complex values: parts drawn as floats (random_values' specials),
    then some parts replaced by COMPLEX_SPECIALS, some zeroed, some huge or
    tiny, so that each special meets each kind of other part."""
    part = tf.float32 if dt == tf.complex64 else tf.float64
    z = np.zeros(n, numpy_dtype(dt))
    if n == 0:
        return z
    re, im = (random_values(rng, part, n, op, 0) for _ in range(2))
    with np.errstate(over="ignore", invalid="ignore"):
        for v in (re, im):
            k = max(1, n // 6)
            v[rng.choice(n, k, replace=False)] = rng.choice(COMPLEX_SPECIALS + FLOAT_SPECIALS, k)
            k = max(1, n // 10)
            v[rng.choice(n, k, replace=False)] = rng.choice([0.0, -0.0], k)
            k = max(1, n // 10)
            v[rng.choice(n, k, replace=False)] = rng.normal(0, 1, k) * 10.0 ** rng.integers(-40, 39, k)
        if op == "Exp":  # Mostly where exp(re) is finite and cis(im) is not trivial.
            re = np.where(rng.random(n) < 0.5, rng.normal(0, 5, n), re)
            im = np.where(rng.random(n) < 0.3, rng.normal(0, 1e4, n), im)
        z.real, z.imag = re.astype(numpy_dtype(part)), im.astype(numpy_dtype(part))
    return z


def random_values(rng, dt, n, op, role):
    """n values of dtype dt suited to `op`'s argument `role`."""
    if dt.is_complex:
        return complex_values(rng, dt, n, op)
    if dt == tf.bool:
        return rng.integers(0, 2, n).astype(bool)
    if dt == tf.string:
        if n == 0:
            return np.zeros(0, object)
        return np.array([bytes(rng.choice(list(b"abc"), rng.integers(0, 3)))
                         for _ in range(n)], dtype=object)
    npdt = numpy_dtype(dt)
    if n == 0:
        return np.zeros(0, npdt)
    if dt.is_floating:
        scale = {"Exp": 30, "Expm1": 30, "Tanh": 10, "Sigmoid": 20, "Erf": 4, "Softplus": 30,
                 "Elu": 10, "Selu": 10, "Erfc": 5, "Asin": 0.6, "Acos": 0.6, "Atanh": 0.6,
                 "Sinh": 20, "Cosh": 20, "Tan": 3, "Lgamma": 30}.get(op, 100)
        v = np.concatenate([rng.normal(0, scale, n), rng.uniform(-2, 2, n)])[:n]
        if op in ("Log", "Sqrt", "Rsqrt", "Log1p") or (op == "Pow" and role == 0):
            v = np.abs(v) * rng.choice([1, 1, 1, -1], n)
        if op == "Pow" and role == 1:
            v = rng.uniform(-4, 4, n)
        if op == "Acosh":
            v = np.abs(v) + 1
        if op in ("Sin", "Cos"):  # Past psincos_float's Payne-Hanek thresholds too.
            v = np.where(rng.random(n) < 0.2, rng.normal(0, 1e5, n), v)
        if op in ("Xlogy", "Xdivy", "DivNoNan") and role == 1:
            v = np.where(rng.random(n) < 0.1, 0.0, v)
        if op in ("Xlogy", "Xdivy") and role == 0:
            v = np.where(rng.random(n) < 0.1, rng.choice([0.0, -0.0, 1e-40]), v)
        if op in ("Cast",):
            v = np.concatenate([rng.normal(0, 1e3, n), rng.normal(0, 1e10, n)])[:n]
        k = max(1, n // 8)
        idx = rng.choice(n, k, replace=False)
        v[idx] = rng.choice(FLOAT_SPECIALS, k)
        with np.errstate(over="ignore", invalid="ignore"):
            return v.astype(npdt)
    info = np.iinfo(npdt)
    small = rng.integers(max(info.min, -50), min(info.max, 50) + 1, n)
    big = rng.integers(info.min, info.max, n, endpoint=True, dtype=npdt)
    v = np.where(rng.random(n) < 0.5, small, big).astype(npdt)
    if op == "Pow":
        v = (np.abs(small) % (40 if role == 1 else 5)).astype(npdt) if role == 1 else \
            rng.integers(max(info.min, -4), 5, n).astype(npdt)
    extremes = np.array([info.min, info.max, 0, 1] + ([-1] if info.min < 0 else []), npdt)
    k = min(n, len(extremes))
    v[rng.choice(n, k, replace=False)] = rng.choice(extremes, k)
    if op in ("Div", "TruncateDiv", "FloorDiv", "FloorMod", "TruncateMod", "Mod") and role == 1:
        v[v == 0] = 1
    return v


def addn_values(rng, dt, n, scale, k):
    """n values for one of AddN's k inputs: random with specials; floats at
    magnitudes 10^-4 .. 10^4 apart (so that the order of the additions
    shows), or, with `scale` "tiny", around the smallest normal (subnormal
    inputs and sums), with few enough specials (NaN, inf) that most sums of
    k have none; complex from two such float arrays."""
    if dt.is_complex:
        part = tf.float32 if dt == tf.complex64 else tf.float64
        z = np.zeros(n, numpy_dtype(dt))
        z.real, z.imag = (addn_values(rng, part, n, scale, k) for _ in range(2))
        return z
    v = random_values(rng, dt, n, "AddN", 0)
    if not dt.is_floating or n == 0:
        return v
    if scale == "tiny":
        w = rng.normal(0, 2, n) * TINY[dt]
    else:
        w = rng.normal(0, 1, n) * 10.0 ** rng.integers(-4, 5, n)
    keep = rng.random(n) < min(0.1, 2.4 / k)  # Some of random_values' specials stay.
    with np.errstate(over="ignore", invalid="ignore"):
        return np.where(keep, v, w.astype(numpy_dtype(dt)))


def addn_cases(rng, dt):
    cases = []
    counts = ADDN_COUNTS if dt in (tf.float32, tf.float16, tf.bfloat16, tf.int32) else \
        (1, 2, 3, 8, 9, 17, 265)
    for k in counts:
        shapes = ([37], [2, 3]) if k > 100 else ([1037], [3, 5], [], [0, 3])
        for shape in shapes:
            for scale in (("wide", "tiny") if dt.is_floating or dt.is_complex else ("wide",)):
                n = int(np.prod(shape)) if shape else 1
                xs = [addn_values(rng, dt, n, scale, k).reshape(shape) for _ in range(k)]
                cases.append(Case("AddN", dt, [(x, dt) for x in xs], {}, {"inputs": xs}))
    return cases


def shapes_for(arity):
    if arity == 1:
        return [([3, 5],), ([1037],), ([],), ([0, 3],), ([2, 33],)]
    if arity == 2:
        return [([3, 5], [3, 5]), ([1037], [1037]), ([4, 1], [1, 3]), ([], [7]), ([2, 37], [37]),
                ([0, 3], [3])]
    return [([5],) * 3]


class Case:
    def __init__(self, op, dtype, inputs, attrs, kwargs):
        self.op, self.dtype, self.inputs, self.attrs, self.kwargs = op, dtype, inputs, attrs, kwargs


def attr_json(attrs):
    out = {}
    for name, value in attrs.items():
        if isinstance(value, tf.DType):
            out[name] = {"type": value.as_datatype_enum}
        elif isinstance(value, bool):
            out[name] = {"b": value}
        elif isinstance(value, (int, np.integer)):
            out[name] = {"i": int(value)}
        elif isinstance(value, float):
            out[name] = {"f": value}
        elif isinstance(value, str):
            out[name] = {"s": value}
    return out


def tensor_json(array, dt):
    array = np.asarray(array)
    j = {"dtype": dt.as_datatype_enum, "shape": list(array.shape)}
    if dt == tf.string:
        j["strings"] = [bytes(s).hex() for s in array.reshape(-1)]
    else:
        j["hex"] = np.ascontiguousarray(array.astype(numpy_dtype(dt))).tobytes().hex()
    return j


def quant_cases(rng, op, dt):
    """Ranges around zero, off it (nudged), tiny, reversed and zero; inputs
    with ties of the rounding (multiples of half a step) and specials."""
    cases = []
    f32 = lambda *v: np.array(v, np.float32)  # noqa: E731
    ranges = [(-6.0, 6.0), (-1.0, 3.0), (0.5, 2.0), (-3.7, -0.2), (-0.1, 0.1), (0.0, 0.0),
              (-1e-3, 2e-3), (-128.0, 127.0), (-2.5, 7.25)]
    for n in (7, 40, 1037):
        x = random_values(rng, dt, n, op, 0)
        x[: n // 2] = (rng.integers(-300, 300, n // 2) / 2 * rng.choice([1 / 127, 1 / 255, 0.05]))
        x = x.astype(numpy_dtype(dt))
        for lo, hi in ranges:
            if op == "FakeQuantWithMinMaxArgs":
                if not lo < hi:
                    continue
                for bits, narrow in ((8, False), (4, True), (16, False)):
                    attrs = {"min": lo, "max": hi, "num_bits": bits, "narrow_range": narrow}
                    cases.append(Case(op, dt, [(x, dt)], attrs, {"inputs": x, **attrs}))
            elif op == "FakeQuantWithMinMaxVars":
                for bits, narrow in ((8, False), (3, True)):
                    mn, mx = np.float32(lo), np.float32(hi)
                    attrs = {"num_bits": bits, "narrow_range": narrow}
                    cases.append(Case(op, dt, [(x, dt), (mn, dt), (mx, dt)], attrs,
                                      {"inputs": x, "min": mn, "max": mx, **attrs}))
            elif op == "FakeQuantWithMinMaxVarsPerChannel":
                if n != 40:
                    continue
                xs = x.reshape(10, 4)
                mn = f32(lo, lo * 2, -1.0, 0.0)
                mx = f32(hi, hi * 2, 1.0, 0.0)
                attrs = {"num_bits": 8, "narrow_range": bool(rng.integers(0, 2))}
                cases.append(Case(op, dt, [(xs, dt), (mn, dt), (mx, dt)], attrs,
                                  {"inputs": xs, "min": mn, "max": mx, **attrs}))
            else:
                if lo > hi:
                    continue
                npdt = numpy_dtype(dt)
                mn, mx = npdt(lo), npdt(hi)
                for signed, bits, given, narrow, mode in ((True, 8, True, False, "HALF_TO_EVEN"),
                                                          (False, 8, False, False, "HALF_UP"),
                                                          (True, 4, False, True, "HALF_TO_EVEN"),
                                                          (False, 3, True, True, "HALF_UP")):
                    attrs = {"signed_input": signed, "range_given": given, "narrow_range": narrow}
                    ins = [(x, dt), (mn, dt), (mx, dt)]
                    kw = {"input": x, "input_min": mn, "input_max": mx}
                    if op == "QuantizeAndDequantizeV3":
                        b = np.int32(bits)
                        ins.append((b, tf.int32))
                        kw["num_bits"] = b
                    else:
                        attrs.update({"num_bits": bits, "round_mode": mode})
                    if not given and np.isnan(x.astype(np.float64)).any():
                        x2 = np.where(np.isnan(x), npdt(0), x).astype(npdt)
                        ins[0] = (x2, dt)
                        kw["input"] = x2
                    cases.append(Case(op, dt, ins, attrs, {**kw, **attrs}))
    return cases


def quant_error_cases():
    f32 = lambda *v: np.array(v, np.float32)  # noqa: E731
    x = f32(1, 2, -3).reshape(1, 3)
    fl = tf.float32
    out = []
    for attrs in ({"min": 1.0, "max": 0.0}, {"num_bits": 1}, {"num_bits": 17}):
        out.append(Case("FakeQuantWithMinMaxArgs", fl, [(x, fl)], attrs, {"inputs": x, **attrs}))
    for mn, mx, attrs in ((f32(1), np.float32(2), {}), (np.float32(-1), np.float32(1), {"num_bits": 1})):
        out.append(Case("FakeQuantWithMinMaxVars", fl, [(x, fl), (mn, fl), (mx, fl)], attrs,
                        {"inputs": x, "min": mn, "max": mx, **attrs}))
    for mn, mx in ((f32(-1, 2), f32(1, 3)), (np.float32(-1), np.float32(1)), (f32(-1, 0, 0), f32(1, 1))):
        out.append(Case("FakeQuantWithMinMaxVarsPerChannel", fl, [(x, fl), (mn, fl), (mx, fl)], {},
                        {"inputs": x, "min": mn, "max": mx}))
    one, zero = np.float32(1), np.float32(0)
    for op in ("QuantizeAndDequantizeV2", "QuantizeAndDequantizeV4"):
        for mn, mx, attrs in ((one, zero, {"range_given": True}), (f32(1), zero, {"range_given": True}),
                              (-one, one, {"num_bits": 0}), (-one, one, {"num_bits": 62}),
                              (-one, one, {"axis": -2}), (-one, one, {"axis": 2})):
            out.append(Case(op, fl, [(x, fl), (mn, fl), (mx, fl)], attrs,
                            {"input": x, "input_min": mn, "input_max": mx, **attrs}))
    for bits in (np.int32(0), np.array([8], np.int32), np.int32(70)):
        out.append(Case("QuantizeAndDequantizeV3", fl, [(x, fl), (-one, fl), (one, fl), (bits, tf.int32)], {},
                        {"input": x, "input_min": -one, "input_max": one, "num_bits": bits}))
    return out


def other_cases(rng, op, dt):
    cases = []
    if op in ("RGBToHSV", "HSVToRGB"):
        for shape in ([5, 3], [2, 9, 3], [3], [0, 3], [1037, 3]):
            n = int(np.prod(shape))
            x = rng.uniform(0, 1, n)
            k = min(n, max(1, n // 6))  # Grey pixels, zeros, ties between channels, out of range.
            x[rng.choice(n, k, replace=False)] = rng.choice([0.0, 1.0, 0.5, -0.25, 1.5, 1e-40], k)
            x = x.reshape(shape).astype(numpy_dtype(dt))
            if n >= 3:
                x.reshape(-1, 3)[::4, 1] = x.reshape(-1, 3)[::4, 0]
            cases.append(Case(op, dt, [(x, dt)], {}, {"images": x}))
        return cases
    if op == "AdjustContrastv2":
        for shape in ([1, 4, 5, 3], [2, 7, 3, 1], [3, 2, 2, 2], [2, 16, 16, 3]):
            x = rng.uniform(-2, 255, shape).astype(numpy_dtype(dt))
            f = np.float32(rng.choice([0.5, 2.0, -1.3, 0.0]))
            cases.append(Case(op, dt, [(x, dt), (f, tf.float32)], {},
                              {"images": x, "contrast_factor": f}))
        return cases
    if op == "ResizeArea":
        for (h, w), (oh, ow), align in ((((4, 6)), (2, 3), False), ((5, 7), (3, 2), False),
                                         ((5, 7), (3, 4), True), ((3, 3), (7, 5), False),
                                         ((8, 8), (8, 8), False), ((17, 13), (5, 6), False)):
            shape = [2, h, w, 3]
            n = int(np.prod(shape))
            if dt.is_floating:
                x = rng.normal(0, 50, n).astype(numpy_dtype(dt)).reshape(shape)
            else:
                x = rng.integers(0, 200, n).astype(numpy_dtype(dt)).reshape(shape)
            size = np.array([oh, ow], np.int32)
            cases.append(Case(op, dt, [(x, dt), (size, tf.int32)], {"align_corners": align},
                              {"images": x, "size": size, "align_corners": align}))
        return cases
    if op == "RFFT":
        for shape, n in (([16], 16), ([3, 10], 10), ([2, 7], 12), ([4, 33], 32), ([5], 5),
                         ([2, 2, 400], 512), ([1], 1)):
            x = rng.normal(0, 1, shape).astype(np.float32)
            ln = np.array([n], np.int32)
            cases.append(Case(op, dt, [(x, dt), (ln, tf.int32)], {}, {"input": x, "fft_length": ln}))
        return cases
    if op == "IRFFT":
        for shape, n in (([9], 16), ([3, 6], 10), ([2, 7], 12), ([4, 17], 32), ([3], 5),
                         ([2, 257], 512), ([1], 1)):
            z = (rng.normal(0, 1, shape) + 1j * rng.normal(0, 1, shape)).astype(np.complex64)
            ln = np.array([n], np.int32)
            cases.append(Case(op, dt, [(z, dt), (ln, tf.int32)], {}, {"input": z, "fft_length": ln}))
        return cases
    if op == "Complex":
        cdt = tf.complex64 if dt == tf.float32 else tf.complex128
        for a, b in (([3, 5], [3, 5]), ([4, 1], [1, 3]), ([], [7])):
            re = random_values(rng, dt, int(np.prod(a)), op, 0).reshape(a)
            im = random_values(rng, dt, int(np.prod(b)), op, 1).reshape(b)
            cases.append(Case(op, dt, [(re, dt), (im, dt)], {"Tout": cdt},
                              {"real": re, "imag": im, "Tout": cdt}))
        return cases
    if op in ("ComplexAbs", "Real", "Imag"):
        part = np.float32 if dt == tf.complex64 else np.float64
        for shape in ([7], [3, 40], [0]):
            n = int(np.prod(shape))
            re = np.array([random_values(rng, tf.as_dtype(part), n, op, 0)]).reshape(-1)
            im = np.array([random_values(rng, tf.as_dtype(part), n, op, 1)]).reshape(-1)
            z = np.zeros(n, numpy_dtype(dt))
            z.real, z.imag = re, im
            z = z.reshape(shape)
            tout = tf.float32 if dt == tf.complex64 else tf.float64
            cases.append(Case(op, dt, [(z, dt)], {"Tout": tout},
                              {"x" if op == "ComplexAbs" else "input": z, "Tout": tout}))
    return cases


def other_error_cases():
    f32 = tf.float32
    out = []
    for op in ("RGBToHSV", "HSVToRGB"):
        for x in (np.float32(1), np.zeros([2, 4], np.float32)):
            out.append(Case(op, f32, [(x, f32)], {}, {"images": x}))
    for x, ln in ((np.float32(1), np.array([4], np.int32)), (np.zeros(3, np.float32), np.array([-1], np.int32)),
                  (np.zeros(3, np.float32), np.array([4, 4], np.int32))):
        out.append(Case("RFFT", f32, [(x, f32), (ln, tf.int32)], {}, {"input": x, "fft_length": ln}))
    # Shorter than fft_length.
    x, ln = np.zeros(3, np.float32), np.array([4], np.int32)
    out.append(Case("RFFT", f32, [(x, f32), (ln, tf.int32)], {}, {"input": x, "fft_length": ln}))
    c64 = tf.complex64
    for z, ln in ((np.complex64(1), np.array([4], np.int32)),
                  (np.zeros(3, np.complex64), np.array([-1], np.int32)),
                  (np.zeros(3, np.complex64), np.array([4, 4], np.int32))):
        out.append(Case("IRFFT", c64, [(z, c64), (ln, tf.int32)], {}, {"input": z, "fft_length": ln}))
    for x, f in ((np.zeros([4, 3], np.float32), np.float32(2)),
                 (np.zeros([1, 2, 2, 3], np.float32), np.float32([2]))):
        out.append(Case("AdjustContrastv2", f32, [(x, f32), (f, f32)], {},
                        {"images": x, "contrast_factor": f}))
    return out


def make_cases(ops, rng):
    cases = []
    if any(op in OTHER_OPS for op in ops):
        cases.extend(c for c in other_error_cases() if c.op in ops)
    if any(op in QUANT_OPS for op in ops):
        cases.extend(c for c in quant_error_cases() if c.op in ops)
    # AddN's cases draw from their own stream: the other ops' cases stay
    # those of the same seed without AddN.
    addn_rng = np.random.default_rng(rng.bit_generator.seed_seq.spawn(1)[0])
    # So do the complex cases of the other ops.
    complex_rng = np.random.default_rng(rng.bit_generator.seed_seq.spawn(1)[0])
    for op in ops:
        names, dtypes = OPS[op]
        for dt in dtypes:
            if op == "Cast":
                targets = NUMBERS + [tf.bool]
                for dst in targets:
                    for n in (1, 7, 31, 33, 40, 1037, 100003):
                        x = random_values(rng, dt, n, op, 0)
                        attrs = {"DstT": dst, "Truncate": bool(rng.integers(0, 2))}
                        cases.append(Case(op, dt, [(x, dt)], attrs, {"x": x, **attrs}))
                continue
            if op == "AddN":
                cases.extend(addn_cases(addn_rng, dt))
                continue
            if op in QUANT_OPS:
                cases.extend(quant_cases(rng, op, dt))
                continue
            if op in OTHER_OPS:
                cases.extend(other_cases(rng, op, dt))
                continue
            if op in ("Select", "SelectV2"):
                for shape, cshape in (([4, 3], [4]), ([4, 3], [4, 3]), ([4, 3], []),
                                      ([40, 3], [40, 1] if op == "SelectV2" else [40])):
                    cond = rng.integers(0, 2, cshape).astype(bool)
                    t = random_values(rng, dt, int(np.prod(shape)), op, 0).reshape(shape)
                    e = random_values(rng, dt, int(np.prod(shape)), op, 1).reshape(shape)
                    if op == "SelectV2":
                        e = e[:1]
                    ins = [(cond, tf.bool), (t, dt), (e, dt)]
                    cases.append(Case(op, dt, ins, {}, dict(zip(names, [c for c, _ in ins]))))
                continue
            if op == "ClipByValue":
                for lo_shape in ([], [6]):
                    x = random_values(rng, dt, 6, op, 0)
                    lo = random_values(rng, dt, 6, op, 1)[: 1 if not lo_shape else 6].reshape(lo_shape)
                    hi = random_values(rng, dt, 1, op, 2).reshape([])
                    ins = [(x, dt), (lo, dt), (hi, dt)]
                    cases.append(Case(op, dt, ins, {}, dict(zip(names, [c for c, _ in ins]))))
                continue
            if op == "BiasAdd":
                for fmt, shape in (("NHWC", [2, 3, 4]), ("NCHW", [2, 3, 4]), ("NCHW", [5, 3]),
                                   ("NHWC", [40, 5])):
                    value = random_values(rng, dt, int(np.prod(shape)), op, 0).reshape(shape)
                    c = shape[1] if fmt == "NCHW" and len(shape) > 2 else shape[-1]
                    bias = random_values(rng, dt, c, op, 1)
                    attrs = {"data_format": fmt}
                    ins = [(value, dt), (bias, dt)]
                    cases.append(Case(op, dt, ins, attrs, {"value": value, "bias": bias, **attrs}))
                continue
            if op in ("Relu", "Relu6") and dt in FLOATS:
                # Where TensorFlow flushes a subnormal, or turns -0.0 into
                # +0.0, depends on the element's place: in an AVX packet,
                # in the tail after them, odd or even (lib/Eval/UnaryMath.cpp).
                # Every place of every size up to three packets.
                tiny = np.array(2.0 ** -149 if dt == tf.float32 else 2.0 ** -1074 if
                                dt == tf.float64 else 2.0 ** -24 if dt == tf.float16 else
                                2.0 ** -133).astype(numpy_dtype(dt))
                for n in range(1, 26):
                    for first, second in ((tiny, -0.0), (-0.0, tiny)):
                        x = np.resize(np.array([first, second], numpy_dtype(dt)), n)
                        cases.append(Case(op, dt, [(x, dt)], {}, {"features": x}))
            for shapes in shapes_for(len(names)):
                ins = []
                for role, shape in enumerate(shapes):
                    n = int(np.prod(shape)) if shape else 1
                    ins.append((random_values(complex_rng if dt.is_complex else rng, dt, n, op,
                                              role).reshape(shape), dt))
                attrs = {}
                if op == "LeakyRelu":
                    attrs["alpha"] = float(rng.choice([0.2, 0.5, 2.7, -1.5]))
                cases.append(Case(op, dt, ins, attrs,
                                  {**dict(zip(names, [x for x, _ in ins])), **attrs}))
    # Errors, with TensorFlow's messages.
    i32 = lambda *v: np.array(v, np.int32)  # noqa: E731
    f32 = lambda *v: np.array(v, np.float32)  # noqa: E731
    if "AddN" in ops:
        for xs in ([f32(1, 2), f32(1, 2, 3)], [f32(1, 2), f32(3, 4), f32(1, 2).reshape(1, 2)],
                   [np.float32(1), f32(1)]):
            cases.append(Case("AddN", tf.float32, [(x, tf.float32) for x in xs], {},
                              {"inputs": xs}))
    for op in ("Div", "FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod", "Mod"):
        cases.append(Case(op, tf.int32, [(i32(1, 2), tf.int32), (i32(1, 0), tf.int32)], {},
                          {"x": i32(1, 2), "y": i32(1, 0)}))
    cases.append(Case("Pow", tf.int32, [(i32(2), tf.int32), (i32(-1), tf.int32)], {},
                      {"x": i32(2), "y": i32(-1)}))
    cases.append(Case("Add", tf.float32, [(f32(1, 2), tf.float32), (f32(1, 2, 3), tf.float32)],
                      {}, {"x": f32(1, 2), "y": f32(1, 2, 3)}))
    for eq in ("Equal", "NotEqual"):
        cases.append(Case(eq, tf.float32, [(f32(1, 2), tf.float32), (f32(1, 2, 3), tf.float32)],
                          {"incompatible_shape_error": False},
                          {"x": f32(1, 2), "y": f32(1, 2, 3), "incompatible_shape_error": False}))
    m = np.ones((2, 3), np.float32)
    for value, bias, fmt in ((f32(1, 2), f32(1, 2), "NHWC"), (m, m[:1], "NHWC"),
                             (m, f32(1, 2), "NHWC"), (m.reshape(2, 3, 1), f32(1, 2), "NCHW")):
        cases.append(Case("BiasAdd", tf.float32, [(value, tf.float32), (bias, tf.float32)],
                          {"data_format": fmt}, {"value": value, "bias": bias, "data_format": fmt}))
    for cond, x, y in ((np.array([True]), f32(1, 2), f32(1, 2, 3)),
                       (np.array([True, False, True]), m, m),
                       (np.array([True]), np.float32(1), np.float32(2)),
                       (np.ones((2, 1), bool), m, m)):
        cases.append(Case("Select", tf.float32, [(cond, tf.bool), (x, tf.float32), (y, tf.float32)],
                          {}, {"condition": cond, "x": x, "y": y}))
    cases.append(Case("SelectV2", tf.float32, [(np.ones(3, bool), tf.bool), (m, tf.float32),
                                               (np.float32(1), tf.float32)], {},
                      {"condition": np.ones(3, bool), "t": m, "e": np.float32(1)}))
    cases.append(Case("ClipByValue", tf.float32, [(f32(1, 2, 3), tf.float32), (f32(1, 2), tf.float32),
                                                  (np.float32(1), tf.float32)], {},
                      {"t": f32(1, 2, 3), "clip_value_min": f32(1, 2), "clip_value_max": np.float32(1)}))
    return cases


def run_tensorflow(case):
    """(numpy output, None) or (None, (code, message))."""
    kwargs = {}
    for name, value in case.kwargs.items():
        if isinstance(value, list):  # AddN's inputs
            kwargs[name] = [tf.constant(v, dtype=case.dtype) for v in value]
        elif isinstance(value, np.ndarray) or np.isscalar(value) and not isinstance(value, (bool, float, str)):
            dt = None
            for (array, d) in case.inputs:
                if array is value:
                    dt = d
            kwargs[name] = tf.constant(value, dtype=dt) if dt is not None else value
        else:
            kwargs[name] = value
    try:
        with tf.device("/CPU:0"):
            out = getattr(R, case.op)(**kwargs)
        return out.numpy(), None
    except tf.errors.OpError as e:
        message = e.message.split(" [Op:")[0]
        if message.startswith("{{function_node"):
            message = message.split("}} ", 1)[1]
        return None, (type(e).__name__, message)


def ordered(bits, width):
    sign = np.uint64(1) << np.uint64(width - 1)
    b = bits.astype(np.uint64)
    mag = (b & (sign - np.uint64(1))).astype(np.int64)
    return np.where((b & sign) != 0, -mag, mag)


def compare(case, expected, result, max_ulp):
    """(ok, ulps, detail)."""
    exp_arr, exp_err = expected
    if exp_err is not None:
        if "outputs" in result:
            return False, 0, f"TensorFlow fails ({exp_err[1]}) but Frost computes"
        want = f"{case.op}: {exp_err[1]}"
        # TensorFlow's TruncateDiv/TruncateMod report an integer division by
        # zero as Internal ("Unexpected error in binary operator"), its own
        # bug; Frost says what is wrong. Both fail, which is what folding
        # needs.
        if exp_err[0] == "InternalError" and "Unexpected error in binary operator" in exp_err[1]:
            ok = result.get("code") == "INVALID_ARGUMENT" and "division by zero" in result["message"]
            return ok, 0, "" if ok else f"error: TensorFlow {exp_err[0]}, Frost {result}"
        code_ok = (exp_err[0] == "InvalidArgumentError" and result["code"] == "INVALID_ARGUMENT") or \
                  (exp_err[0] == "FailedPreconditionError" and result["code"] == "FAILED_PRECONDITION") or \
                  (exp_err[0] == "UnimplementedError" and result["code"] == "UNIMPLEMENTED")
        if not code_ok or result["message"] != want:
            return False, 0, f"error: TensorFlow {exp_err[0]} '{want}', Frost {result['code']} '{result['message']}'"
        return True, 0, ""
    if "outputs" not in result:
        return False, 0, f"Frost fails: {result['code']} {result['message']}"
    out = result["outputs"][0]
    exp_arr = np.asarray(exp_arr)
    dt = tf.as_dtype(exp_arr.dtype) if exp_arr.dtype != object else tf.string
    if out["dtype"] != dt.as_datatype_enum or out["shape"] != list(exp_arr.shape):
        return False, 0, f"dtype/shape: TensorFlow {dt.name} {list(exp_arr.shape)}, Frost {out['dtype']} {out['shape']}"
    if dt == tf.string:
        got = [bytes.fromhex(s) for s in out["strings"]]
        ok = got == [bytes(s) for s in exp_arr.reshape(-1)]
        return ok, 0, "" if ok else f"strings differ: {got[:4]} vs {list(exp_arr.reshape(-1)[:4])}"
    npdt = numpy_dtype(dt)
    got = np.frombuffer(bytes.fromhex(out["hex"]), dtype=npdt)
    want = exp_arr.reshape(-1)
    if case.op in NORM_BOUND:
        part = np.float32 if dt in (tf.complex64, tf.float32) else np.float64
        g = got.astype(np.complex128 if dt.is_complex else np.float64)
        w = want.astype(np.complex128 if dt.is_complex else np.float64)
        scale = max(float(np.max(np.abs(w))) if w.size else 0.0, np.finfo(part).tiny)
        err = float(np.max(np.abs(g - w))) / scale if w.size else 0.0
        eps = int(np.ceil(err / np.finfo(part).eps))
        ok = eps <= NORM_BOUND[case.op]
        return ok, eps, "" if ok else f"max error {err:.3g} of the largest output ({eps} eps)"
    if dt.is_complex:  # Real and imaginary parts, each bitwise.
        dt = tf.float32 if dt == tf.complex64 else tf.float64
        npdt = numpy_dtype(dt)
        got, want = got.view(npdt), np.ascontiguousarray(want).view(npdt)
    if dt.is_floating:
        width = np.dtype(npdt).itemsize * 8
        uint = {16: np.uint16, 32: np.uint32, 64: np.uint64}[width]
        gb, wb = got.view(uint), np.ascontiguousarray(want).view(uint)
        gnan, wnan = np.isnan(got.astype(np.float64)), np.isnan(want.astype(np.float64))
        exact = (gb == wb) | (gnan & wnan)
        ulps = np.where(gnan | wnan, np.where(gnan & wnan, 0, 1 << 40),
                        np.abs(ordered(gb, width) - ordered(wb, width)))
        worst = int(ulps.max()) if ulps.size else 0
        allowed = max_ulp if case.op in TRANSCENDENTAL else 0
        bad = np.nonzero(~exact & (ulps > allowed))[0]
        if case.op not in TRANSCENDENTAL:
            bad = np.nonzero(~exact)[0]
        if len(bad):
            k = bad[0]
            ins = ", ".join(str(np.asarray(a).reshape(-1)[k % max(np.asarray(a).size, 1)])
                            for a, _ in case.inputs)
            return False, worst, (f"{len(bad)} of {got.size} differ (max {worst} ulp), e.g. "
                                  f"element {k}: inputs {ins[:300]}: TensorFlow {want[k]!r}, Frost {got[k]!r}")
        return True, worst, ""
    eq = got == want
    if not eq.all():
        k = np.nonzero(~eq)[0][0]
        ins = ", ".join(str(np.asarray(a).reshape(-1)[k % max(np.asarray(a).size, 1)])
                        for a, _ in case.inputs)
        return False, 0, (f"{int((~eq).sum())} of {got.size} differ, e.g. element {k}: inputs {ins[:300]}: "
                          f"TensorFlow {want[k]!r}, Frost {got[k]!r}")
    return True, 0, ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--unittests", default=os.path.join(root, "build/bin/frost-unittests"))
    parser.add_argument("--ops", default="", help="comma-separated ops (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-ulp", type=int, default=2)
    parser.add_argument("--known-ulp", default="",
                        help="Op=N or Op:dtype=N,... : allowed N ulps instead (known deviations, pinned "
                             "so that they cannot grow)")
    parser.add_argument("--known", default="",
                        help="Op or Op:dtype,... : known mismatches, reported as KNOWN "
                             "instead of failing (each is listed in the summary)")
    parser.add_argument("--keep", help="directory to keep the cases and results in")
    args = parser.parse_args()
    ops = [o for o in args.ops.split(",") if o] or sorted(OPS)
    known_bad = set(filter(None, args.known.split(",")))
    known = {op: int(n) for op, n in (kv.split("=") for kv in args.known_ulp.split(",") if kv)}
    rng = np.random.default_rng(args.seed)
    cases = make_cases(ops, rng)
    expected = [run_tensorflow(c) for c in cases]

    workdir = args.keep or tempfile.mkdtemp(prefix="frost-eval-")
    os.makedirs(workdir, exist_ok=True)
    cases_path = os.path.join(workdir, "cases.json")
    results_path = os.path.join(workdir, "results.json")
    with open(cases_path, "w") as f:
        json.dump({"cases": [{"op": c.op, "attrs": attr_json(c.attrs),
                              "within_rounding": within_rounding(c),
                              "inputs": [tensor_json(a, d) for a, d in c.inputs]}
                             for c in cases]}, f)
    env = dict(os.environ, FROST_EVAL_CASES=cases_path, FROST_EVAL_RESULTS=results_path)
    run = subprocess.run([args.unittests, "--gtest_filter=EvalOracle.CasesFromEnvironment"],
                         env=env, capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stdout[-3000:], run.stderr[-3000:])
        return 1
    with open(results_path) as f:
        results = json.load(f)["results"]

    summary = {}
    failures = 0
    for case, exp, res in zip(cases, expected, results):
        key = (case.op, case.dtype.name + (f"->{case.attrs['DstT'].name}" if case.op == "Cast" else ""))
        allowed = known.get(f"{key[0]}:{key[1]}", known.get(case.op, args.max_ulp))
        ok, ulps, detail = compare(case, exp, res, allowed)
        s = summary.setdefault(key, [0, 0, 0])
        s[0] += 1
        s[1] = max(s[1], ulps)
        if not ok:
            shapes = [list(np.shape(a)) for a, _ in case.inputs]
            if case.op in known_bad or f"{key[0]}:{key[1]}" in known_bad:
                print(f"KNOWN {case.op} {key[1]} shapes {shapes}: {detail[:200]}")
                continue
            s[2] += 1
            failures += 1
            print(f"MISMATCH {case.op} {key[1]} shapes {shapes} attrs "
                  f"{ {k: (v.name if isinstance(v, tf.DType) else v) for k, v in case.attrs.items()} }: {detail}")
    print()
    by_op = {}
    for (op, dt), (n, ulps, bad) in sorted(summary.items()):
        o = by_op.setdefault(op, [0, 0, 0, []])
        o[0] += n
        o[1] = max(o[1], ulps)
        o[2] += bad
        o[3].append(dt)
    for op, (n, ulps, bad, dts) in sorted(by_op.items()):
        kind = f"max {ulps} ulp" if op in TRANSCENDENTAL else \
            f"max {ulps} eps of the largest output" if op in NORM_BOUND else "exact"
        print(f"{op:18} {n:4} cases, {len(dts):3} dtype(s) {'ok' if not bad else f'{bad} MISMATCHED'} ({kind})")
    print(f"\n{len(cases)} cases, {failures} mismatched")
    if not args.keep:
        for p in (cases_path, results_path):
            os.remove(p)
        os.rmdir(workdir)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
