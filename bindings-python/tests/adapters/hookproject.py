"""Helpers of the adapter tests (the `project` fixture is in conftest.py): a project directory whose Claude Code settings run one real
command hook (``hook_script.py``, python3) on every event, trusted in a private trust store,
with HOME and XDG_CONFIG_HOME pointed into the temp dir so no user settings leak in."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import hookwire

EVENTS = [
    "PreToolUse",
    "PermissionRequest",
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


def permission(behavior: str, message: str | None = None) -> dict[str, Any]:
    """A PermissionRequest hook's JSON answer."""
    decision: dict[str, Any] = {"behavior": behavior}
    if message is not None:
        decision["message"] = message
    return {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}


#: PreToolUse allows the call (Claude Code then asks nobody).
PRE_ALLOW = {"event": "PreToolUse", "stdout": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}}

#: PreToolUse lets the call run and shows the user a system message.
SYSTEM_MESSAGE = {"event": "PreToolUse", "stdout": {"systemMessage": "heads up: a shell command"}}

#: The error tool result's text of a PermissionRequest without a decision (the core's words).
NOT_ALLOWED = "Permission to use this tool was not granted by a hook"

#: The reason the guard of ``guard_project`` denies with.
GUARD_REASON = "no shell here"


def isolate_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """HOME and XDG_CONFIG_HOME in the temp dir: no user settings, a private trust store."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))


def guard_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, trusted: bool = True) -> Path:
    """A fresh project as a user writes one: ``.claude/settings.json`` with a single PreToolUse
    guard on ``Bash`` that denies (exit 2). Trusted in the private store only if ``trusted``."""
    isolate_home(tmp_path, monkeypatch)
    proj = tmp_path / "guarded"
    (proj / ".claude").mkdir(parents=True)
    guard = {"matcher": "Bash", "hooks": [{"type": "command", "command": f"echo '{GUARD_REASON}' >&2; exit 2"}]}
    (proj / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [guard]}}))
    if trusted:
        hookwire.record_trust(hookwire.claude_code_defaults(proj))
    return proj


#: ``ran(project_dir, tool_name, calls=1, **adapter_options)``: runs an agent of one adapter whose
#: model calls its tool ``tool_name`` ``calls`` times with ``{"command": "ls"}``, then answers;
#: returns the commands the tool ran.
GuardedRun = Callable[..., list[str]]


def check_tool_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ran: GuardedRun) -> None:
    """A user's ``Bash`` guard reaches a framework tool named ``bash`` through the default map
    (no warning); an unmapped ``run_it`` gets one warning however often it is called, and runs;
    a user entry maps it; ``tool_names=None`` maps nothing."""
    from hookwire.adapters import AdapterWarning

    proj = guard_project(tmp_path, monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("error", AdapterWarning)
        assert ran(proj, "bash") == []
        assert ran(proj, "run_it", tool_names={"run_it": "Bash"}) == []
    with pytest.warns(AdapterWarning, match="run_it") as caught:
        assert ran(proj, "run_it", calls=2) == ["ls", "ls"]
    assert len([w for w in caught if "run_it" in str(w.message)]) == 1
    with pytest.warns(AdapterWarning, match="bash"):
        assert ran(proj, "bash", tool_names=None) == ["ls"]


def check_trust(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ran: GuardedRun) -> None:
    """A fresh project's untrusted ``Bash`` guard: one ``UntrustedHooksWarning`` naming the
    call that trusts it and ``trust="trusted"``, and the tool runs. The trusted routes deny
    without a warning; ``trust="untrusted"`` runs without one."""
    from hookwire.adapters import UntrustedHooksWarning

    proj = guard_project(tmp_path, monkeypatch, trusted=False)
    with pytest.warns(UntrustedHooksWarning) as caught:
        assert ran(proj, "Bash", calls=2) == ["ls", "ls"]
    [warning] = [w for w in caught if issubclass(w.category, UntrustedHooksWarning)]
    text = str(warning.message)
    assert f"hookwire.record_trust(hookwire.claude_code_defaults({str(proj)!r}))" in text
    assert 'trust="trusted"' in text and str(proj / ".claude" / "settings.json") in text
    with warnings.catch_warnings():
        warnings.simplefilter("error", UntrustedHooksWarning)
        assert ran(proj, "Bash", trust="trusted") == []
        assert ran(proj, "Bash", trust="untrusted") == ["ls"]  # the host's choice: no warning
        hookwire.record_trust(hookwire.claude_code_defaults(proj))
        assert ran(proj, "Bash") == []


def check_events_built_by_core(project: HookProject, tool_names: Mapping[str, str]) -> None:
    """Each event of a run (session ``sess-1``, cwd the project, prompt ``list files``, one
    ``Bash`` call ``toolu_1`` of ``ls`` that returned ``ran: ls``, answer ``done``) is, key
    order included, the event ``hookwire.host_event`` builds from the same facts: no
    ``transcript_path``, ``permission_mode`` ``default``."""
    common = {"session_id": "sess-1", "cwd": str(project.dir)}
    tool = {"tool_name": "Bash", "tool_names": dict(tool_names), "tool_input": {"command": "ls"}, "tool_use_id": "toolu_1"}
    expected = {
        "SessionStart": {"source": "startup"},
        "UserPromptSubmit": {"prompt": "list files"},
        "PreToolUse": tool,
        "PostToolUse": {**tool, "tool_response": "ran: ls"},
        "Stop": {"stop_hook_active": False, "last_assistant_message": "done"},
        "SessionEnd": {},
    }
    assert project.names() == list(expected)
    for name, facts in expected.items():
        [fired] = project.events(name)
        built = hookwire.host_event({"event": name, **common, **facts})
        assert list(fired.items()) == list(built.items()), name
        assert "transcript_path" not in fired and fired["permission_mode"] == "default"


def make_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HookProject:
    isolate_home(tmp_path, monkeypatch)
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
    """The documented snippet ``name`` (docs/frameworks.md), extracted by the same tool CI uses."""
    out = subprocess.run(
        [sys.executable, str(REPO / ".ci" / "readme-snippet"), name],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout
