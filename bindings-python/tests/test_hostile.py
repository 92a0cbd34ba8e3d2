"""Hostile hooks and untrusted configurations, from Python (issue 11).

The hooks are the shared scripts of tests/hostile/. Each test checks the outcome the protocol
gives (protocol.md §5, §8) and, where processes are involved, that none survives. Time bounds
are wide (CONTRIBUTING.md rule 22): a 1 s timeout must end within 5 s.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import time
from pathlib import Path
from typing import Any

from conftest import one_hook, tool_event

import hookwire

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "hostile"


def sq(word: str | Path) -> str:
    """A shell-quoted word."""
    return "'" + str(word).replace("'", "'\\''") + "'"


def script(name: str, *args: str | Path) -> str:
    """A shell-form command running tests/hostile/NAME with ARGS."""
    return " ".join(["sh", sq(HOSTILE / name), *(sq(a) for a in args)])


def only_outcome(r: dict[str, Any]) -> dict[str, Any]:
    assert len(r["outcomes"]) == 1, r
    return r["outcomes"][0]


def proc_state(pid: int) -> str | None:
    """The /proc state letter of PID, None when it no longer exists."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat[stat.rfind(")") + 1 :].split()[0]


def alive(pid: int) -> bool:
    """Exists and is not a zombie (a reparented zombie is dead, only not reaped by init yet)."""
    state = proc_state(pid)
    return state is not None and state != "Z"


def read_pids(path: Path, want: int) -> list[int]:
    """The pids a hook wrote to PATH, waiting up to 2 s for WANT of them."""
    deadline = time.monotonic() + 2
    while True:
        text = path.read_text() if path.exists() else ""
        pids = [int(line) for line in text.split() if line.strip().isdigit()]
        if len(pids) >= want or time.monotonic() > deadline:
            assert len(pids) == want, f"{path}: {pids}"
            return pids
        time.sleep(0.02)


def kill_stray(pid: int) -> None:
    """Kills a process that is not ours to reap (cleanup only)."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def test_deny_is_kept_and_returned_at_once_while_a_sleeper_holds_stdout(tmp_path: Path) -> None:
    pidfile = tmp_path / "sleeper.pid"
    d = hookwire.Dispatcher(one_hook(script("deny-and-linger.sh", pidfile), timeout=20))
    start = time.monotonic()
    r = d.fire(tool_event(cwd=str(tmp_path)))
    took = time.monotonic() - start
    (sleeper,) = read_pids(pidfile, 1)
    kill_stray(sleeper)
    assert took < 2, f"fire took {took:.2f} s while a sleeper held stdout"
    assert r["decision"] == "deny", r
    assert r["reason"] == "lingering deny", r
    o = only_outcome(r)
    assert (o["status"], o["exit_code"], o["timed_out"]) == ("ok", 0, False), o


def test_hung_hook_is_killed_at_its_timeout_with_no_survivor(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    d = hookwire.Dispatcher(one_hook(script("hang.sh", pidfile), timeout=1))
    start = time.monotonic()
    r = d.fire(tool_event(cwd=str(tmp_path)))
    took = time.monotonic() - start
    assert took < 5, f"a 1 s timeout took {took:.2f} s"
    o = only_outcome(r)
    assert (o["status"], o["timed_out"], o["exit_code"]) == ("timed_out", True, None), o
    assert r["decision"] is None, r
    pids = read_pids(pidfile, 2)
    time.sleep(1)
    survivors = [p for p in pids if alive(p)]
    for p in survivors:
        kill_stray(p)
    assert not survivors, f"still alive one second after the group kill: {survivors} of {pids}"


def test_flood_on_both_streams_is_capped_and_flagged(tmp_path: Path) -> None:
    config = one_hook(script("flood.sh", str(20 * 1024 * 1024)), timeout=60)
    config["limits"] = {"max_output_bytes": 65536}
    d = hookwire.Dispatcher(config)
    start = time.monotonic()
    r = d.fire(tool_event(cwd=str(tmp_path)))
    assert time.monotonic() - start < 30
    o = only_outcome(r)
    assert (o["status"], o["exit_code"]) == ("ok", 0), o["error"]
    assert o["stdout_truncated"] and o["stderr_truncated"]
    assert 0 < len(o["stdout"]) <= 65536 and set(o["stdout"]) == {"o"}
    assert 0 < len(o["stderr"]) <= 65536 and set(o["stderr"]) == {"e"}


def test_missing_program_is_spawn_failed_not_an_exception(tmp_path: Path) -> None:
    handler = {"type": "command", "command": "/nonexistent/hookwire-missing-program", "args": []}
    d = hookwire.Dispatcher({"hooks": {"PreToolUse": [{"hooks": [handler]}]}})
    o = only_outcome(d.fire(tool_event(cwd=str(tmp_path))))
    assert o["status"] == "spawn_failed", o
    assert o["exit_code"] is None, o
    assert isinstance(o["error"], str) and o["error"], o


def test_invalid_utf8_output_is_replaced_and_flagged_lossy(tmp_path: Path) -> None:
    d = hookwire.Dispatcher(one_hook(script("invalid-utf8.sh")))
    o = only_outcome(d.fire(tool_event(cwd=str(tmp_path))))
    assert o["status"] == "ok", o
    assert o["stdout_lossy"] and o["stderr_lossy"], o
    assert o["stdout"].startswith("a") and o["stdout"].endswith("b") and "\ufffd" in o["stdout"], o
    assert "\ufffd" in o["stderr"], o


# --- security: untrusted project configurations and the trust store ----------------------


def marker_hook(marker: Path) -> dict[str, Any]:
    """Settings whose only hook (on every event's Stop) would create MARKER if it ever ran."""
    return {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": f"touch {sq(marker)}"}]}]}}


def stop_event(cwd: Path) -> dict[str, Any]:
    return {"hook_event_name": "Stop", "session_id": "py-trust", "cwd": str(cwd)}


def test_untrusted_project_sources_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps(marker_hook(marker)))
    config = {
        "project_dir": str(tmp_path),
        "sources": [
            {"scope": "project", "settings": marker_hook(marker)},
            {"scope": "project", "path": ".claude/settings.json"},
            {"scope": "local", "settings": marker_hook(marker)},
        ],
    }
    r = hookwire.Dispatcher(config).fire(stop_event(tmp_path))
    assert r["outcomes"] == [], r
    assert any("not trusted" in w for w in r["warnings"]), r["warnings"]
    assert not marker.exists()


def trust_store(project: Path, files: dict[str, bytes]) -> dict[str, Any]:
    """A trust store (protocol.md §2.8) recording the SHA-256 of FILES under PROJECT."""
    digests = {k: "sha256:" + hashlib.sha256(v).hexdigest() for k, v in files.items()}
    return {"version": 1, "projects": {str(project.resolve()): digests}}


def test_a_world_writable_trust_store_is_refused(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    (tmp_path / ".claude").mkdir()
    settings = json.dumps(marker_hook(marker)).encode()
    (tmp_path / ".claude" / "settings.json").write_bytes(settings)
    store = tmp_path / "trust.json"
    store.write_text(json.dumps(trust_store(tmp_path, {".claude/settings.json": settings})))
    config = {
        "project_dir": str(tmp_path),
        "trust": {"store": str(store)},
        "sources": [{"scope": "project", "path": ".claude/settings.json"}],
    }

    # The same store, private, is accepted: the hook runs (so the refusal below is the mode).
    store.chmod(0o600)
    r = hookwire.Dispatcher(config).fire(stop_event(tmp_path))
    assert len(r["outcomes"]) == 1 and r["outcomes"][0]["status"] == "ok", r
    assert marker.exists()
    marker.unlink()

    store.chmod(0o666)
    r = hookwire.Dispatcher(config).fire(stop_event(tmp_path))
    assert r["outcomes"] == [], r
    assert any("world-writable" in w for w in r["warnings"]), r["warnings"]
    assert not marker.exists()
