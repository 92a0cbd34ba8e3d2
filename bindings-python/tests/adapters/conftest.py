"""The `project` fixture of the adapter tests (see hookproject.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from .hookproject import HookProject, make_project


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HookProject:
    return make_project(tmp_path, monkeypatch)
