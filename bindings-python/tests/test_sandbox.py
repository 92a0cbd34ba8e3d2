"""A sandbox set from Python confines the hook (docs/sandbox.md): the same configuration key
as every language, checked with a planted key and the same hook unsandboxed as the control."""

from __future__ import annotations

import json
from pathlib import Path

import hookwire

READ_KEY = 'if cat "$HOME/.ssh/id_ed25519" >/dev/null 2>&1; then echo ok; else echo refused; fi'


def _fire(tmp_path: Path, sandbox: object) -> str:
    home, project = tmp_path / "home", tmp_path / "project"
    (home / ".ssh").mkdir(parents=True)
    project.mkdir(exist_ok=True)
    (home / ".ssh" / "id_ed25519").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    handler: dict[str, object] = {"type": "command", "command": READ_KEY}
    if sandbox is not None:
        handler["sandbox"] = sandbox
    config = {
        "project_dir": str(project),
        "env": {"HOME": str(home)},
        "sources": [{"scope": "user", "settings": {"hooks": {"PreToolUse": [{"hooks": [handler]}]}}}],
    }
    d = hookwire.Dispatcher(json.dumps(config))
    event = {"hook_event_name": "PreToolUse", "session_id": "s", "cwd": str(project),
             "tool_name": "Bash", "tool_input": {"command": "true"}}
    r = d.fire(event)
    return r["outcomes"][0]["stdout"].strip()


def test_a_strict_sandbox_keeps_a_planted_key_unreadable(tmp_path: Path) -> None:
    assert _fire(tmp_path / "control", None) == "ok"
    assert _fire(tmp_path / "boxed", "strict") == "refused"


def test_a_network_allow_list_set_from_python_reaches_the_listed_port_only(tmp_path: Path) -> None:
    # The override object goes through the binding's JSON unchanged: the listed port is
    # reached, the other refused (unsandboxed, both are).
    import socket

    listeners = [socket.create_server(("127.0.0.1", 0)) for _ in range(2)]
    p1, p2 = (s.getsockname()[1] for s in listeners)
    script = (
        "for p in %d %d; do python3 -c \"import socket, sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 5)\" $p "
        "2>/dev/null && printf '%%s=ok ' $p || printf '%%s=refused ' $p; done" % (p1, p2)
    )

    def fire(sandbox: object) -> str:
        handler: dict[str, object] = {"type": "command", "command": script}
        if sandbox is not None:
            handler["sandbox"] = sandbox
        config = {"project_dir": str(tmp_path),
                  "sources": [{"scope": "user", "settings": {"hooks": {"PreToolUse": [{"hooks": [handler]}]}}}]}
        event = {"hook_event_name": "PreToolUse", "session_id": "s", "cwd": str(tmp_path),
                 "tool_name": "Bash", "tool_input": {"command": "true"}}
        return hookwire.Dispatcher(json.dumps(config)).fire(event)["outcomes"][0]["stdout"].strip()

    try:
        assert fire(None) == f"{p1}=ok {p2}=ok"
        assert fire({"profile": "strict", "network": [f"127.0.0.1:{p1}"]}) == f"{p1}=ok {p2}=refused"
    finally:
        for s in listeners:
            s.close()
