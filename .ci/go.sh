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
GOTOOLCHAIN=local go test -count=1 ./...
