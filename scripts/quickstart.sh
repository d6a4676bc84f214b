#!/usr/bin/env bash
# Quick start: install what is missing, build, and freeze the bundled example
# (a small TF1 training checkpoint with its .meta) into an inference graph.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if ! bash scripts/build.sh build > build.log 2>&1; then
  tail -30 build.log; echo "quickstart: build failed (whole log in build.log)"; exit 1
fi
echo "Built: build/bin/freeze-graph, frost-opt, frost-inspect"
echo "\$ build/bin/freeze-graph examples/linear-regression --outputs pred -o build/frozen.pb --report build/frozen.json"
build/bin/freeze-graph examples/linear-regression --outputs pred -o build/frozen.pb \
  --report build/frozen.json
echo "The frozen graph (build/frozen.pb), node by node:"
build/bin/frost-opt build/frozen.pb | awk '
  /^  name:/ { if (line) print line; line = "  " $2 }
  /^  op:/   { line = line " " $2 }
  /_val:/    { line = line " " $1 " " $2 }
  END        { print line }'
echo "What was frozen from where: build/frozen.json"
