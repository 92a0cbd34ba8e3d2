"""`hookwire.host_step(result)`: the binding hands a result to the core's host step and back as
a dict (the rules themselves are pinned in core/src/host_step/tests.rs). It takes what `fire`
returned, or its JSON text, and refuses what is not a result with `EventError`."""

from __future__ import annotations

import json

import pytest

import hookwire

from conftest import one_hook, tool_event


def test_a_fired_deny_becomes_a_denied_tool_with_the_hooks_reason() -> None:
    result = hookwire.Dispatcher(one_hook("echo 'not here' >&2; exit 2")).fire(tool_event())
    step = hookwire.host_step(result)
    assert (step["action"], step["message"], step["stop"]) == ("deny_tool", "not here", False)


def test_json_text_and_bytes_give_the_same_step_as_the_dict() -> None:
    result = {"event": "Stop", "decision": "block", "reason": "tests fail", "continue": True}
    step = hookwire.host_step(result)
    assert step == hookwire.host_step(json.dumps(result)) == hookwire.host_step(json.dumps(result).encode())
    assert (step["action"], step["message"]) == ("continue_turn", "Stop hook feedback:\ntests fail")


def test_something_that_is_not_a_result_raises_event_error() -> None:
    with pytest.raises(hookwire.EventError) as e:
        hookwire.host_step({"decision": "deny"})
    assert e.value.kind == "invalid_event"
    with pytest.raises(hookwire.EventError):
        hookwire.host_step(b"\xff")
    with pytest.raises(TypeError):
        hookwire.host_step(42)  # type: ignore[arg-type]


def test_approved_marks_a_run_tool_a_hook_allowed() -> None:
    allow = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'
    step = hookwire.host_step(hookwire.Dispatcher(one_hook(f"echo '{allow}'")).fire(tool_event()))
    assert (step["action"], step["approved"]) == ("run_tool", True)
    step = hookwire.host_step(hookwire.Dispatcher(one_hook("exit 0")).fire(tool_event()))
    assert (step["action"], step["approved"]) == ("run_tool", False)
    assert list(step)[-1] == "approved"


def test_the_stop_continuation_bound_is_the_cores() -> None:
    assert hookwire.MAX_STOP_CONTINUATIONS == 16
    assert isinstance(hookwire.MAX_STOP_CONTINUATIONS, int)


def test_host_step_for_refuses_a_replacement_output_of_another_kind_than_the_tools() -> None:
    result = {"event": "PostToolUse", "updated_tool_output": {"lines": 3}}
    assert hookwire.host_step_for(result, '{"lines": 9}')["tool_output"] == {"lines": 3}
    assert hookwire.host_step_for(result, '"nine lines"')["tool_output"] is None
    assert hookwire.host_step(result)["tool_output"] == {"lines": 3}
    with pytest.raises(hookwire.EventError):
        hookwire.host_step_for(result, "{")
