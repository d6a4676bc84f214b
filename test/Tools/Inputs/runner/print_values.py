#!/usr/bin/env python3
"""print_values.py DIR ROLE: frost-verify --save-values DIR's values of ROLE
(source, frozen, input), one line each: TENSOR VALUES (as a Python list)."""
import json
import os
import sys

import numpy as np

index = json.load(open(os.path.join(sys.argv[1], "index.json")))["values"]
for v in index:
    if v["role"] == sys.argv[2]:
        print(v["tensor"], np.load(os.path.join(sys.argv[1], v["file"])).tolist())
