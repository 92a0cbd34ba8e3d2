"""A fire that runs nothing is answered with the GIL held from a decoded copy of the engine's
prepared result: the same dict the full path gives, a new one every time, and never in the
way of an event's error."""

from __future__ import annotations

import copy
import threading
from typing import Any

import pytest
from conftest import one_hook

import hookwire
from hookwire import _native

# An unknown event name puts a warning in every result, so no-match results have a list item.
CONFIG = {"hooks": {"NoSuchEvent": [{"hooks": [{"type": "command", "command": "exit 0"}]}],
                    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 0"}]}]}}


def read_event() -> dict[str, Any]:
    return {"hook_event_name": "PreToolUse", "session_id": "nm", "tool_name": "Read",
            "tool_input": {"file_path": "/etc/hosts"}}


def full_path(d: hookwire.Dispatcher, event: Any) -> dict[str, Any]:
    """The result through the detached fire and json.loads: an active log sink sends every fire
    there."""
    _native.set_log_sink(lambda *a: None, 1)
    try:
        return d.fire(event)
    finally:
        _native.set_log_sink(None, 0)


def test_the_no_match_answer_is_the_full_paths_result() -> None:
    d = hookwire.Dispatcher(CONFIG)
    want = full_path(d, read_event())
    assert want["warnings"] and want["outcomes"] == []
    for event in (read_event(), hookwire_text(read_event()), hookwire_text(read_event()).encode()):
        for _ in range(3):  # the first decodes, the others are copies
            assert d.fire(event) == want


def hookwire_text(event: dict[str, Any]) -> str:
    import json
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def test_a_no_match_result_handed_out_twice_is_two_independent_values() -> None:
    d = hookwire.Dispatcher(CONFIG)
    first = d.fire(read_event())
    want = copy.deepcopy(first)
    first["warnings"][0] = "changed"
    first["warnings"].append("more")
    first["env"]["K"] = "v"
    first["extra"]["k"] = 1
    first["outcomes"].append({"hook": "x"})
    first["decision"] = "deny"
    second = d.fire(read_event())
    assert second == want
    second["warnings"].clear()
    assert first["warnings"] == ["changed", "more"]
    assert d.fire(read_event()) == want


def test_threads_mutating_their_no_match_results_never_see_each_others_changes() -> None:
    d = hookwire.Dispatcher(CONFIG)
    want = d.fire(read_event())
    bad: list[Any] = []

    def worker(n: int) -> None:
        for i in range(300):
            r = d.fire(read_event())
            if r != want:
                bad.append(r)
            r["warnings"].append(f"{n}-{i}")
            r["env"][str(n)] = str(i)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert bad == []


@pytest.mark.parametrize(("event", "kind"), [
    ({"hook_event_name": "PreToolUse", "tool_name": 5}, "invalid_event"),
    ('{"hook_event_name":"PreToolUse"', "invalid_json"),
    (b'{"hook_event_name":"PreToolUse","tool_name":"\xff"}', "invalid_utf8"),
    (["PreToolUse"], None),
    ('["PreToolUse"]', "invalid_event"),
    ({"tool_name": "Read"}, "invalid_event"),
])
def test_an_invalid_event_after_no_match_fires_still_gets_its_precise_error(event: Any, kind: str | None) -> None:
    d = hookwire.Dispatcher(CONFIG)
    d.fire(read_event())
    d.fire(read_event())
    if kind is None:
        with pytest.raises(TypeError):
            d.fire(event)
        return
    with pytest.raises(hookwire.EventError) as info:
        d.fire(event)
    assert info.value.kind == kind


def test_a_cancelled_token_still_gets_the_no_match_result() -> None:
    d = hookwire.Dispatcher(CONFIG)
    token = hookwire.CancelToken()
    token.cancel()
    assert d.fire(read_event(), cancel=token) == d.fire(read_event())


def test_a_fire_that_runs_a_hook_is_not_answered_from_the_no_match_results() -> None:
    d = hookwire.Dispatcher(one_hook("echo ran"))
    for _ in range(2):
        r = d.fire({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {}})
        assert [o["stdout"] for o in r["outcomes"]] == ["ran\n"]
