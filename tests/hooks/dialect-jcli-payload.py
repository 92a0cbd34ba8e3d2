#!/usr/bin/env python3
"""dialect-jcli-payload.py [STDOUT] : reads the JSON object on stdin and writes one line per
top-level key to STDERR, sorted, as KEY=<compact JSON of the value> (sorted keys, UTF-8, no ASCII
escaping); then prints STDOUT verbatim (nothing when absent) and exits 0. The dump goes to stderr
so that a dialect whose stdout is a protocol (j-cli: empty stdout = no change) is not disturbed."""
import json
import sys

payload = json.loads(sys.stdin.buffer.read().decode("utf-8"))
lines = [
    k + "=" + json.dumps(payload[k], ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    for k in sorted(payload)
]
sys.stderr.buffer.write(("\n".join(lines) + "\n").encode("utf-8"))
sys.stderr.flush()
if len(sys.argv) > 1:
    sys.stdout.write(sys.argv[1])
