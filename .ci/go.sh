#!/usr/bin/env bash
# Go binding checks: build the static library the module links, then vet and test it.
# Run from the repository root. -count=1 because Go does not hash libraries named in LDFLAGS,
# so a rebuilt libhookwire.a would otherwise leave stale "(cached)" results (style.md rule 20).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release -p hookwire-ffi
bash dist/go-prebuilt # bindings-go/prebuilt/{include,linux_amd64}: where the cgo lines look
cd bindings-go
GOTOOLCHAIN=local go vet ./...
# -v, condensed: every test as it ends, and the conformance vectors (one subtest each) as a
# count every 25, so the ~100 s corpus is never silent; failures and logs print in full.
GOTOOLCHAIN=local go test -count=1 -v ./... 2>&1 | awk '
    /^=== (RUN|PAUSE|CONT|NAME)/ { next }
    /^    --- (PASS|SKIP): TestVectors\// {
        n++
        if (n % 25 == 0) { printf "go: %d vectors passed (last: %s)\n", n, $3; fflush() }
        next
    }
    { print; fflush() }
    END { if (n) printf "go: %d vectors passed or skipped\n", n }'

# The eino adapter: its own module (eino pinned in bindings-go/eino/go.mod), so the hookwire
# module never depends on eino. Its tests drive a real eino ChatModelAgent with a scripted
# model and python3 command hooks, and run README's go-adapter-eino snippet.
cd eino
GOTOOLCHAIN=local go vet ./...
GOTOOLCHAIN=local go test -count=1 ./...
