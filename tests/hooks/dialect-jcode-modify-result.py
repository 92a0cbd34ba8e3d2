#!/usr/bin/env python3
"""dialect-jcode-modify-result.py NEW : jcode PostToolUse helper. Reads the event on stdin and writes
its tool_response (compact JSON, sorted keys) to stderr, then prints a JSON object carrying
modifiedResult = NEW (a string) both at the top level and inside hookSpecificOutput
(hookEventName PostToolUse), so either placement reads the same rewrite; exits 0."""
import json
import sys

event = json.loads(sys.stdin.read())
sys.stderr.write(json.dumps(event.get("tool_response"), separators=(",", ":"), sort_keys=True))
sys.stderr.flush()
new = sys.argv[1]
out = {
    "modifiedResult": new,
    "hookSpecificOutput": {"hookEventName": "PostToolUse", "modifiedResult": new},
}
sys.stdout.write(json.dumps(out))
