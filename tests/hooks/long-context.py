#!/usr/bin/env python3
"""long-context.py EVENT N [CHAR] : prints {"hookSpecificOutput": {"hookEventName": EVENT,
"additionalContext": CHAR * N}} (CHAR defaults to "a")."""
import json
import sys

event, n = sys.argv[1], int(sys.argv[2])
char = sys.argv[3] if len(sys.argv) > 3 else "a"
out = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": char * n}}
sys.stdout.write(json.dumps(out))
