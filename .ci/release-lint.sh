#!/usr/bin/env bash
# The release workflow checked here, where it cannot run (issue 36): actionlint (with shellcheck
# on every `run:` block) over .github/workflows/, and `dist/versions`' consistency of the release
# matrix with the packages; then each consistency rule is shown to bite, on a copy of the files
# it reads with one fact changed. actionlint is built once from the Go module proxy into
# target/tools (about a minute, once; cached after); shellcheck comes from Debian when missing.
# Run from anywhere; 21 s measured on a machine at load 14, most of it six Python starts.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
ACTIONLINT_VERSION=v1.7.12

# shellcheck source=lib.sh
source .ci/lib.sh
need shellcheck shellcheck
tools=$ROOT/target/tools
if [ "$("$tools/actionlint" -version 2>/dev/null | head -1)" != "$ACTIONLINT_VERSION" ]; then
    GOBIN=$tools GOFLAGS=-mod=mod GOTOOLCHAIN=local timeout 300 \
        go install "github.com/rhysd/actionlint/cmd/actionlint@$ACTIONLINT_VERSION"
fi
"$tools/actionlint" -shellcheck "$(command -v shellcheck)" .github/workflows/*.yml
echo "actionlint $ACTIONLINT_VERSION: .github/workflows/*.yml clean (shellcheck $(shellcheck --version | sed -n 's/^version: //p'))"
python3 dist/versions >/dev/null

# bites NAME PYTHON: in a copy of the files dist/versions reads, PYTHON (run there) changes one
# fact; dist/versions must then fail, naming it.
work=$(mktemp -d "${TMPDIR:-/tmp}/hookwire-release-lint.XXXXXX")
trap 'rm -rf "$work"' EXIT
bites() {
    local copy=$work/$1
    mkdir -p "$copy"
    tar -C "$ROOT" -cf - Cargo.toml CHANGELOG.md dist .github bindings-node/package.json \
        bindings-python/pyproject.toml bindings-go/go.mod bindings-go/hookwire.go ffi/hookwire.pc \
        $(sed -n 's/^members *= *\[\(.*\)\]/\1/p' Cargo.toml | tr -d '",' | sed 's|[^ ]*|&/Cargo.toml|g') |
        tar -C "$copy" -xf -
    (cd "$copy" && python3 -c "$2")
    if out=$(python3 "$copy/dist/versions" 2>&1); then
        echo "release-lint: dist/versions passed although $1" >&2; exit 1
    fi
    echo "dist/versions catches: $1 ($(printf '%s\n' "$out" | sed -n 2p | sed 's/^ *//'))"
}
edit='import json, pathlib, re, sys
def json_edit(path, fn):
    p = pathlib.Path(path); d = json.loads(p.read_text()); fn(d); p.write_text(json.dumps(d))
def text_edit(path, old, new):
    p = pathlib.Path(path); t = p.read_text(); assert old in t, old; p.write_text(t.replace(old, new, 1))
'
bites "a napi target the matrix does not publish" "$edit
json_edit('bindings-node/package.json', lambda d: d['napi']['targets'].append('aarch64-apple-darwin'))"
bites "a Go row without its cgo line" "$edit
text_edit('bindings-go/hookwire.go', '#cgo darwin,arm64,!hookwire_dynamic', '#cgo darwin,arm64,!hookwire_nothing')"
bites "a row built on a runner of another platform" "$edit
json_edit('dist/release-matrix.json', lambda d: d['c'][2].update(runner='macos-15'))"
bites "a maturin pin outside pyproject's range" "$edit
json_edit('dist/release-matrix.json', lambda d: d['tools'].update(maturin='2.0.0'))"
bites "an action pinned to a moving tag" "$edit
text_edit('.github/workflows/ci.yml', 'actions/setup-go@v5.5.0', 'actions/setup-go@v5')"
echo "release-lint: the workflow lints clean and agrees with the packages"
