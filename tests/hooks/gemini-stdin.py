#!/usr/bin/env python3
"""gemini-stdin.py [FILE] : prints "stdin=" and the exact bytes read on stdin, with the value of
a "timestamp" key replaced by <ts> when it is UTC ISO 8601 with milliseconds and Z
(2026-11-24T01:52:07.226Z); any other value is left as is, so a wrong format shows. With FILE:
the first hook to run writes its timestamp there; a later one prints "same timestamp" or
"different timestamp" to stderr."""
import os
import re
import sys

raw = sys.stdin.buffer.read()
pat = re.compile(rb'"timestamp":"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)"')
m = pat.search(raw)
sys.stdout.buffer.write(b"stdin=" + pat.sub(b'"timestamp":"<ts>"', raw))
if len(sys.argv) > 1 and m:
    path = sys.argv[1]
    if os.path.exists(path):
        with open(path, "rb") as f:
            same = f.read() == m.group(1)
        sys.stderr.write("same timestamp" if same else "different timestamp")
    else:
        with open(path, "wb") as f:
            f.write(m.group(1))
