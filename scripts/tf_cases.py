"""The driver shared by scripts/compare_{array,nn}_with_tf.py: generates
random cases, has TensorFlow compute each into a NodeDef (`run_case`), writes
them as one binary GraphDef and runs the frost-unittests test that replays
them (the file named by an environment variable)."""

import argparse
import os
import subprocess

import numpy as np
from tensorflow.core.framework import graph_pb2


def main(description, generators, run_case, *, cases, out, env_var, gtest_filter,
         skipped_as="not buildable"):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--build", default="build", help="Frost's build directory")
    parser.add_argument("--cases", type=int, default=cases, help="cases per generator")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ops", default="", help="comma-separated ops to keep (all if empty)")
    parser.add_argument("--out", default=out)
    parser.add_argument("--no-run", action="store_true", help="only write the case file")
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    keep = set(filter(None, args.ops.split(",")))
    graph = graph_pb2.GraphDef()
    made = skipped = 0
    for gen in generators:
        for _ in range(args.cases):
            case = gen(rng)
            if keep and case.op not in keep:
                continue
            node = run_case(case, "case_%d" % made)
            if node is None:
                skipped += 1
                continue
            graph.node.add().CopyFrom(node)
            made += 1
    with open(args.out, "wb") as f:
        f.write(graph.SerializeToString())
    errors = sum(1 for n in graph.node if "_error" in n.attr)
    print("%d cases (%d TensorFlow errors), %d %s, written to %s"
          % (made, errors, skipped, skipped_as, args.out))
    if args.no_run:
        return 0
    binary = os.path.join(args.build, "bin", "frost-unittests")
    env = dict(os.environ, **{env_var: args.out})
    return subprocess.call([binary, "--gtest_filter=" + gtest_filter], env=env)
