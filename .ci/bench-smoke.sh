#!/usr/bin/env bash
# Benchmark smoke run (issue 10): every benchmark program is built and run with a few
# iterations so the suite cannot rot. Fails if one fails to build or run; asserts no timing.
# The full run is `bash benches/run` (see BENCHMARKS.md). Run from anywhere.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash benches/run --quick >/dev/null
for f in summary.json summary.svg; do
    test -s "${CARGO_TARGET_DIR:-target}/bench/$f" || { echo "bench-smoke: $f was not written" >&2; exit 1; }
done
echo "bench-smoke: every benchmark built and ran"
