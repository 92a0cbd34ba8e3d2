#!/usr/bin/env python3
"""dialect-ok-payload.py : reads the payload on stdin and prints one line per top-level key,
sorted, as KEY=<compact JSON of the value> (UTF-8, sorted nested keys), then the line
trailing_newline=yes (the payload ends with exactly one "\\n") or trailing_newline=no.
Plain text, never a verdict. For the ok dialect, whose payload is reshaped (§9.3)."""
import json
import sys

raw = sys.stdin.buffer.read().decode("utf-8")
event = json.loads(raw)
lines = [
    k + "=" + json.dumps(event[k], ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    for k in sorted(event)
]
ends = raw.endswith("\n") and not raw.endswith("\n\n")
lines.append("trailing_newline=" + ("yes" if ends else "no"))
sys.stdout.buffer.write(("\n".join(lines) + "\n").encode("utf-8"))
