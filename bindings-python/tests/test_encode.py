"""A dict argument becomes exactly the JSON text the binding's encoder writes,
`json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"))`: hooks see those
bytes on stdin, whether the native fast path wrote them or the encoder did."""

from __future__ import annotations

import enum
import json
import math
from collections import OrderedDict
from typing import Any

import pytest
from conftest import one_hook, tool_event

import hookwire

ENCODE = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode


class Color(enum.IntEnum):
    RED = 1


class Text(str):
    pass


def deep(n: int) -> Any:
    v: Any = "bottom"
    for _ in range(n):
        v = {"d": [v]}
    return v


STRINGS = ["", "plain", "a && b <c> 'q'", 'quote " backslash \\ slash /', "line\nfeed\rreturn\ttab",
           "\b\f\x00\x01\x1f\x7f", "é ü 日本 🎉", "\u2028 and \u2029", "x" * 5000]

VALUES: list[Any] = [
    *STRINGS, *[{s: s} for s in STRINGS],
    None, True, False, 0, -7, 2**63 - 1, -(2**63), 2**63, 10**40, Color.RED,
    0.0, -0.0, 0.1, 1.5, 3.0, 1e-7, 1e16, 1e300, 5e-324,
    [], {}, (), [1, "two", None, [3.5, {"k": False}]], ("tuple", 1), {"z": 1, "a": 2, "é": 3, "": 4},
    OrderedDict([("b", 1), ("a", 2)]), Text("sub"), {Text("k"): 1}, {1: "int key", 2.5: "float", True: "t", None: "n"},
    deep(30), deep(40),  # 60 and 80 levels: the native limit is 64, the engine's 128
]


@pytest.fixture(scope="module")
def echo() -> hookwire.Dispatcher:
    return hookwire.Dispatcher(one_hook("cat"))


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_a_hook_reads_the_encoders_bytes_for_every_kind_of_value(echo: hookwire.Dispatcher, value: Any) -> None:
    event = tool_event(value=value)
    r = echo.fire(event)
    assert r["outcomes"][0]["stdout"] == ENCODE(event)


def test_a_configuration_dict_is_encoded_the_same_way() -> None:
    config = one_hook("cat")
    config["note"] = {"é": "\u2028\x01", "n": 1.5}
    assert hookwire.Dispatcher(config).fire(tool_event())["warnings"] == \
        hookwire.Dispatcher(ENCODE(config)).fire(tool_event())["warnings"]


def test_values_json_cannot_represent_still_raise_event_error(echo: hookwire.Dispatcher) -> None:
    cycle: dict[str, Any] = {}
    cycle["self"] = cycle
    for value, kind in [(math.nan, "invalid_event"), (math.inf, "invalid_event"), ({1, 2}, "invalid_event"),
                        (cycle, "invalid_event"), (object(), "invalid_event"), ({(1, 2): 1}, "invalid_event"),
                        ("\ud800", "invalid_utf8")]:
        with pytest.raises(hookwire.EventError) as info:
            echo.fire(tool_event(value=value))
        assert info.value.kind == kind, value


def test_deep_nesting_fails_as_the_encoder_fails(echo: hookwire.Dispatcher) -> None:
    with pytest.raises(RecursionError):
        ENCODE(deep(100_000))
    with pytest.raises((hookwire.EventError, RecursionError)):
        echo.fire(tool_event(value=deep(100_000)))
