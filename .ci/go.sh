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
# count every 25, so the corpus is never silent; failures and logs print in full. The vectors
# run HOOKWIRE_VECTOR_WORKERS at a time (t.Parallel, bounded by -parallel; no other test of the
# package is parallel), the serial ones alone first.
GOTOOLCHAIN=local go test -count=1 -v -parallel "${HOOKWIRE_VECTOR_WORKERS:-4}" ./... 2>&1 | awk '
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
# model and python3 command hooks, and run docs/frameworks.md's go-adapter-eino snippet.
cd eino
GOTOOLCHAIN=local go vet ./...
GOTOOLCHAIN=local go test -count=1 ./...

# The adapter as a user installs it, from the artifacts of `bash dist/build go` (target/dist/go
# and its eino/): README's go-install and docs/frameworks.md's go-adapter-install commands, as printed, in a new
# project outside the repository, which then builds docs/frameworks.md's go-adapter-eino snippet. hookwire
# comes from target/dist only: go-install runs offline (GOPROXY=off). eino and its dependencies
# come from the registry, as for a user: `go mod tidy` wants modules (tests of dependencies,
# checksums) that the tests above never fetched, so an offline step passed only on a machine
# whose module cache an earlier session had warmed.
cd ../..
root=$PWD
[ -d target/dist/go/eino ] || bash dist/build go
user=$(mktemp -d "${TMPDIR:-/tmp}/hookwire-eino-user.XXXXXX")
trap 'rm -rf "$user"' EXIT
python3 .ci/readme-snippet go >"$user/main.go"
mkdir "$user/agent"
python3 .ci/readme-snippet go-adapter-eino >"$user/agent/agent.go"
for snippet in go-install go-adapter-install; do
    echo "\$ (snippet $snippet)"
    proxy=$(go env GOPROXY)
    [ "$snippet" = go-install ] && proxy=off
    (cd "$user" && DIST="$root/target/dist" GOPROXY="$proxy" GOFLAGS=-mod=mod GOTOOLCHAIN=local \
        bash -eo pipefail -c "$(python3 "$root/.ci/readme-snippet" "$snippet")")
done
# docs/frameworks.md says the user's module gets the sonic version the adapter's module requires (eino's
# own one does not build with Go 1.26): go mod tidy wrote it into the user's go.mod.
sonic=$(awk '$1 == "github.com/bytedance/sonic" { print $2 }' bindings-go/eino/go.mod)
got=$(cd "$user" && GOFLAGS=-mod=mod GOTOOLCHAIN=local go list -m -f '{{.Version}}' github.com/bytedance/sonic)
[ -n "$sonic" ] && [ "$got" = "$sonic" ] ||
    { echo "go: the user's module has sonic $got, the adapter's module requires ${sonic:-none}" >&2; exit 1; }
grep -q "github.com/bytedance/sonic $sonic" "$user/go.mod"
grep -q "sonic $sonic" docs/frameworks.md ||
    { echo "go: docs/frameworks.md does not name sonic $sonic, the version bindings-go/eino/go.mod requires" >&2; exit 1; }
echo "go: the eino adapter installed from target/dist/go/eino and the documented snippet built (sonic $got)"
