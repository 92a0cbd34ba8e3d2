#!/usr/bin/env bash
# Reliability checks (issue 11, docs/reliability.md), run from anywhere: the C ABI misuse test
# under helgrind (thread errors; .ci/c.sh runs it under memcheck for leaks), then the Rust
# stress and property tests in release mode with their figures printed. The binding-side
# hostile, stress and trust tests run with each language's own suite (.ci/python.sh,
# .ci/node.sh, .ci/go.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
OUT=$(mktemp -d "${TMPDIR:-/tmp}/hookwire-reliability.XXXXXX")
trap 'rm -rf "$OUT"' EXIT

# shellcheck source=lib.sh
source "$ROOT/.ci/lib.sh"
need gcc gcc
need valgrind valgrind

step "cargo build --release -p hookwire-ffi"
cargo build --release -p hookwire-ffi

step "compile tests/c/misuse_test.c (gcc -std=c11 -Wall -Wextra -Werror -pthread, static)"
gcc -std=c11 -Wall -Wextra -Werror -O1 -g -pthread -I"$ROOT/include" tests/c/misuse_test.c \
    -o "$OUT/misuse_test" "$TARGET/release/libhookwire.a" -lpthread -ldl -lm

# Every suppression in tests/c/helgrind.supp is explained there (Rust's futex-based
# std::sync::Mutex is invisible to helgrind); anything else it reports fails the run.
# helgrind runs the tests about the C threading contract (process hooks fired from 8 threads,
# a dispatcher freed on another thread, trust). The tests of function hooks, host callbacks
# and cancellation are left to memcheck (.ci/c.sh): they make the engine start, detach and
# join std threads, whose Arc counts and futex waits are atomics helgrind cannot order, so
# every such run reports hundreds of false races in std's thread bookkeeping.
THREAD_CONTRACT_TESTS=(version null success bad_ not_an_event shell_hook exec_form non_matching
    eight_threads dispatcher_is_freed trust recorded)
step "helgrind: misuse_test (8 threads on one dispatcher, a dispatcher freed on another thread)"
rc=0
valgrind --tool=helgrind --error-exitcode=1 --suppressions=tests/c/helgrind.supp \
    --log-file="$OUT/helgrind.log" "$OUT/misuse_test" "${THREAD_CONTRACT_TESTS[@]}" >"$OUT/misuse.out" || rc=$?
tail -n 1 "$OUT/misuse.out"
sed -n 's/^==[0-9]*== \(ERROR SUMMARY.*\)/helgrind misuse_test: \1/p' "$OUT/helgrind.log"
if [ "$rc" != 0 ] || ! grep -q "ERROR SUMMARY: 0 errors" "$OUT/helgrind.log"; then
    cat "$OUT/misuse.out" "$OUT/helgrind.log" >&2
    exit 1
fi

step "rust: stress (16 threads x 500 fires, 2000 sequential) and property tests, release"
rc=0
cargo test --release -p hookwire-core --test stress --test properties -- --nocapture >"$OUT/rust.log" 2>&1 || rc=$?
grep -E '^(stress:|test |test result)' "$OUT/rust.log" || true
if [ "$rc" != 0 ]; then
    cat "$OUT/rust.log" >&2
    exit 1
fi

echo
echo "reliability: all checks passed"
