#!/usr/bin/env bash
# The C, Go, Python and Node suites a second time, on the portable runner (issue 36: "CI runs
# every suite twice on Linux"). The libraries are debug builds with each crate's
# `portable-runner` feature (one cargo invocation, no LTO: the first run of every suite stays on
# the dist builds), loaded the way each binding allows without installing anything:
#
#   C       the test programs of tests/c linked against the portable libhookwire.a, run
#           without valgrind (the first run has it), and examples through tests/c/example.c
#   Go      the module in place, built with an overlay (go test -overlay) of hookwire.go whose
#           cgo line links the portable libhookwire.a instead of prebuilt/
#   Python  the package's Python sources and the portable `_native` extension first on
#           PYTHONPATH, in the venv .ci/python.sh made (pytest, the adapters' frameworks)
#   Node    NAPI_RS_NATIVE_LIBRARY_PATH, which the generated index.js loads instead of the
#           platform addon (and fails on, rather than falling back, when it cannot)
#
# Every run sets HOOKWIRE_EXPECT_BACKEND=portable: each suite's backend test
# (parent-pidfds.sh from a hook: the host holds no pidfd) fails if the library is the Linux one.
# Which tests run: each suite's runner-facing tests (hostile hooks, cancellation, threads,
# clean start and SIGCHLD for C) and the conformance corpus in the languages named by
# HOOKWIRE_PORTABLE_CORPUS (default `go`; `go python node` for all three). The rest (schemas,
# encoders, adapters, typings) runs no hook in a way the first run does not, and the corpus is
# the same 559 vectors the Rust portable step already runs: one binding's run of it proves the
# binding-to-runner path; each further one costs 80-90 s here. Measured on 2 shared cores at a
# load average of about 2.7: build 11 s (cargo reuses core built by the Rust portable step:
# core's Cargo.toml pins the features that made each member compile its own; 136 s before,
# at a load of 8), C 22 s, Go 109 s with the corpus (22 s without), Python 7 s, Node 7 s (86 s
# with its corpus): about 2.5 minutes in all.
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
corpus=" ${HOOKWIRE_PORTABLE_CORPUS:-go} "
has_corpus() { [[ $corpus == *" $1 "* ]]; }
[ ${#parts[@]} -gt 0 ] || parts=(c go python node)
say() { printf '\n== portable-bindings: %s\n' "$*"; }
t0=$(date +%s)
took() { echo "portable-bindings: $1 took $(($(date +%s) - t0))s"; t0=$(date +%s); }

say "cargo build (debug) -p hookwire-ffi -p hookwire-python -p hookwire-node, feature portable-runner"
cargo build -p hookwire-ffi -p hookwire-python -p hookwire-node \
    --features hookwire-ffi/portable-runner,hookwire-python/portable-runner,hookwire-node/portable-runner
# Copied at once: a later build without the feature writes the same names in target/debug.
cp "$TARGET/debug/libhookwire.a" "$TARGET/debug/lib_native.so" "$TARGET/debug/libhookwire_node.so" "$OUT/"
took build

part_c() {
    say "C: tests/c against the portable libhookwire.a"
    local cflags=(-std=c11 -Wall -Wextra -Werror -O1 -g -I"$ROOT/include") lib=("$OUT/libhookwire.a" -lpthread -ldl -lm)
    gcc "${cflags[@]}" tests/c/example.c -o "$OUT/example" "${lib[@]}"
    gcc "${cflags[@]}" -pthread tests/c/misuse_test.c -o "$OUT/misuse_test" "${lib[@]}"
    gcc "${cflags[@]}" tests/c/sigchld_test.c -o "$OUT/sigchld_test" "${lib[@]}"
    gcc "${cflags[@]}" tests/c/clean_start_test.c -o "$OUT/clean_start_test" "${lib[@]}"
    gcc "${cflags[@]}" -pthread tests/c/log_test.c -o "$OUT/log_test" "${lib[@]}"
    "$OUT/misuse_test"
    "$OUT/log_test"
    "$OUT/sigchld_test" 60
    "$OUT/clean_start_test"
    bash .ci/c-backend.sh "$OUT/example"
    took C
}

part_go() {
    say "Go: the module's runner-facing tests linked against the portable libhookwire.a"
    # An overlay of hookwire.go whose linux/amd64 cgo line names the portable archive: the
    # module stays where it is (its tests read ../tests by path, and one vector compares it).
    sed -e "s|\${SRCDIR}/prebuilt/linux_amd64/libhookwire.a|$OUT/libhookwire.a|" \
        -e "s|\${SRCDIR}/prebuilt/include|$ROOT/include|" bindings-go/hookwire.go >"$OUT/hookwire.go"
    grep -q "$OUT/libhookwire.a" "$OUT/hookwire.go"
    printf '{"Replace":{"%s":"%s"}}' "$ROOT/bindings-go/hookwire.go" "$OUT/hookwire.go" >"$OUT/overlay.json"
    local vectors=""
    if has_corpus go; then vectors="|TestVectors"; fi
    (cd bindings-go &&
        GOTOOLCHAIN=local go test -count=1 -overlay "$OUT/overlay.json" -parallel "${HOOKWIRE_VECTOR_WORKERS:-4}" \
            -run "^(TestHooksRunOnTheBackendTheBuildNames|TestHostile.*|TestCancel.*|TestSixtyFourGoroutines.*|TestDeadline.*$vectors)\$" .)
    took Go
}

part_python() {
    say "Python: the runner-facing tests with the portable _native first on PYTHONPATH"
    local venv=$TARGET/ci-venv
    if ! "$venv/bin/python" -c 'import pytest' 2>/dev/null; then
        python3 -m venv "$venv"
        "$venv/bin/python" -m pip install --quiet "pytest>=9,<10"
    fi
    mkdir -p "$OUT/py"
    cp -r bindings-python/python/hookwire "$OUT/py/"
    cp "$OUT/lib_native.so" "$OUT/py/hookwire/_native.abi3.so"
    PYTHONPATH="$OUT/py" "$venv/bin/python" -c 'import hookwire, sys; sys.exit(not hookwire.__file__.startswith(sys.argv[1]))' "$OUT/py" ||
        { echo "portable-bindings: python imported hookwire from elsewhere" >&2; exit 1; }
    local tests=(bindings-python/tests/test_{backend,hostile,cancel,threads}.py)
    if has_corpus python; then tests+=(bindings-python/tests/test_vectors.py); fi
    PYTHONPATH="$OUT/py" "$venv/bin/python" -u -m pytest -q -p no:cacheprovider -ra "${tests[@]}"
    took Python
}

part_node() {
    say "Node: the runner-facing tests with NAPI_RS_NATIVE_LIBRARY_PATH at the portable addon"
    cp "$OUT/libhookwire_node.so" "$OUT/hookwire.node"
    local tests=(bindings-node/test/{backend,hostile,abort,threads}.test.mjs)
    if has_corpus node; then tests+=(bindings-node/test/vectors.test.mjs); fi
    NAPI_RS_NATIVE_LIBRARY_PATH="$OUT/hookwire.node" node --test --test-concurrency=1 "${tests[@]}"
    took Node
}

for part in "${parts[@]}"; do
    case "$part" in
        c | go | python | node) "part_$part" ;;
        *) echo "usage: bash .ci/portable-bindings.sh [c] [go] [python] [node]" >&2; exit 2 ;;
    esac
done
