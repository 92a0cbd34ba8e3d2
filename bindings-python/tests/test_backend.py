"""Which runner backend the loaded extension starts hooks with, observed from a hook: under
HOOKWIRE_EXPECT_BACKEND=linux the host holds a pidfd for the running hook, under =portable
(an extension built with the `portable-runner` feature) none. CI sets it in both runs of the
suite; without it the test is skipped (docs/reliability.md, "Runner backends")."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import hookwire

SCRIPT = Path(__file__).resolve().parents[2] / "tests" / "hooks" / "parent-pidfds.sh"


def test_hooks_run_on_the_backend_the_build_names() -> None:
    expect = os.environ.get("HOOKWIRE_EXPECT_BACKEND")
    if expect is None:
        pytest.skip("HOOKWIRE_EXPECT_BACKEND is not set (CI sets linux or portable)")
    assert expect in ("linux", "portable"), expect
    handler = {"type": "command", "command": "/bin/sh", "args": [str(SCRIPT)], "timeout": 10}
    d = hookwire.Dispatcher({"hooks": {"Stop": [{"hooks": [handler]}]}})
    r = d.fire({"hook_event_name": "Stop", "session_id": "py-backend", "cwd": "/"})
    assert r["outcomes"][0]["status"] == "ok", r
    pidfds = int(r["outcomes"][0]["stdout"].strip())
    if expect == "linux":
        assert pidfds >= 1, f"the Linux backend watches the hook through a pidfd: {r}"
    else:
        assert pidfds == 0, f"the portable backend opens no pidfd, the host holds {pidfds}"
