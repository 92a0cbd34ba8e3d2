"""Hooks see the host environment as it is at the moment of the fire, and run in the event's cwd."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import one_hook, tool_event

import hookwire


def test_an_environment_change_before_a_fire_reaches_the_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    d = hookwire.Dispatcher(one_hook('printf %s "$HOOKWIRE_PY_MARKER"'))
    monkeypatch.setenv("HOOKWIRE_PY_MARKER", "first")
    r = d.fire(tool_event())
    assert len(r["outcomes"]) == 1, r
    assert r["outcomes"][0]["stdout"] == "first"
    # Changed after the dispatcher was built: the next fire sees the new value.
    monkeypatch.setenv("HOOKWIRE_PY_MARKER", "second")
    assert d.fire(tool_event())["outcomes"][0]["stdout"] == "second"
    monkeypatch.delenv("HOOKWIRE_PY_MARKER")
    assert d.fire(tool_event())["outcomes"][0]["stdout"] == ""


def test_the_hook_runs_in_the_events_cwd(tmp_path: Path) -> None:
    before = os.getcwd()
    d = hookwire.Dispatcher(one_hook("pwd -P"))
    r = d.fire(tool_event(cwd=str(tmp_path)))
    assert len(r["outcomes"]) == 1, r
    assert r["outcomes"][0]["stdout"].strip() == os.path.realpath(tmp_path)
    assert os.getcwd() == before, "hookwire changed the host's working directory"


def test_without_a_cwd_the_hook_runs_in_the_hosts_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    d = hookwire.Dispatcher(one_hook("pwd -P"))
    r = d.fire(tool_event())
    assert len(r["outcomes"]) == 1, r
    assert r["outcomes"][0]["stdout"].strip() == os.path.realpath(tmp_path)
