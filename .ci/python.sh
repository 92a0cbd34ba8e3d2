#!/usr/bin/env bash
# Python binding: build and install the wheel (or install $HOOKWIRE_WHEEL) into a fresh venv,
# then run its pytest suite.
# Run from the repository root. Needs python3 (>= 3.11) with venv, cargo, and PyPI for
# maturin (a prebuilt wheel) and pytest. A run that collects no test fails (pytest exit 5).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

PYTHON="${PYTHON:-python3}"
VENV="target/ci-venv"

"$PYTHON" - <<'PY'
import sys
if sys.version_info < (3, 11):
    sys.exit(f"hookwire needs Python >= 3.11, found {sys.version.split()[0]}")
PY

rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
# HOOKWIRE_WHEEL: test a wheel dist/build made (what .ci/run does, so nothing is built twice);
# without it the package is built from source, as `pip install ./bindings-python` does.
"$VENV/bin/python" -m pip install --quiet "${HOOKWIRE_WHEEL:-./bindings-python}" "pytest>=9,<10"
# The framework adapters' tests run against pinned framework releases, installed here only
# (never a dependency of the package).
"$VENV/bin/python" -m pip install --quiet -r bindings-python/tests/adapters/requirements.txt

# pytest exits 5 when it collects nothing; that is a failure here like any other non-zero code.
# -u: pytest's progress dots (one per test, one test per conformance vector) reach the log as
# they happen instead of when a pipe's buffer fills. --durations: the slowest tests, so that the
# log says where the time goes.
"$VENV/bin/python" -u -m pytest bindings-python/tests -ra --durations=15 "$@"
