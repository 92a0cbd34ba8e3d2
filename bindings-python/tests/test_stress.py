"""Load from Python threads on one dispatcher, and what the wrapper guarantees about lifetime.

16 threads x 250 fires of a mixed configuration (allow by JSON, deny by exit 2, exec-form
/bin/true, no match), then 1000 sequential fires: every fire gives exactly its verdict, and
the process ends with the descriptors it started with and no child (zombie or alive).
"""

from __future__ import annotations

import gc
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import hookwire

THREADS = 16
FIRES_PER_THREAD = 250
SEQUENTIAL_FIRES = 1000

ALLOW = json.dumps(
    {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": "fine",
        }
    },
    separators=(",", ":"),
)


def sh(command: str) -> dict[str, Any]:
    return {"type": "command", "command": command, "timeout": 30}


MIXED = {
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [sh("exit 0"), sh(f"printf '%s' '{ALLOW}'")]},
            {"matcher": "Write", "hooks": [sh("echo no >&2; exit 2"), sh("exit 0")]},
            {"matcher": "Edit", "hooks": [{"type": "command", "command": "/bin/true", "args": []}]},
        ]
    }
}
TOOLS = ["Bash", "Write", "Edit", "Read"]
EXPECTED = {"Bash": ("allow", "fine", 2), "Write": ("deny", "no", 2), "Edit": (None, None, 1), "Read": (None, None, 0)}


def event(tool: str, session: str) -> dict[str, Any]:
    return {
        "hook_event_name": "PreToolUse",
        "session_id": session,
        "cwd": "/",
        "tool_name": tool,
        "tool_input": {"command": "ls"},
    }


def fire_and_check(d: hookwire.Dispatcher, tool: str, session: str) -> int:
    r = d.fire(event(tool, session))
    decision, reason, count = EXPECTED[tool]
    assert (r["decision"], r["reason"], len(r["outcomes"])) == (decision, reason, count), r
    assert all(o["status"] == "ok" for o in r["outcomes"]), r
    return count


def open_fds() -> int:
    """Open descriptors, after collecting garbage: a dispatcher an earlier test dropped holds
    a descriptor until it is collected, which would make the count shrink mid-test."""
    gc.collect()
    return len(os.listdir("/proc/self/fd"))


def children() -> list[tuple[int, str]]:
    """(pid, state) of every process whose parent is this one."""
    me = str(os.getpid())
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        state, ppid = stat[stat.rfind(")") + 1 :].split()[:2]
        if ppid == me:
            out.append((int(name), state))
    return out


def children_after_settling() -> list[tuple[int, str]]:
    deadline = time.monotonic() + 2
    while (c := children()) and time.monotonic() < deadline:
        time.sleep(0.02)
    return c


def test_sixteen_threads_share_one_dispatcher_and_leak_no_descriptor_or_child() -> None:
    d = hookwire.Dispatcher(MIXED)
    for tool in TOOLS:
        fire_and_check(d, tool, "warm-up")
    fds_before = open_fds()
    errors: list[BaseException] = []
    hooks = [0] * THREADS

    def work(t: int) -> None:
        try:
            for i in range(FIRES_PER_THREAD):
                hooks[t] += fire_and_check(d, TOOLS[(t + i) % len(TOOLS)], f"py-thread-{t}")
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(THREADS)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - start
    assert not errors, errors[:3]
    fds_after = open_fds()
    left = children_after_settling()
    print(
        f"stress(python): {THREADS} threads x {FIRES_PER_THREAD} fires, {sum(hooks)} hooks, {took:.1f} s; "
        f"descriptors before {fds_before} after {fds_after}; children after {len(left)}"
    )
    assert fds_after <= fds_before, "descriptors grew"
    assert left == [], left
    assert took < 20


def test_sequential_fires_mixing_hooks_and_no_match_leak_nothing() -> None:
    d = hookwire.Dispatcher(MIXED)
    for tool in TOOLS:
        fire_and_check(d, tool, "warm-up")
    fds_before = open_fds()
    for i in range(SEQUENTIAL_FIRES):
        fire_and_check(d, "Read" if i % 2 == 0 else TOOLS[(i // 2) % 3], "py-sequential")
    assert open_fds() <= fds_before, "descriptors grew"
    assert children_after_settling() == []


# --- lifetime: what the wrapper guarantees --------------------------------------------------


def test_a_fire_in_flight_finishes_after_the_last_reference_is_dropped() -> None:
    # Python has no close(): a Dispatcher cannot be used after it is gone, because nothing
    # can name it. What can happen is that the last reference goes while a fire runs on
    # another thread; the native side holds its own reference (abi.md §3).
    d = hookwire.Dispatcher({"hooks": {"PreToolUse": [{"hooks": [sh("sleep 0.2; echo late")]}]}})
    out: list[dict[str, Any]] = []
    t = threading.Thread(target=lambda fire=d.fire: out.append(fire(event("Bash", "py-drop"))))
    t.start()
    del d
    gc.collect()
    t.join(10)
    assert out and out[0]["outcomes"][0]["stdout"] == "late\n", out


def test_fire_async_cancelled_leaves_nothing_behind() -> None:
    import asyncio

    d = hookwire.Dispatcher({"hooks": {"PreToolUse": [{"hooks": [sh("sleep 0.3")]}]}})

    async def main() -> None:
        task = asyncio.create_task(d.fire_async(event("Bash", "py-cancel")))
        await asyncio.sleep(0.05)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        else:  # pragma: no cover - the fire cannot finish in 50 ms
            raise AssertionError("the task was not cancelled")

    asyncio.run(main())  # asyncio.run waits for the default executor's fire to finish
    assert children_after_settling() == []
