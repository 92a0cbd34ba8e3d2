#!/usr/bin/env python3
"""update-input.py NEW_INPUT_JSON [SLEEP [DECISION]]
Reads the event on stdin and writes its tool_input (compact, sorted keys) to stderr, sleeps
SLEEP seconds (default 0), then prints a PreToolUse hookSpecificOutput with
permissionDecision DECISION (default "allow") and updatedInput NEW_INPUT_JSON."""
import json
import sys
import time

event = json.loads(sys.stdin.read())
sys.stderr.write(json.dumps(event.get("tool_input"), separators=(",", ":"), sort_keys=True))
sys.stderr.flush()
time.sleep(float(sys.argv[2]) if len(sys.argv) > 2 else 0)
decision = sys.argv[3] if len(sys.argv) > 3 else "allow"
out = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": decision,
        "updatedInput": json.loads(sys.argv[1]),
    }
}
sys.stdout.write(json.dumps(out))
