"""The shared conformance corpus (tests/vectors/*.json) run through the Python binding.

Implements the format and matching rules of tests/README.md exactly: one test per vector file,
substitution of ${HOOKS} and ${TMP}, host_env, fires with sleep_ms, and the expect keys.
Adding a vector needs no code here.

Concurrency: the vectors that may run at the same time run on a pool of
HOOKWIRE_VECTOR_WORKERS threads (default 4; the binding releases the GIL during a fire) when the
first of them is reached; each one's test then reports what its run gave, exactly as if it had
run there. The serial vectors (tests/README.md: `"serial": true`, or `host_env`, which is
process-wide) run in their own tests, one at a time, never during the pool. With
HOOKWIRE_VECTOR_WORKERS=1 every vector runs in its own test, in order.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import hookwire

REPO = Path(__file__).resolve().parents[2]
VECTORS = REPO / "tests" / "vectors"
HOOKS = REPO / "tests" / "hooks"
FILES = sorted(VECTORS.glob("*.json"))

RESULT_EXPECT_KEYS = {
    "result",
    "outcomes",
    "async_outcomes",
    "warnings",
    "max_ms",
    "min_ms",
    "files_absent",
    "files_present",
    "error",
    "config_error",
}


def test_the_corpus_is_not_empty() -> None:
    assert FILES, f"no conformance vectors found in {VECTORS}"


# --- substitution -------------------------------------------------------------------------


def substitute(value: Any, tokens: dict[str, str]) -> Any:
    """Replaces the tokens in every string value, recursively; keys are left alone."""
    if isinstance(value, str):
        for token, replacement in tokens.items():
            value = value.replace(token, replacement)
        return value
    if isinstance(value, list):
        return [substitute(v, tokens) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, tokens) for k, v in value.items()}
    return value


# --- matching -----------------------------------------------------------------------------


def is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_operator(expected: Any) -> bool:
    return isinstance(expected, dict) and len(expected) == 1 and next(iter(expected)).startswith("$")


def deep_equal(actual: Any, expected: Any) -> bool:
    """`$eq`: objects with the same keys, arrays of the same length, numbers as numbers."""
    if is_number(expected) or is_number(actual):
        return is_number(actual) and is_number(expected) and actual == expected
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and actual.keys() == expected.keys()
            and all(deep_equal(actual[k], expected[k]) for k in expected)
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(deep_equal(a, e) for a, e in zip(actual, expected))
        )
    return type(actual) is type(expected) and actual == expected


def mismatch(actual: Any, expected: Any, path: str = "") -> str | None:
    """None when `actual` matches `expected` by the rules of tests/README.md, else why not."""
    where = path or "(root)"
    if is_operator(expected):
        (op, arg), = expected.items()
        if op == "$eq":
            ok = deep_equal(actual, arg)
        elif op == "$contains":
            ok = isinstance(actual, str) and arg in actual
        elif op == "$not_contains":
            ok = isinstance(actual, str) and arg not in actual
        elif op == "$some_contains":
            ok = isinstance(actual, list) and any(isinstance(s, str) and arg in s for s in actual)
        elif op == "$none_contains":
            ok = isinstance(actual, list) and not any(isinstance(s, str) and arg in s for s in actual)
        elif op == "$lt":
            ok = is_number(actual) and actual < arg
        elif op == "$gt":
            ok = is_number(actual) and actual > arg
        elif op == "$len":
            ok = isinstance(actual, (list, str)) and len(actual) == arg
        elif op == "$any":
            ok = True
        else:
            return f"{where}: unknown operator {op}"
        return None if ok else f"{where}: {actual!r} does not satisfy {{{op!r}: {arg!r}}}"
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{where}: expected an object, got {actual!r}"
        for key, sub in expected.items():
            if key not in actual:
                return f"{where}: key {key!r} missing in {actual!r}"
            why = mismatch(actual[key], sub, f"{path}/{key}")
            if why:
                return why
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{where}: expected an array of {len(expected)}, got {actual!r}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            why = mismatch(a, e, f"{path}/{i}")
            if why:
                return why
        return None
    if is_number(expected) or is_number(actual):
        ok = is_number(actual) and is_number(expected) and actual == expected
    else:
        ok = type(actual) is type(expected) and actual == expected
    return None if ok else f"{where}: expected {expected!r}, got {actual!r}"


def check(actual: Any, expected: Any, what: str) -> None:
    why = mismatch(actual, expected)
    assert why is None, f"{what}: {why}"


def error_object(e: hookwire.HookwireError) -> dict[str, Any]:
    """The `error` object of the error JSON, rebuilt from the exception."""
    obj: dict[str, Any] = {"kind": e.kind, "message": str(e)}
    for key in ("line", "column", "pointer"):
        value = getattr(e, key)
        if value is not None:
            obj[key] = value
    return obj


# --- the runner ---------------------------------------------------------------------------


def check_result(result: dict[str, Any], expect: dict[str, Any], elapsed_ms: float, what: str) -> None:
    unknown = set(expect) - RESULT_EXPECT_KEYS
    assert not unknown, f"{what}: unknown expect keys {sorted(unknown)}"
    assert "error" not in expect, f"{what}: expected an error {expect['error']!r}, got a result {result!r}"
    assert "config_error" not in expect, f"{what}: expected a config error, got a result"
    if "result" in expect:
        check(result, expect["result"], f"{what} result")
    for key in ("outcomes", "async_outcomes"):
        if key in expect:
            assert key in result, f"{what}: result has no {key!r}: {result!r}"
            check(result[key], expect[key], f"{what} {key}")
    if "warnings" in expect:
        assert "warnings" in result, f"{what}: result has no 'warnings': {result!r}"
        check(result["warnings"], expect["warnings"], f"{what} warnings")
    if "max_ms" in expect:
        assert elapsed_ms < expect["max_ms"], f"{what}: took {elapsed_ms:.1f} ms, max {expect['max_ms']}"
    if "min_ms" in expect:
        assert elapsed_ms >= expect["min_ms"], f"{what}: took {elapsed_ms:.1f} ms, min {expect['min_ms']}"
    for path in expect.get("files_absent", []):
        assert not os.path.lexists(path), f"{what}: {path} exists"
    for path in expect.get("files_present", []):
        assert os.path.lexists(path), f"{what}: {path} is missing"


def event_argument(fire: dict[str, Any]) -> str:
    """The event as the fire gets it: `event_text` verbatim, or `event` serialised (after
    adding `pad_bytes` ASCII `x` characters as the field "padding")."""
    if "event_text" in fire:
        return fire["event_text"]
    event = fire["event"]
    if "pad_bytes" in fire:
        event = {**event, "padding": "x" * fire["pad_bytes"]}
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def run_vector(vector: dict[str, Any], name: str) -> None:
    if "fires" in vector:
        fires = vector["fires"]
    else:
        fires = [{k: vector[k] for k in ("event", "event_text", "expect", "pad_bytes") if k in vector}]

    try:
        dispatcher = hookwire.Dispatcher(json.dumps(vector["config"], ensure_ascii=False, separators=(",", ":")))
    except hookwire.HookwireError as e:
        refusal = next(
            (f["expect"] for f in fires if "config_error" in f.get("expect", {}) or "error" in f.get("expect", {})),
            None,
        )
        assert refusal is not None, f"{name}: the configuration was refused: {error_object(e)!r}"
        check(error_object(e), refusal.get("config_error", refusal.get("error")), f"{name} config error")
        return

    for i, fire in enumerate(fires):
        what = f"{name} fire {i}"
        expect = fire.get("expect", {})
        assert "config_error" not in expect, f"{what}: expected the configuration to be refused"
        if fire.get("sleep_ms"):
            time.sleep(fire["sleep_ms"] / 1000)
        if "event" not in fire and "event_text" not in fire:
            continue
        argument = event_argument(fire)
        start = time.perf_counter()
        try:
            result = dispatcher.fire(argument)
        except hookwire.HookwireError as e:
            assert "error" in expect, f"{what}: the fire failed: {error_object(e)!r}"
            check(error_object(e), expect["error"], f"{what} error")
            continue
        elapsed_ms = (time.perf_counter() - start) * 1000
        check_result(result, expect, elapsed_ms, what)


def vector_workers() -> int:
    text = os.environ.get("HOOKWIRE_VECTOR_WORKERS", "4")
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise pytest.UsageError(f"HOOKWIRE_VECTOR_WORKERS={text!r}: expected a whole number >= 1")
    return n


def is_serial(path: Path) -> bool:
    """`"serial": true` or `host_env`; a file that does not parse is not (its test says why)."""
    try:
        vector = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(vector, dict) and (vector.get("serial") is True or "host_env" in vector)


@pytest.fixture(scope="session")
def pooled_outcomes(request: pytest.FixtureRequest) -> dict[Path, BaseException | None]:
    """Runs every selected non-serial vector on the worker pool, once per session: for each,
    None (passed) or what it raised (an assertion, a skip), re-raised by its own test."""
    workers = vector_workers()
    if workers == 1:
        return {}
    paths = [
        item.callspec.params["path"]
        for item in request.session.items
        if getattr(item, "function", None) is test_vector and hasattr(item, "callspec")
    ]
    paths = [p for p in paths if not is_serial(p)]

    def attempt(path: Path) -> BaseException | None:
        try:
            execute_vector(path)
        except BaseException as e:  # noqa: BLE001: an assertion or pytest's skip, re-raised later
            return e
        return None

    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="vector") as pool:
        return dict(zip(paths, pool.map(attempt, paths)))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_vector(path: Path, pooled_outcomes: dict[Path, BaseException | None]) -> None:
    if path in pooled_outcomes:
        outcome = pooled_outcomes[path]
        if outcome is not None:
            raise outcome
        return
    execute_vector(path)


def execute_vector(path: Path) -> None:
    vector = json.loads(path.read_text(encoding="utf-8"))
    if "python" in vector.get("skip", []):
        pytest.skip(vector.get("skip_reason", "skipped for python"))
    tmp = tempfile.mkdtemp(prefix=f"hookwire-{path.stem}-")
    tokens = {"${HOOKS}": str(HOOKS), "${TMP}": tmp}
    for key in ("config", "event", "event_text", "host_env", "expect"):
        if key in vector:
            vector[key] = substitute(vector[key], tokens)
    if "fires" in vector:
        vector["fires"] = [
            {k: substitute(v, tokens) if k in ("event", "event_text", "expect") else v for k, v in f.items()}
            for f in vector["fires"]
        ]
    host_env: dict[str, str] = vector.get("host_env", {})
    saved = {k: os.environ.get(k) for k in host_env}
    os.environ.update(host_env)
    try:
        run_vector(vector, path.name)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(tmp, ignore_errors=True)
