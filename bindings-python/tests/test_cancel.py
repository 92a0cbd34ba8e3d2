"""Real cancellation: a cancelled `fire_async` task, or a `CancelToken` passed to `fire`, kills
the running hooks and leaves no process behind (issue 8)."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest
from conftest import one_hook, tool_event

import hookwire


def alive(pid: int) -> bool:
    """True while `pid` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_for_pid(path: Path, within: float = 5.0) -> int:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        text = path.read_text() if path.exists() else ""
        if text.strip():
            return int(text)
        time.sleep(0.01)
    raise AssertionError("the hook never wrote its pid")


def gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.02)
    return not alive(pid)


def sleeper(pid_file: Path) -> hookwire.Dispatcher:
    # `exec` makes the pid written the pid of the sleeping process itself.
    return hookwire.Dispatcher(one_hook(f"echo $$ > '{pid_file}'; exec sleep 30", timeout=60))


def test_cancelling_a_fire_async_task_kills_the_hook(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    d = sleeper(pid_file)

    async def main() -> tuple[float, int, bool]:
        task = asyncio.create_task(d.fire_async(tool_event()))
        await asyncio.sleep(0.3)
        pid = wait_for_pid(pid_file)
        start = time.perf_counter()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        cancelled_after = time.perf_counter() - start
        return cancelled_after, pid, gone_within(pid, 1.0)

    start = time.perf_counter()
    cancelled_after, pid, gone = asyncio.run(main())
    assert cancelled_after < 0.2, f"the task took {cancelled_after:.2f} s to end"
    assert gone, f"hook process {pid} outlived the cancellation by 1 s"
    # asyncio.run waits for the executor: the fire itself ended too, long before `sleep 30`.
    assert time.perf_counter() - start < 5


def test_a_timeout_around_fire_async_cancels_the_fire(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    d = sleeper(pid_file)

    async def main() -> None:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(d.fire_async(tool_event()), 0.5)

    asyncio.run(main())
    assert gone_within(wait_for_pid(pid_file), 1.0)


def test_a_cancel_token_ends_a_fire_from_another_thread(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    d = sleeper(pid_file)
    token = hookwire.CancelToken()
    assert not token.is_cancelled()

    def canceller() -> None:
        wait_for_pid(pid_file)
        token.cancel()

    t = threading.Thread(target=canceller)
    start = time.perf_counter()
    t.start()
    r = d.fire(tool_event(), cancel=token)
    t.join()
    assert time.perf_counter() - start < 3
    assert token.is_cancelled()
    assert r["outcomes"][0]["status"] == "cancelled", r
    assert gone_within(int(pid_file.read_text()), 1.0)


def test_a_cancelled_token_starts_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    d = hookwire.Dispatcher(one_hook(f"touch '{marker}'"))
    token = hookwire.CancelToken()
    token.cancel()
    r = d.fire(tool_event(), cancel=token)
    assert [o["status"] for o in r["outcomes"]] == ["cancelled"], r
    assert not marker.exists()
    assert "cancelled" in repr(token)


def test_a_cancel_ends_the_wait_for_a_function_hook() -> None:
    d = hookwire.Dispatcher({})
    d.add_function_hook("PreToolUse", lambda e: time.sleep(1.0), timeout=10)
    token = hookwire.CancelToken()
    threading.Timer(0.1, token.cancel).start()
    start = time.perf_counter()
    r = d.fire(tool_event(), cancel=token)
    assert time.perf_counter() - start < 0.6
    assert r["outcomes"][0]["status"] == "cancelled", r


def test_an_uncancelled_token_changes_nothing() -> None:
    d = hookwire.Dispatcher(one_hook("true"))
    event = tool_event()
    with_token = d.fire(event, cancel=hookwire.CancelToken())
    without = d.fire(event)
    for r in (with_token, without):
        for o in r["outcomes"]:
            o.pop("duration_ms", None)
    assert with_token == without
    assert d.fire(b'{"hook_event_name":"Stop"}', cancel=hookwire.CancelToken())["event"] == "Stop"
    with pytest.raises(hookwire.EventError) as info:
        d.fire(b"\xff", cancel=hookwire.CancelToken())
    assert info.value.kind == "invalid_utf8"
