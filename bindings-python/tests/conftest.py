"""Helpers shared by the binding's tests: a one-hook configuration and a matching event."""

from __future__ import annotations

from typing import Any


def one_hook(command: str, *, timeout: float = 10, event: str = "PreToolUse") -> dict[str, Any]:
    """A configuration with one shell-form command hook on `event`, matching every tool."""
    handler = {"type": "command", "command": command, "timeout": timeout}
    return {"hooks": {event: [{"matcher": "*", "hooks": [handler]}]}}


def tool_event(**extra: Any) -> dict[str, Any]:
    """A PreToolUse event for Bash (`ls`), with extra fields merged in."""
    event: dict[str, Any] = {
        "session_id": "py-test",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
    }
    event.update(extra)
    return event
