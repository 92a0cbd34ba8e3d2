#!/usr/bin/env python3
"""dialect-neocode-rewrite.py TEXT [STATUS] : a neocode protocol hook. Reads the payload on stdin
and prints {"status": STATUS (default "pass"), "message": "saw <metadata.prompt>",
"update_input": {"text": TEXT}} on one line; exits 0. The message shows which prompt this hook
received (neocode does not chain rewrites)."""
import json
import sys

payload = json.loads(sys.stdin.buffer.read().decode("utf-8"))
prompt = payload.get("metadata", {}).get("prompt")
out = {
    "status": sys.argv[2] if len(sys.argv) > 2 else "pass",
    "message": "saw %s" % prompt,
    "update_input": {"text": sys.argv[1]},
}
sys.stdout.write(json.dumps(out) + "\n")
