#!/usr/bin/env bash
# Rewrites the example's checkpoint (W = [[0.5]], b = [2]) with the test
# suite's TensorFlow-free checkpoint writer.
set -euo pipefail
cd "$(dirname "$0")"
python3 ../../test/Transforms/Inputs/write_checkpoint.py model 'W:float:1x1:0.5' 'b:float:1:2'
echo 'model_checkpoint_path: "model"' > checkpoint
