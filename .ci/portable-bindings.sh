#!/usr/bin/env bash
# The C, Go, Python and Node suites a second time, on the portable runner (issue 36: "CI runs
# every suite twice on Linux"): each whole suite, the conformance corpus in each. The libraries
# are debug builds with each crate's `portable-runner` feature (one cargo invocation, no LTO:
# the first run of every suite stays on the dist builds), loaded the way each binding allows
# without installing anything:
#
#   C       `cargo test -p hookwire-ffi` with the feature (the ABI's Rust tests), then
#           .ci/c.sh with HOOKWIRE_C_LIB at the portable libhookwire.a and .so: every program of
#           tests/c built and run as the first run does, under valgrind, and the pkg-config link
#   Go      `go test` of the module and of its eino adapter module in place, built with an
#           overlay (go test -overlay) of hookwire.go whose cgo line links the portable
#           libhookwire.a instead of prebuilt/ (the eino module reaches it through its
#           `replace => ../`)
#   Python  bindings-python/tests, adapters included, with the package's Python sources and the
#           portable `_native` extension first on PYTHONPATH, in the venv .ci/python.sh made
#           (pytest, the wheel, the adapters' frameworks)
#   Node    every test file .ci/node.sh runs, with NAPI_RS_NATIVE_LIBRARY_PATH at the portable
#           addon, which the generated index.js loads instead of the platform addon (and fails
#           on, rather than falling back, when it cannot); child processes inherit it
#
# Every run sets HOOKWIRE_EXPECT_BACKEND=portable: each suite's backend test
# (parent-pidfds.sh from a hook: the host holds no pidfd) fails if the library is the Linux one.
# Left to the first run, as they load no library or run no hook: `go vet` (static), the Go
# snippets installed from target/dist (.ci/go.sh's tail), `npm install` and the committed
# index.js/index.d.ts drift check (.ci/node.sh's head). One test reads something the portable
# copy does not carry: test_stubs.py's version check reads the installed wheel's metadata
# (importlib.metadata: the copy on PYTHONPATH has no dist-info), which is the same version.
# Run from anywhere after .ci/python.sh and .ci/node.sh (their venv and node_modules):
# `bash .ci/portable-bindings.sh [c] [go] [python] [node]`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export HOOKWIRE_EXPECT_BACKEND=portable
ROOT=$PWD TARGET=${CARGO_TARGET_DIR:-$PWD/target}
# Scratch under the target directory: the libraries are copied there, and the Go overlay names them.
OUT=$(mktemp -d "$TARGET/portable-bindings.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(c go python node)
say() { printf '\n== portable-bindings: %s\n' "$*"; }
t0=$(date +%s)
took() { echo "portable-bindings: $1 took $(($(date +%s) - t0))s"; t0=$(date +%s); }

say "cargo build (debug) -p hookwire-ffi -p hookwire-python -p hookwire-node, feature portable-runner"
cargo build -p hookwire-ffi -p hookwire-python -p hookwire-node \
    --features hookwire-ffi/portable-runner,hookwire-python/portable-runner,hookwire-node/portable-runner
# Copied at once: a later build without the feature writes the same names in target/debug.
cp "$TARGET/debug/libhookwire.a" "$TARGET/debug/libhookwire.so" "$TARGET/debug/lib_native.so" "$TARGET/debug/libhookwire_node.so" "$OUT/"
took build

part_c() {
    say "C: cargo test -p hookwire-ffi (portable-runner), then .ci/c.sh against the portable library"
    cargo test -p hookwire-ffi --features portable-runner --no-fail-fast
    HOOKWIRE_C_LIB=$OUT bash .ci/c.sh
    took C
}

part_go() {
    say "Go: the module's and the eino adapter's tests linked against the portable libhookwire.a"
    # An overlay of hookwire.go whose linux/amd64 cgo line names the portable archive: the
    # module stays where it is (its tests read ../tests by path, and one vector compares it).
    sed -e "s|\${SRCDIR}/prebuilt/linux_amd64/libhookwire.a|$OUT/libhookwire.a|" \
        -e "s|\${SRCDIR}/prebuilt/include|$ROOT/include|" bindings-go/hookwire.go >"$OUT/hookwire.go"
    grep -q "$OUT/libhookwire.a" "$OUT/hookwire.go"
    printf '{"Replace":{"%s":"%s"}}' "$ROOT/bindings-go/hookwire.go" "$OUT/hookwire.go" >"$OUT/overlay.json"
    # In GOFLAGS, not as a flag: the eino module's README snippet test runs a `go test` of its own.
    export GOFLAGS="-overlay=$OUT/overlay.json" GOTOOLCHAIN=local
    (cd bindings-go && go test -count=1 -parallel "${HOOKWIRE_VECTOR_WORKERS:-4}" ./...)
    (cd bindings-go/eino && go test -count=1 ./...)
    unset GOFLAGS
    took Go
}

part_python() {
    say "Python: the suite with the portable _native first on PYTHONPATH"
    local venv=$TARGET/ci-venv
    "$venv/bin/python" -c 'import pytest, langchain, agents, pydantic_ai' 2>/dev/null ||
        { echo "portable-bindings: run .ci/python.sh first: its venv ($venv) has pytest and the adapters' frameworks" >&2; exit 1; }
    mkdir -p "$OUT/py"
    cp -r bindings-python/python/hookwire "$OUT/py/"
    cp "$OUT/lib_native.so" "$OUT/py/hookwire/_native.abi3.so"
    PYTHONPATH="$OUT/py" "$venv/bin/python" -c 'import hookwire, sys; sys.exit(not hookwire.__file__.startswith(sys.argv[1]))' "$OUT/py" ||
        { echo "portable-bindings: python imported hookwire from elsewhere" >&2; exit 1; }
    PYTHONPATH="$OUT/py" "$venv/bin/python" -u -m pytest -q -p no:cacheprovider -ra --durations=15 bindings-python/tests
    took Python
}

part_node() {
    say "Node: the suite with NAPI_RS_NATIVE_LIBRARY_PATH at the portable addon"
    cp "$OUT/libhookwire_node.so" "$OUT/hookwire.node"
    NAPI_RS_NATIVE_LIBRARY_PATH="$OUT/hookwire.node" node --test --test-concurrency=1 \
        bindings-node/test/*.test.mjs bindings-node/test/*.test.cjs bindings-node/test/adapters/*.test.mjs
    took Node
}

for part in "${parts[@]}"; do
    case "$part" in
        c | go | python | node) "part_$part" ;;
        *) echo "usage: bash .ci/portable-bindings.sh [c] [go] [python] [node]" >&2; exit 2 ;;
    esac
done
