"""Python functions as hooks and as host callbacks, folded with command hooks (issue 8)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import pytest
from conftest import one_hook, tool_event

import hookwire

ALLOW = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'


def deny(reason: str) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                   "permissionDecisionReason": reason}}


def guard(event: dict[str, Any]) -> dict[str, Any] | None:
    if "rm -rf" in event["tool_input"]["command"]:
        return deny("no rm -rf")
    return None


def allowing_command() -> hookwire.Dispatcher:
    return hookwire.Dispatcher(one_hook(f"echo '{ALLOW}'"))


def test_a_function_deny_beats_a_command_allow() -> None:
    d = allowing_command()
    hook_id = d.add_function_hook("PreToolUse", guard, matcher="Bash", name="guard")
    assert hook_id == "function(guard):PreToolUse"

    r = d.fire(tool_event(tool_input={"command": "rm -rf /"}))
    assert r["decision"] == "deny", r
    assert r["reason"] == "no rm -rf"
    assert [o["hook"] for o in r["outcomes"]][1] == "function(guard):PreToolUse"
    assert r["outcomes"][1]["type"] == "function"

    r = d.fire(tool_event())
    assert r["decision"] == "allow", r
    assert [o["status"] for o in r["outcomes"]] == ["ok", "ok"]


def test_the_matcher_picks_the_tools_a_function_sees() -> None:
    d = hookwire.Dispatcher({})
    seen: list[str] = []
    d.add_function_hook("PreToolUse", lambda e: seen.append(e["tool_name"]), matcher="Write|Edit")
    d.fire(tool_event())
    d.fire(tool_event(tool_name="Edit"))
    assert seen == ["Edit"]


def test_a_function_rewrite_becomes_updated_input() -> None:
    d = allowing_command()

    def rewrite(event: dict[str, Any]) -> dict[str, Any]:
        command = event["tool_input"]["command"]
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                       "updatedInput": {"command": f"{command} -la"}}}

    d.add_function_hook("PreToolUse", rewrite)
    r = d.fire(tool_event())
    assert r["decision"] == "allow", r
    assert r["updated_input"] == {"command": "ls -la"}


def test_a_str_answer_is_read_like_stdout() -> None:
    d = hookwire.Dispatcher({})
    d.add_function_hook("PreToolUse", lambda e: ALLOW.replace("allow", "deny"))
    assert d.fire(tool_event())["decision"] == "deny"


def test_an_exception_is_a_non_blocking_error_unless_fail_closed() -> None:
    def broken(event: dict[str, Any]) -> None:
        raise ValueError("checker crashed")

    d = allowing_command()
    d.add_function_hook("PreToolUse", broken)
    r = d.fire(tool_event())
    assert r["decision"] == "allow", r
    assert r["outcomes"][1]["status"] == "error"
    assert "ValueError: checker crashed" in r["outcomes"][1]["error"]

    d.add_function_hook("PreToolUse", broken, fail_closed=True, first=True, name="strict")
    r = d.fire(tool_event())
    assert r["decision"] == "deny", r
    assert r["outcomes"][0]["hook"] == "function(strict):PreToolUse"
    assert r["outcomes"][0]["status"] == "error"


def test_a_wrong_return_type_is_an_error_outcome() -> None:
    d = hookwire.Dispatcher({})
    d.add_function_hook("PreToolUse", lambda e: 42)
    r = d.fire(tool_event())
    assert r["outcomes"][0]["status"] == "error"
    assert "dict, a str or None, not int" in r["outcomes"][0]["error"]


def test_an_async_def_function_works_from_fire_and_from_fire_async() -> None:
    d = allowing_command()

    async def slow_guard(event: dict[str, Any]) -> dict[str, Any] | None:
        await asyncio.sleep(0.05)
        return guard(event)

    d.add_function_hook("PreToolUse", slow_guard)
    assert d.fire(tool_event(tool_input={"command": "rm -rf ~"}))["decision"] == "deny"
    r = asyncio.run(d.fire_async(tool_event(tool_input={"command": "rm -rf ~"})))
    assert r["decision"] == "deny", r
    assert asyncio.run(d.fire_async(tool_event()))["decision"] == "allow"


def test_a_function_sleeping_past_its_timeout_times_out() -> None:
    d = hookwire.Dispatcher({})
    d.add_function_hook("PreToolUse", lambda e: time.sleep(1.5), timeout=0.3)
    start = time.perf_counter()
    r = d.fire(tool_event())
    elapsed = time.perf_counter() - start
    assert r["outcomes"][0]["status"] == "timed_out", r
    assert elapsed < 1.0, f"the fire waited {elapsed:.2f} s for a 0.3 s timeout"


def test_bad_registrations_raise() -> None:
    d = hookwire.Dispatcher({})
    with pytest.raises(hookwire.ConfigError):
        d.add_function_hook("NoSuchEvent", guard)
    with pytest.raises(hookwire.ConfigError):
        d.add_function_hook("PreToolUse", guard, timeout=0)
    with pytest.raises(hookwire.ConfigError):
        d.add_function_hook("PreToolUse", guard, matcher="(")
    with pytest.raises(TypeError):
        d.add_function_hook("PreToolUse", "not callable")  # type: ignore[arg-type]
    with pytest.raises(hookwire.ConfigError):
        d.set_host_callback("command", lambda req: {"ok": True})
    with pytest.raises(TypeError):
        d.set_host_callback("prompt", None)  # type: ignore[arg-type]


def test_a_host_callback_for_prompt_denies_a_tool() -> None:
    d = hookwire.Dispatcher({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "prompt", "prompt": "Is this command safe?", "timeout": 5}]}]}})
    r = d.fire(tool_event())
    assert r["outcomes"] == [] and any("no host callback" in w for w in r["warnings"]), r

    asked: list[dict[str, Any]] = []

    def model(request: dict[str, Any]) -> dict[str, Any]:
        asked.append(request)
        return {"ok": False, "reason": "the model says no"}

    d.set_host_callback("prompt", model)
    r = d.fire(tool_event())
    assert r["decision"] == "deny", r
    assert r["reason"] == "the model says no"
    assert asked[0]["type"] == "prompt"
    assert asked[0]["handler"]["prompt"] == "Is this command safe?"
    assert json.loads(asked[0]["event"])["tool_name"] == "Bash", "the event text, as protocol.md §5.9 says"
    assert asked[0]["timeout_s"] == 5


def test_an_async_host_callback_and_a_failing_one() -> None:
    d = hookwire.Dispatcher({"hooks": {"Stop": [{"hooks": [{"type": "agent", "prompt": "done?", "timeout": 5}]}]}})

    async def agent(request: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(0.01)
        return {"ok": False, "reason": "tests still fail"}

    d.set_host_callback("agent", agent)
    r = d.fire({"hook_event_name": "Stop"})
    assert r["decision"] == "block", r
    assert r["reason"] == "tests still fail"

    def down(request: dict[str, Any]) -> dict[str, Any]:
        raise ConnectionError("model unavailable")

    d.set_host_callback("agent", down)
    r = d.fire({"hook_event_name": "Stop"})
    assert r["decision"] is None, r
    assert r["outcomes"][0]["status"] == "error"
    assert "model unavailable" in r["outcomes"][0]["error"]


def test_other_threads_run_while_a_function_hook_waits() -> None:
    """The fire releases the GIL and the hook thread holds it only inside the function: a
    function that waits for another Python thread finishes, and a counting thread keeps going."""
    d = hookwire.Dispatcher({})
    released = threading.Event()
    ticks = 0

    def waiting_hook(event: dict[str, Any]) -> str:
        return "" if released.wait(5) else "never released"

    def other_thread() -> None:
        nonlocal ticks
        deadline = time.perf_counter() + 0.3
        while time.perf_counter() < deadline:
            ticks += 1
        released.set()

    d.add_function_hook("PreToolUse", waiting_hook, timeout=10)
    t = threading.Thread(target=other_thread)
    start = time.perf_counter()
    t.start()
    r = d.fire(tool_event())
    t.join()
    assert r["outcomes"][0]["status"] == "ok", r
    assert r["outcomes"][0].get("stdout", "") in ("", None), r
    assert time.perf_counter() - start < 2
    assert ticks > 1000


def test_many_threads_fire_function_hooks_at_once() -> None:
    d = hookwire.Dispatcher({})
    d.add_function_hook("PreToolUse", lambda e: time.sleep(0.3) or guard(e))
    results: list[dict[str, Any]] = []

    def worker(i: int) -> None:
        results.append(d.fire(tool_event(session_id=f"s{i}", tool_input={"command": f"rm -rf /{i}"})))

    start = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert time.perf_counter() - start < 1.5
    assert [r["decision"] for r in results] == ["deny"] * 8
