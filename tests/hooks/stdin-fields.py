#!/usr/bin/env python3
"""stdin-fields.py : reads the JSON object on stdin and prints one line per top-level key,
sorted, as KEY=<compact JSON of the value> (UTF-8, no ASCII escaping). Plain text, never a verdict."""
import json
import sys

event = json.loads(sys.stdin.buffer.read().decode("utf-8"))
lines = [
    k + "=" + json.dumps(event[k], ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    for k in sorted(event)
]
sys.stdout.buffer.write(("\n".join(lines) + "\n").encode("utf-8"))
