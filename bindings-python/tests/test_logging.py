"""Logs in Python's ``logging`` (issue 16, docs/logging.md): records on the ``hookwire.*``
loggers at the mapped level, fields as record attributes, off by default, nothing above TRACE
that a hook printed, and no fire failed or blocked by a logger."""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Iterator

import pytest

import hookwire
from hookwire import _native

DENY = {"hooks": {"PreToolUse": [
    {"matcher": "Write", "hooks": [{"type": "command", "command": "exit 0"}]},
    {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo s3cret >&2; exit 2"}]},
]}}
BASH = {"hook_event_name": "PreToolUse", "cwd": "/", "tool_name": "Bash", "tool_input": {"command": "ls"}}


@pytest.fixture
def logs_off_after() -> Iterator[None]:
    """Every test leaves logging off, as the process starts."""
    yield
    hookwire.disable_logging()


def hookwire_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith("hookwire.")]


def of_event(records: list[logging.LogRecord], event: str) -> list[logging.LogRecord]:
    return [r for r in records if r.hookwire_fields["event"] == event]


def test_a_fire_logs_to_the_hookwire_loggers_with_fields_as_attributes(
    caplog: pytest.LogCaptureFixture, logs_off_after: None
) -> None:
    caplog.set_level(logging.DEBUG, logger="hookwire")
    hookwire.enable_logging(logging.DEBUG)
    result = hookwire.Dispatcher(DENY).fire(BASH)
    assert result["decision"] == "deny"
    records = hookwire_records(caplog)
    events = [r.event for r in records]  # type: ignore[attr-defined]
    for event in ("load.done", "fire.start", "hook.skipped", "hook.selected", "hook.spawned",
                  "hook.exited", "hook.verdict", "fire.fold", "fire.done"):
        assert event in events, events

    skipped = of_event(records, "hook.skipped")[0]
    assert skipped.name == "hookwire.hook"
    assert skipped.levelno == logging.DEBUG
    assert skipped.skip_reason == "matcher"  # type: ignore[attr-defined]
    spawned = of_event(records, "hook.spawned")[0]
    assert spawned.pid > 0  # type: ignore[attr-defined]
    assert spawned.hook_id == spawned.hookwire_fields["hook_id"]  # type: ignore[attr-defined]
    verdict = of_event(records, "hook.verdict")[0]
    assert (verdict.status, verdict.decision, verdict.exit_code) == ("ok", "deny", 2)  # type: ignore[attr-defined]
    done = of_event(records, "fire.done")[0]
    assert done.name == "hookwire.fire"
    assert done.levelno == logging.INFO
    assert done.getMessage().startswith("fire PreToolUse: 1 hook(s) ran")
    fire_ids = {r.hookwire_fields["fire_id"] for r in records if "fire_id" in r.hookwire_fields}
    assert len(fire_ids) == 1 and fire_ids.pop() > 0
    assert "s3cret" not in caplog.text


def test_the_level_maps_both_ways_and_trace_shows_hook_output(
    caplog: pytest.LogCaptureFixture, logs_off_after: None
) -> None:
    caplog.set_level(hookwire.TRACE, logger="hookwire")
    d = hookwire.Dispatcher(DENY)
    hookwire.enable_logging("INFO")
    d.fire(BASH)
    assert [r.event for r in hookwire_records(caplog)] == ["fire.done"]  # type: ignore[attr-defined]
    caplog.clear()
    hookwire.enable_logging(hookwire.TRACE)
    d.fire(BASH)
    output = of_event(hookwire_records(caplog), "hook.output")[0]
    assert output.levelno == hookwire.TRACE
    assert output.stderr == "s3cret\n"  # type: ignore[attr-defined]


def test_none_takes_the_hookwire_loggers_level_and_the_loggers_own_level_still_filters(
    caplog: pytest.LogCaptureFixture, logs_off_after: None
) -> None:
    caplog.set_level(logging.WARNING, logger="hookwire")
    hookwire.enable_logging()
    d = hookwire.Dispatcher({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "exit 1"}]}]}})
    d.fire({"hook_event_name": "Stop", "cwd": "/"})
    records = hookwire_records(caplog)
    assert [(r.event, r.levelno, r.status) for r in records] == [  # type: ignore[attr-defined]
        ("hook.verdict", logging.WARNING, "error")
    ]


def test_logging_is_off_until_enabled_and_after_disabled(
    caplog: pytest.LogCaptureFixture, logs_off_after: None
) -> None:
    caplog.set_level(hookwire.TRACE, logger="hookwire")
    d = hookwire.Dispatcher(DENY)
    d.fire(BASH)
    hookwire.enable_logging(logging.DEBUG)
    hookwire.disable_logging()
    d.fire(BASH)
    assert hookwire_records(caplog) == []


def test_a_failing_handler_goes_to_unraisablehook_and_never_to_the_fire(
    monkeypatch: pytest.MonkeyPatch, logs_off_after: None
) -> None:
    seen: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: seen.append(u.exc_value))

    def broken(level: int, target: str, message: str, fields: dict[str, object]) -> None:
        raise RuntimeError("the logger is broken")

    _native.set_log_sink(broken, 4)
    assert hookwire.Dispatcher(DENY).fire(BASH)["decision"] == "deny"
    hookwire.disable_logging()
    assert seen and all(isinstance(e, RuntimeError) for e in seen)


def test_the_native_sink_refuses_bad_levels_and_non_callables() -> None:
    with pytest.raises(ValueError):
        _native.set_log_sink(print, 6)
    with pytest.raises(TypeError):
        _native.set_log_sink(42, 4)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        hookwire.enable_logging("LOUD")


def test_the_sink_cannot_reregister_itself(logs_off_after: None) -> None:
    errors: list[BaseException] = []

    def sink(level: int, target: str, message: str, fields: dict[str, object]) -> None:
        if fields["event"] == "fire.done":
            try:
                hookwire.disable_logging()
            except hookwire.HookwireError as e:
                errors.append(e)

    _native.set_log_sink(sink, 3)
    hookwire.Dispatcher(DENY).fire(BASH)
    assert len(errors) == 1 and errors[0].kind == "internal"  # type: ignore[attr-defined]


def test_toggling_logging_while_threads_fire_never_deadlocks(logs_off_after: None) -> None:
    handler_calls = []
    logger = logging.getLogger("hookwire")
    handler = logging.Handler()
    handler.emit = lambda record: handler_calls.append(record.levelno)  # type: ignore[method-assign]
    logger.addHandler(handler)
    old_level = logger.level
    logger.setLevel(logging.DEBUG)
    d = hookwire.Dispatcher(DENY)
    stop = time.monotonic() + 1.5
    fired = []

    def fire_until_stop() -> None:
        while time.monotonic() < stop:
            fired.append(d.fire(BASH)["decision"])

    threads = [threading.Thread(target=fire_until_stop) for _ in range(4)]
    try:
        for t in threads:
            t.start()
        while time.monotonic() < stop:
            hookwire.enable_logging(logging.DEBUG)
            time.sleep(0.01)
            hookwire.disable_logging()
        for t in threads:
            t.join(timeout=20)
            assert not t.is_alive(), "a fire hung"
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
    assert fired and set(fired) == {"deny"}
    assert handler_calls
