"""A Cline hook replacing the tool input with one that records the input it was given."""
import json
import sys

seen = json.load(sys.stdin)["tool_call"]["input"]
print(json.dumps({"overrideInput": {"commands": ["two"], "saw": seen}}))
