"""Project trust (protocol.md §2.8) through the binding: `Dispatcher.trust_status()` lists what
needs trust, `hookwire.record_trust(config)` records it, a new dispatcher then runs the project
hooks, and any edit of the file untrusts it again."""

from __future__ import annotations

import inspect
import json
import stat
from pathlib import Path
from typing import Any

import pytest

import hookwire

SETTINGS = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo ran"}]}]}}
STOP = {"hook_event_name": "Stop", "cwd": "/"}


def project(tmp_path: Path) -> dict[str, Any]:
    """A project with one Stop hook in .claude/settings.json, and a configuration naming it."""
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps(SETTINGS), encoding="utf-8")
    return {
        "project_dir": str(tmp_path),
        "trust": {"store": str(tmp_path / "trust.json")},
        "sources": [{"scope": "project", "path": ".claude/settings.json"}],
    }


def stop_outcomes(config: dict[str, Any]) -> int:
    return len(hookwire.Dispatcher(config).fire(STOP)["outcomes"])


def test_recorded_project_hooks_run_and_an_edit_untrusts_them(tmp_path: Path) -> None:
    config = project(tmp_path)

    before = hookwire.Dispatcher(config)
    assert before.fire(STOP)["outcomes"] == []
    status = before.trust_status()
    assert set(status) >= {"store", "default_store", "project_dir", "sources"}
    assert status["store"] == str(tmp_path / "trust.json")
    [source] = status["sources"]
    assert source["trusted"] is False
    assert source["scope"] == "project"
    assert source["key"] == ".claude/settings.json"
    assert source["digest"].startswith("sha256:")
    assert isinstance(source["why"], str) and source["why"]

    after = hookwire.record_trust(config)
    assert after["sources"][0]["trusted"] is True
    assert after["sources"][0]["digest"] == source["digest"]
    assert stat.S_IMODE((tmp_path / "trust.json").stat().st_mode) == 0o600
    fresh = hookwire.Dispatcher(config)
    assert fresh.trust_status()["sources"][0]["trusted"] is True
    [outcome] = fresh.fire(STOP)["outcomes"]
    assert outcome["stdout"] == "ran\n"

    (tmp_path / ".claude" / "settings.json").write_text(json.dumps(SETTINGS).replace("ran", "edited"))
    edited = hookwire.Dispatcher(config)
    assert edited.fire(STOP)["outcomes"] == []
    assert edited.trust_status()["sources"][0]["trusted"] is False


@pytest.mark.parametrize("as_text", [json.dumps, lambda c: json.dumps(c).encode()], ids=["str", "bytes"])
def test_record_trust_takes_json_text_like_the_constructor(tmp_path: Path, as_text: Any) -> None:
    config = project(tmp_path)
    assert hookwire.record_trust(as_text(config))["sources"][0]["trusted"] is True
    assert stop_outcomes(config) == 1


def test_a_configuration_without_project_sources_has_nothing_to_trust() -> None:
    status = hookwire.Dispatcher({"hooks": {}}).trust_status()
    assert status["sources"] == []
    assert status["project_dir"] is None


def test_recording_trust_needs_a_project_dir(tmp_path: Path) -> None:
    config = {"sources": [{"scope": "project", "settings": {}}], "trust": {"store": str(tmp_path / "t.json")}}
    with pytest.raises(hookwire.ConfigError) as info:
        hookwire.record_trust(config)
    assert info.value.kind == "invalid_config"
    assert info.value.pointer == "/project_dir"
    assert not (tmp_path / "t.json").exists()


def test_record_trust_raises_like_the_constructor() -> None:
    with pytest.raises(hookwire.ConfigError) as info:
        hookwire.record_trust("{\n ,}")
    assert (info.value.kind, info.value.line) == ("invalid_json", 2)
    with pytest.raises(hookwire.ConfigError) as info:
        hookwire.record_trust(b'{"x": "\xff"}')
    assert info.value.kind == "invalid_utf8"
    with pytest.raises(hookwire.ConfigError) as info:
        hookwire.record_trust({"x": {1, 2}})
    assert info.value.kind == "invalid_config"
    with pytest.raises(TypeError):
        hookwire.record_trust(42)  # type: ignore[arg-type]


def test_a_store_that_cannot_be_written_is_an_internal_error(tmp_path: Path) -> None:
    config = project(tmp_path)
    (tmp_path / "blocker").write_text("a file, not a directory")
    config["trust"]["store"] = str(tmp_path / "blocker" / "trust.json")
    with pytest.raises(hookwire.HookwireError) as info:
        hookwire.record_trust(config)
    assert type(info.value) is hookwire.HookwireError
    assert info.value.kind == "internal"


def test_record_trust_is_exported_with_the_stubbed_signature() -> None:
    assert "record_trust" in hookwire.__all__
    assert hookwire.record_trust is hookwire._native.record_trust
    assert list(inspect.signature(hookwire.record_trust).parameters) == ["config"]
    assert list(inspect.signature(hookwire.Dispatcher.trust_status).parameters) == ["self"]


def test_claude_code_defaults_layer_the_user_project_and_local_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    user = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo user"}]}]}}
    (home / ".claude" / "settings.json").write_text(json.dumps(user), encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    proj = tmp_path / "proj"
    (proj / ".claude").mkdir(parents=True)
    (proj / ".claude" / "settings.json").write_text(json.dumps(SETTINGS), encoding="utf-8")

    envelope = hookwire.claude_code_defaults(proj / ".")
    assert envelope["project_dir"] == str(proj.resolve())
    assert [s["scope"] for s in envelope["sources"]] == ["user", "project", "local"]
    assert envelope["trust"] == {"store": str(tmp_path / "xdg" / "hookwire" / "trust.json"), "project": "store"}

    d = hookwire.Dispatcher.from_claude_code_defaults(str(proj))
    assert isinstance(d, hookwire.Dispatcher)
    assert len(d.fire(STOP)["outcomes"]) == 1, "the user hook runs, the untrusted project hook does not"
    hookwire.record_trust(envelope)
    assert len(hookwire.Dispatcher.from_claude_code_defaults(proj).fire(STOP)["outcomes"]) == 2


def test_claude_code_defaults_of_a_missing_directory_raise_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        hookwire.claude_code_defaults(tmp_path / "missing")
    with pytest.raises(FileNotFoundError):
        hookwire.Dispatcher.from_claude_code_defaults(tmp_path / "missing")
