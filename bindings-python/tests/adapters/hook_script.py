#!/usr/bin/env python3
"""The command hook the adapter tests configure for every event: it appends the event it reads
on stdin to events.jsonl beside it, then answers with the first rule of rules.json (beside it)
whose conditions all hold. A rule: {"event": name, "when": {field: value, ...},
"contains": text in the event's JSON, "exit": code, "stdout": text or JSON, "stderr": text}."""
import json
import pathlib
import sys

here = pathlib.Path(__file__).parent
raw = sys.stdin.read()
event = json.loads(raw)
with open(here / "events.jsonl", "a", encoding="utf-8") as log:
    log.write(json.dumps(event) + "\n")
for rule in json.loads((here / "rules.json").read_text()):
    if rule.get("event") != event.get("hook_event_name"):
        continue
    if any(event.get(k) != v for k, v in rule.get("when", {}).items()):
        continue
    if rule.get("contains") and rule["contains"] not in raw:
        continue
    out = rule.get("stdout")
    if out is not None:
        sys.stdout.write(out if isinstance(out, str) else json.dumps(out))
    if rule.get("stderr"):
        sys.stderr.write(rule["stderr"])
    sys.exit(rule.get("exit", 0))
