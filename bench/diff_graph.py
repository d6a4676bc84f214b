#!/usr/bin/env python3
"""Benchmark: frost-diff on generated graphs of 20k / 100k nodes.

A is a stack of dense layers (Const weights of 256 floats, MatMul, Const
bias, BiasAdd, Relu: 5 nodes a layer); B is A with every name prefixed by
StatefulPartitionedCall/ (as TensorFlow's inlining names them: every node
pairs by structure), one weight changed by one ulp and one layer's Relu made
Relu6. Both are written binary (through frost-opt). Prints a Markdown table
of frost-diff's phases (--timing) and its wall time.

usage: bench/diff_graph.py [--bin build/bin] [--sizes 20000,100000]
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile
import time


def graph(layers, prefix="", changed=False):
    lines = ['node { name: "%sx" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }' % prefix]
    prev = prefix + "x"
    for i in range(layers):
        s = "%slayer%d/" % (prefix, i)
        weights = [float((i * 7 + k) % 13) / 8 for k in range(256)]
        if changed and i == layers // 2:
            weights[3] = struct.unpack("<f", struct.pack("<I", struct.unpack("<I", struct.pack("<f", weights[3]))[0] + 1))[0]
        content = "".join("\\%03o" % b for b in struct.pack("<256f", *weights))
        lines.append('node { name: "%sw" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } } '
                     'attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 16 } '
                     'dim { size: 16 } } tensor_content: "%s" } } } }' % (s, content))
        lines.append('node { name: "%smm" op: "MatMul" input: "%s" input: "%sw" attr { key: "T" value { type: DT_FLOAT } } }'
                     % (s, prev, s))
        lines.append('node { name: "%sb" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } } '
                     'attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 1 } } '
                     'float_val: %d } } } }' % (s, i % 5))
        lines.append('node { name: "%sadd" op: "BiasAdd" input: "%smm" input: "%sb" attr { key: "T" value { type: DT_FLOAT } } }'
                     % (s, s, s))
        op = "Relu6" if changed and i == layers // 3 else "Relu"
        lines.append('node { name: "%sout" op: "%s" input: "%sadd" attr { key: "T" value { type: DT_FLOAT } } }'
                     % (s, op, s))
        prev = s + "out"
    return "\n".join(lines) + "\nversions { producer: 1087 }\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--sizes", default="20000,100000")
    args = parser.parse_args()
    print("| nodes | read A | read B | diff | print | wall | findings |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as d:
        for size in map(int, args.sizes.split(",")):
            layers = size // 5
            paths = []
            for name, text in (("a", graph(layers)), ("b", graph(layers, "StatefulPartitionedCall/", True))):
                with open(os.path.join(d, name + ".pbtxt"), "w") as f:
                    f.write(text)
                paths.append(os.path.join(d, name + ".pb"))
                subprocess.run([os.path.join(args.bin, "frost-opt"), os.path.join(d, name + ".pbtxt"),
                                "--emit=pb", "-o", paths[-1]], check=True)
            start = time.perf_counter()
            proc = subprocess.run([os.path.join(args.bin, "frost-diff"), *paths, "--timing"],
                                  capture_output=True, text=True)
            wall = time.perf_counter() - start
            if proc.returncode != 1:
                sys.exit("frost-diff exited %d: %s" % (proc.returncode, proc.stderr))
            phases = dict((name, float(sec)) for sec, name in
                          re.findall(r"^\s+([0-9.]+) \(\s*[0-9.]+%\)\s+(.+)$", proc.stderr, re.M))
            summary = proc.stdout.splitlines()[2]
            print("| %d | %.3f s | %.3f s | %.3f s | %.3f s | %.3f s | %s |" % (
                layers * 5 + 1, phases["read A"], phases["read B"], phases["diff"], phases["print"],
                wall, summary))


if __name__ == "__main__":
    main()
