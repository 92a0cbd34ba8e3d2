#!/usr/bin/env python3
"""dialect-jcli-field.py FIELD [STDOUT] : reads the JSON object on stdin and writes the compact JSON of
its FIELD (or <missing>) to STDERR, without a newline; then prints STDOUT verbatim (nothing when
absent) and exits 0. Shows what a chained hook saw (a string field prints JSON-quoted)."""
import json
import sys

payload = json.loads(sys.stdin.buffer.read().decode("utf-8"))
field = sys.argv[1]
if field in payload:
    seen = json.dumps(payload[field], ensure_ascii=False, separators=(",", ":"), sort_keys=True)
else:
    seen = "<missing>"
sys.stderr.buffer.write(seen.encode("utf-8"))
sys.stderr.flush()
if len(sys.argv) > 2:
    sys.stdout.write(sys.argv[2])
