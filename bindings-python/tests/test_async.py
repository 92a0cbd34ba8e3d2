"""`fire_async`: the same result as `fire`, on the loop's default executor, cancellable
(`test_cancel.py` checks that cancelling kills the hooks)."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import one_hook, tool_event

import hookwire


def no_children_left() -> bool:
    """True when this process has no child at all (running or unreaped)."""
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_fire_async_returns_the_same_dict_as_fire() -> None:
    d = hookwire.Dispatcher({})
    event = tool_event()
    assert asyncio.run(d.fire_async(event)) == d.fire(event)
    assert asyncio.run(d.fire_async(b'{"hook_event_name":"Stop"}'))["event"] == "Stop"


def test_gather_of_eight_fires_runs_them_at_the_same_time() -> None:
    d = hookwire.Dispatcher(one_hook("sleep 0.5"))

    async def main() -> tuple[list[dict], float]:
        # Eight workers, so the test does not depend on this machine's CPU count (the
        # default executor holds min(32, cpus + 4) threads).
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(8))
        start = time.perf_counter()
        results = await asyncio.gather(*(d.fire_async(tool_event(session_id=f"s{i}")) for i in range(8)))
        return list(results), time.perf_counter() - start

    results, elapsed = asyncio.run(main())
    assert len(results) == 8
    for r in results:
        assert len(r["outcomes"]) == 1, r
        assert r["outcomes"][0]["status"] == "ok", r
    # One after the other they would take 4 s.
    assert 0.5 <= elapsed < 2.0, f"8 concurrent 0.5 s fires took {elapsed:.2f} s"


def test_the_event_loop_keeps_running_during_a_fire() -> None:
    d = hookwire.Dispatcher(one_hook("sleep 0.5"))

    async def main() -> int:
        ticks = 0
        task = asyncio.ensure_future(d.fire_async(tool_event()))
        while not task.done():
            ticks += 1
            await asyncio.sleep(0.01)
        assert len((await task)["outcomes"]) == 1
        return ticks

    assert asyncio.run(main()) >= 10


def test_the_event_is_copied_when_fire_async_is_called() -> None:
    d = hookwire.Dispatcher({})

    async def main() -> dict:
        event = {"hook_event_name": "PreToolUse"}
        pending = d.fire_async(event)
        event["hook_event_name"] = "Stop"
        return await pending

    assert asyncio.run(main())["event"] == "PreToolUse"


def test_errors_reach_the_awaiting_task() -> None:
    d = hookwire.Dispatcher({})
    with pytest.raises(hookwire.EventError) as info:
        asyncio.run(d.fire_async("{"))
    assert info.value.kind == "invalid_json"
    with pytest.raises(hookwire.EventError) as info:
        asyncio.run(d.fire_async({"hook_event_name": "Stop", "x": {1, 2}}))
    assert info.value.kind == "invalid_event"


def test_cancelling_the_awaiting_task_ends_it_at_once_and_the_hook_is_killed(tmp_path: Path) -> None:
    done = tmp_path / "done"
    d = hookwire.Dispatcher(one_hook(f"sleep 1; echo finished > '{done}'"))
    threads_before = threading.active_count()

    async def main() -> float:
        task = asyncio.ensure_future(d.fire_async(tool_event()))
        await asyncio.sleep(0.2)
        start = time.perf_counter()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return time.perf_counter() - start

    # asyncio.run shuts the default executor down, which waits for the fire to end.
    cancelled_after = asyncio.run(main())
    assert cancelled_after < 0.5, f"cancellation took {cancelled_after:.2f} s"
    time.sleep(1.2)  # past the hook's own end, had it survived
    assert not done.exists(), "the cancelled hook ran to its end"
    assert threading.active_count() == threads_before, "a thread outlived the fire"
    assert no_children_left(), "a hook process was left unreaped"
