#!/usr/bin/env python3
"""Writes TensorFlow's standard OpDefs as Frost's built-in op list.

Frost never links TensorFlow, yet it must know the interface of TensorFlow's
ops (argument lists, attributes and their defaults, statefulness) when a model
does not carry their OpDefs: TensorFlow 2 SavedModels leave the ops their
functions use out of `stripped_op_list`, and add_default_attributes covers every
standard op as TensorFlow's transform does. This script reads the op registry of
the installed TensorFlow (every op its libraries registered), drops the
documentation (summaries, descriptions, deprecation explanations), sorts the ops
by name and writes the OpList, zlib-compressed, to lib/IR/StandardOpDefs.pb.zlib,
which the build embeds (lib/IR/OpRegistry.cpp parses it on first use).

  python3 scripts/generate_op_defs.py            # regenerate the checked-in file
  python3 scripts/generate_op_defs.py --check    # exit 1 if it differs from TensorFlow's

test/IR/standard-op-defs-vs-tensorflow.test runs --check under the test command.
"""
import argparse
import os
import sys
import zlib

DEFAULT_OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib", "IR",
                              "StandardOpDefs.pb.zlib")


def standard_op_list():
    """TensorFlow's registered OpDefs without their documentation, sorted by name."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    from tensorflow.core.framework import op_def_pb2
    from tensorflow.python.client import pywrap_tf_session as c_api
    import tensorflow as tf

    ops = op_def_pb2.OpList()
    ops.ParseFromString(c_api.TF_GetBuffer(c_api.TF_GetAllOpList()))
    for op in ops.op:
        op.ClearField("summary")
        op.ClearField("description")
        op.deprecation.ClearField("explanation")
        for part in (*op.input_arg, *op.output_arg, *op.attr):
            part.ClearField("description")
    ops.op.sort(key=lambda op: op.name)
    return tf.__version__, ops


def decode(data):
    from tensorflow.core.framework import op_def_pb2
    ops = op_def_pb2.OpList()
    ops.ParseFromString(zlib.decompress(data))
    return ops


def differences(checked_in, current):
    """One line per op added, removed or changed between two OpLists."""
    old = {op.name: op for op in checked_in.op}
    new = {op.name: op for op in current.op}
    lines = [f"  op {name} is new in TensorFlow" for name in sorted(new.keys() - old.keys())]
    lines += [f"  op {name} is no longer in TensorFlow" for name in sorted(old.keys() - new.keys())]
    lines += [f"  op {name} changed" for name in sorted(old.keys() & new.keys())
              if old[name] != new[name]]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default=DEFAULT_OUTPUT, help="the op list file")
    parser.add_argument("--check", action="store_true",
                        help="compare the file with the installed TensorFlow's ops; write nothing")
    args = parser.parse_args()
    version, ops = standard_op_list()
    if args.check:
        with open(args.output, "rb") as f:
            lines = differences(decode(f.read()), ops)
        if lines:
            print(f"{args.output} is out of date with TensorFlow {version} (ops differing: {len(lines)}); "
                  f"run scripts/generate_op_defs.py:", file=sys.stderr)
            print("\n".join(lines[:20] + ([f"  and {len(lines) - 20} more"] if len(lines) > 20 else [])),
                  file=sys.stderr)
            return 1
        print(f"{len(ops.op)} OpDefs up to date with TensorFlow {version}")
        return 0
    data = zlib.compress(ops.SerializeToString(deterministic=True), 9)
    with open(args.output, "wb") as f:
        f.write(data)
    print(f"wrote {len(ops.op)} OpDefs of TensorFlow {version} to {args.output} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
