"""Every error path of the binding: kinds, classes, attributes, and what is never an error."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from conftest import one_hook, tool_event

import hookwire


def test_the_exception_classes_form_one_tree_under_exception() -> None:
    assert issubclass(hookwire.HookwireError, Exception)
    assert issubclass(hookwire.ConfigError, hookwire.HookwireError)
    assert issubclass(hookwire.EventError, hookwire.HookwireError)
    assert not issubclass(hookwire.ConfigError, hookwire.EventError)
    for cls in (hookwire.HookwireError, hookwire.ConfigError, hookwire.EventError):
        assert cls.__module__ == "hookwire"


def test_an_exception_built_by_hand_answers_every_attribute_with_none() -> None:
    e = hookwire.ConfigError("made by hand")
    assert str(e) == "made by hand"
    assert (e.kind, e.line, e.column, e.pointer) == (None, None, None, None)


# --- configuration ------------------------------------------------------------------------


def test_config_that_is_not_json_names_line_and_column() -> None:
    with pytest.raises(hookwire.ConfigError) as info:
        hookwire.Dispatcher('{\n  "hooks": {\n    "PreToolUse": [,]\n  }\n}')
    e = info.value
    assert e.kind == "invalid_json"
    assert e.line == 3
    assert e.column == 20
    assert e.pointer is None
    assert "line 3" in str(e)


def test_config_bytes_that_are_not_json_raise_config_error() -> None:
    with pytest.raises(hookwire.ConfigError) as info:
        hookwire.Dispatcher(b"{oops")
    assert info.value.kind == "invalid_json"
    assert (info.value.line, info.value.column) == (1, 2)


def test_config_that_is_not_an_object_is_invalid_config() -> None:
    with pytest.raises(hookwire.ConfigError) as info:
        hookwire.Dispatcher("[]")
    assert info.value.kind == "invalid_config"
    assert info.value.line is None and info.value.column is None


def test_config_with_a_wrong_type_names_its_pointer() -> None:
    config = one_hook("true")
    config["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] = "ten"
    with pytest.raises(hookwire.ConfigError) as info:
        hookwire.Dispatcher(config)
    assert info.value.kind == "invalid_config"
    assert info.value.pointer == "/hooks/PreToolUse/0/hooks/0/timeout"
    assert info.value.line is None


def test_config_bytes_that_are_not_utf8_raise_config_error() -> None:
    with pytest.raises(hookwire.ConfigError) as info:
        hookwire.Dispatcher(b'{"hooks": {"\xff": []}}')
    assert info.value.kind == "invalid_utf8"


def test_config_str_with_a_lone_surrogate_is_invalid_utf8() -> None:
    with pytest.raises(hookwire.ConfigError) as info:
        hookwire.Dispatcher('{"env": {"A": "\udc80"}}')
    assert info.value.kind == "invalid_utf8"


@pytest.mark.parametrize(
    "value",
    [{1, 2}, math.nan, math.inf, object(), b"bytes"],
    ids=["set", "nan", "inf", "object", "bytes"],
)
def test_a_config_dict_json_cannot_represent_is_config_error(value: Any) -> None:
    with pytest.raises(hookwire.ConfigError) as info:
        hookwire.Dispatcher({"hooks": {}, "x": value})
    assert info.value.kind == "invalid_config"


def test_a_cyclic_config_dict_is_config_error() -> None:
    config: dict[str, Any] = {"hooks": {}}
    config["self"] = config
    with pytest.raises(hookwire.ConfigError) as info:
        hookwire.Dispatcher(config)
    assert info.value.kind == "invalid_config"


@pytest.mark.parametrize("value", [None, 1, 1.5, [], ["{}"], bytearray(b"{}"), Path("/")])
def test_a_config_that_is_not_dict_str_or_bytes_is_type_error(value: Any) -> None:
    with pytest.raises(TypeError):
        hookwire.Dispatcher(value)


def test_from_file_reads_a_json_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"hooks": {}}')
    d = hookwire.Dispatcher.from_file(path)
    assert isinstance(d, hookwire.Dispatcher)
    assert hasattr(d, "fire_async")
    assert hookwire.Dispatcher.from_file(str(path)).fire(tool_event())["outcomes"] == []


def test_from_file_io_failures_are_oserror(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    with pytest.raises(FileNotFoundError) as info:
        hookwire.Dispatcher.from_file(missing)
    assert info.value.filename == str(missing)
    # Python's own words, once: no Rust "(os error 2)" after its "[Errno 2]".
    assert str(info.value) == f"[Errno 2] No such file or directory: '{missing}'"
    with pytest.raises(IsADirectoryError):
        hookwire.Dispatcher.from_file(tmp_path)
    assert not issubclass(FileNotFoundError, hookwire.HookwireError)


def test_from_file_with_bad_content_is_config_error(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(b'{"hooks":\n  nope}')
    with pytest.raises(hookwire.ConfigError) as info:
        hookwire.Dispatcher.from_file(path)
    assert info.value.kind == "invalid_json"
    assert info.value.line == 2


# --- events -------------------------------------------------------------------------------


@pytest.fixture
def d() -> hookwire.Dispatcher:
    return hookwire.Dispatcher({})


def test_event_that_is_not_json_names_line_and_column(d: hookwire.Dispatcher) -> None:
    with pytest.raises(hookwire.EventError) as info:
        d.fire('{"hook_event_name": "Stop",\n "x": tru}')
    e = info.value
    assert e.kind == "invalid_json"
    assert e.line == 2
    assert isinstance(e.column, int) and 7 <= e.column <= 10  # where `tru}` goes wrong
    assert e.pointer is None


def test_event_bytes_that_are_not_utf8_raise_event_error(d: hookwire.Dispatcher) -> None:
    with pytest.raises(hookwire.EventError) as info:
        d.fire(b'{"hook_event_name": "Stop", "x": "\xc3\x28"}')
    assert info.value.kind == "invalid_utf8"


def test_event_bytes_that_are_not_utf8_raise_the_same_error_with_a_cancel_token(
    d: hookwire.Dispatcher,
) -> None:
    bad = b'{"hook_event_name": "Stop", "x": "\xc3\x28"}'
    with pytest.raises(hookwire.EventError) as plain:
        d.fire(bad)
    with pytest.raises(hookwire.EventError) as cancellable:
        d.fire(bad, cancel=hookwire.CancelToken())
    assert cancellable.value.kind == "invalid_utf8"
    assert str(cancellable.value) == str(plain.value)


def test_event_str_with_a_lone_surrogate_is_invalid_utf8(d: hookwire.Dispatcher) -> None:
    with pytest.raises(hookwire.EventError) as info:
        d.fire({"hook_event_name": "Stop", "x": "\ud800"})
    assert info.value.kind == "invalid_utf8"


@pytest.mark.parametrize("event", ["[]", "42", '{"tool_name": "Bash"}', '{"hook_event_name": 3}'])
def test_json_that_is_not_an_event_is_invalid_event(d: hookwire.Dispatcher, event: str) -> None:
    with pytest.raises(hookwire.EventError) as info:
        d.fire(event)
    assert info.value.kind == "invalid_event"
    assert info.value.line is None and info.value.column is None


def test_event_with_a_wrong_field_type_names_its_pointer(d: hookwire.Dispatcher) -> None:
    with pytest.raises(hookwire.EventError) as info:
        d.fire(tool_event(session_id=5))
    assert info.value.kind == "invalid_event"
    assert info.value.pointer == "/session_id"


def test_an_event_dict_json_cannot_represent_is_event_error(d: hookwire.Dispatcher) -> None:
    for bad in ({1, 2}, math.nan, object()):
        with pytest.raises(hookwire.EventError) as info:
            d.fire(tool_event(extra=bad))
        assert info.value.kind == "invalid_event"


@pytest.mark.parametrize("value", [None, 1, [], bytearray(b"{}")])
def test_an_event_that_is_not_dict_str_or_bytes_is_type_error(d: hookwire.Dispatcher, value: Any) -> None:
    with pytest.raises(TypeError):
        d.fire(value)


def test_a_failing_hook_is_an_outcome_not_an_exception() -> None:
    d = hookwire.Dispatcher(one_hook("echo boom >&2; exit 1"))
    r = d.fire(tool_event())
    assert len(r["outcomes"]) == 1, r
    assert r["outcomes"][0]["exit_code"] == 1


# --- panics -------------------------------------------------------------------------------


def test_a_panic_in_the_core_is_a_hookwire_error_of_kind_panic(
    d: hookwire.Dispatcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOOKWIRE_TEST_PANIC", "1")
    try:
        d.fire({"hook_event_name": "__hookwire_test_panic__"})
    except Exception as e:  # noqa: BLE001 - the point: `except Exception` catches it
        caught: Exception = e
    else:
        pytest.fail("the test panic did not fire")
    assert type(caught) is hookwire.HookwireError
    assert not isinstance(caught, (hookwire.ConfigError, hookwire.EventError))
    assert caught.kind == "panic"  # type: ignore[attr-defined]
    # The core's words, the same in every language.
    assert str(caught).startswith("hookwire panicked: ")
    # The dispatcher survives its panic.
    monkeypatch.delenv("HOOKWIRE_TEST_PANIC")
    assert d.fire({"hook_event_name": "Stop"})["event"] == "Stop"


def test_a_panic_under_fire_async_is_a_hookwire_error(
    d: hookwire.Dispatcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    monkeypatch.setenv("HOOKWIRE_TEST_PANIC", "1")
    with pytest.raises(hookwire.HookwireError) as info:
        asyncio.run(d.fire_async('{"hook_event_name": "__hookwire_test_panic__"}'))
    assert info.value.kind == "panic"
