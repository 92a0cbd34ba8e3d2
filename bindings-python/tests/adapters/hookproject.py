"""Helpers of the adapter tests (the `project` fixture is in conftest.py): a project directory whose Claude Code settings run one real
command hook (``hook_script.py``, python3) on every event, trusted in a private trust store,
with HOME and XDG_CONFIG_HOME pointed into the temp dir so no user settings leak in."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import hookwire

EVENTS = [
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "UserPromptSubmit",
    "SessionStart",
    "SessionEnd",
    "Stop",
]
REPO = Path(__file__).resolve().parents[3]


@dataclass
class HookProject:
    """A temp project with hooks; ``rules(...)`` sets what the hook answers."""

    dir: Path

    def rules(self, *rules: dict[str, Any]) -> None:
        (self.dir / "hooks" / "rules.json").write_text(json.dumps(list(rules)))

    def events(self, name: str | None = None) -> list[dict[str, Any]]:
        log = self.dir / "hooks" / "events.jsonl"
        if not log.exists():
            return []
        events = [json.loads(line) for line in log.read_text().splitlines()]
        return [e for e in events if name is None or e["hook_event_name"] == name]

    def names(self) -> list[str]:
        return [e["hook_event_name"] for e in self.events()]

    def dispatcher(self) -> hookwire.Dispatcher:
        return hookwire.Dispatcher.from_claude_code_defaults(self.dir)


def make_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HookProject:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    proj = tmp_path / "project"
    (proj / "hooks").mkdir(parents=True)
    (proj / ".claude").mkdir()
    script = proj / "hooks" / "hook.py"
    shutil.copy(Path(__file__).with_name("hook_script.py"), script)
    command = f"{sys.executable} {script}"
    groups = {e: [{"matcher": "", "hooks": [{"type": "command", "command": command, "timeout": 30}]}] for e in EVENTS}
    (proj / ".claude" / "settings.json").write_text(json.dumps({"hooks": groups}))
    hookwire.record_trust(hookwire.claude_code_defaults(proj))
    p = HookProject(proj)
    p.rules()
    return p


def readme_snippet(name: str) -> str:
    """The README snippet ``name``, extracted by the same tool CI documents."""
    out = subprocess.run(
        [sys.executable, str(REPO / ".ci" / "readme-snippet"), name],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout
