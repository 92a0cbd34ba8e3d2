#!/usr/bin/env python3
"""argv.py ARGS... : prints sys.argv[1:] as one JSON array line (so word splitting shows)."""
import json
import sys

sys.stdout.write(json.dumps(sys.argv[1:]) + "\n")
