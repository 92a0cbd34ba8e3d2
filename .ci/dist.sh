#!/usr/bin/env bash
# The artifacts of `bash dist/build`, installed where a user installs them (issue 17): a fresh
# project outside the repository for each language, installing only from target/dist, with no
# cargo or rustc on PATH and no package registry (pip --no-index, npm --offline, GOPROXY=off),
# each running README's install commands and quick start exactly as printed (extracted with
# .ci/readme-snippet). Then, with cargo, from outside the repository too: README's Rust quick
# start as a new crate, the Python sdist (what pip does where no wheel matches), and the two
# from-source routes `npm install /path/to/bindings-node`, `pip install /path/to/bindings-python`.
# Run `bash dist/build` first; run from anywhere.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
DIST=${HOOKWIRE_DIST:-$ROOT/target/dist}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}

# shellcheck source=lib.sh
source "$ROOT/.ci/lib.sh"
need gcc gcc
need pkg-config pkg-config

# shellcheck source=user-project.sh
source "$ROOT/.ci/user-project.sh"
user_projects offline # WORK, USER_ENV: no cargo or rustc on PATH, no registry
version=$(python3 dist/versions --artifacts "$DIST")
# README's own quick starts stay in README (a newcomer runs them from there), each marked once
# in README and docs/ together; the steps below run each of them.
snippets=$(python3 .ci/readme-snippet --list)
for s in rust-install rust python-install python node-install node go-install go c-install c shell; do
    grep -qx "$s README.md" <<<"$snippets" || { echo "dist: snippet $s is not in README.md" >&2; exit 1; }
done
echo "dist: every artifact in $DIST carries version $version"

expect_deny() { # expect_deny FILE COUNT: the quick start printed "deny no rm -rf here" COUNT times
    local n
    n=$(grep -c '^deny no rm -rf here$' "$1" || true)
    [ "$n" = "$2" ] || { echo "expected $2 line(s) 'deny no rm -rf here' in $1, found $n" >&2; exit 1; }
}

python_wheel() {
    local p
    p=$(project python python quickstart.py)
    in_project "$p" python-install
    expect_deny "$p/out" 2
    "${USER_ENV[@]}" "$p/.venv/bin/python" -c 'import hookwire, sys; assert hookwire.__version__ == sys.argv[1], hookwire.__version__' "$version"
    # The wheel carries the library, stubs and py.typed, and no Rust toolchain was needed.
    "${USER_ENV[@]}" "$p/.venv/bin/python" -m pip show -f hookwire | grep -q 'hookwire/py.typed'
}

node_tarballs() {
    local p
    p=$(project node node index.js)
    in_project "$p" node-install
    expect_deny "$p/out" 1
    if grep -q EBADENGINE "$p/out"; then echo "npm warned EBADENGINE" >&2; exit 1; fi
    # The napi-rs layout: the addon came prebuilt in the platform package, nothing was built.
    test -f "$p/node_modules/hookwire-linux-x64-gnu/hookwire.linux-x64-gnu.node"
    ! ls "$p"/node_modules/hookwire/*.node 2>/dev/null
    (cd "$p" && "${USER_ENV[@]}" node --input-type=module -e "
        import { Dispatcher, version } from 'hookwire'
        if (version !== '$version') throw new Error('version ' + version)
        const r = await new Dispatcher({}).fire({ hook_event_name: 'Stop' })
        console.log('ESM import: ok,', r.event)")
}

go_module() {
    local p
    p=$(project go go main.go)
    in_project "$p" go-install
    expect_deny "$p/out" 1
    # Statically linked: the program needs no libhookwire.so at run time.
    (cd "$p" && "${USER_ENV[@]}" go build -o agent . && ! ldd agent | grep hookwire && ./agent | grep -q '^deny')
    # The library inside the module is this release's: Version() is the workspace version.
    mkdir -p "$p/cmd/version"
    printf '%s\n' 'package main' 'import ("fmt"; hookwire "github.com/hookwire/hookwire/bindings-go")' \
        'func main() { fmt.Println(hookwire.Version()) }' >"$p/cmd/version/main.go"
    [ "$(cd "$p" && "${USER_ENV[@]}" go run ./cmd/version)" = "$version" ]
}

c_prefix() {
    local p
    p=$(project c c quickstart.c)
    in_project "$p" c-install
    grep -q '"decision":"deny"' "$p/out"
    local prefix=$WORK/home/.local
    [ "$("${USER_ENV[@]}" pkg-config --with-path="$prefix/lib/pkgconfig" --modversion hookwire)" = "$version" ]
    grep -qx "prefix=$prefix" "$prefix/lib/pkgconfig/hookwire.pc"
    (cd "$p" && ldd quickstart | grep -q "$prefix/lib/libhookwire.so")
    # The same program linked statically, from the installed prefix.
    # shellcheck disable=SC2046
    (cd "$p" && "${USER_ENV[@]}" PKG_CONFIG_PATH="$prefix/lib/pkgconfig" sh -c \
        'cc -std=c11 -Wall -Wextra -Werror quickstart.c -o quickstart_static $(pkg-config --cflags hookwire) $(pkg-config --variable=staticlib hookwire) -lpthread -ldl -lm' &&
        ! ldd quickstart_static | grep -q hookwire && ./quickstart_static | grep -q '"decision":"deny"')
    # The tarball is relocatable: unpacked and moved, its hookwire.pc finds its own prefix.
    mv "$p/hookwire-$version-linux-x86_64" "$WORK/moved-tree"
    (cd "$p" && "${USER_ENV[@]}" PKG_CONFIG_PATH="$WORK/moved-tree/lib/pkgconfig" sh -c \
        'cc quickstart.c -o quickstart_moved $(pkg-config --cflags --libs hookwire)' &&
        ./quickstart_moved | grep -q '"decision":"deny"' && ldd quickstart_moved | grep -q "=> $WORK/moved-tree/.*libhookwire.so")
}

shell_cli() {
    local p rc=0
    p=$(project shell)
    in_project "$p" shell || rc=$?
    [ "$rc" = 2 ] || { echo "hookwire fire: expected exit 2 (deny), got $rc" >&2; exit 1; }
    grep -q '"decision": *"deny"' "$p/out"
    # Static enough: nothing but glibc's own libraries.
    ldd "$DIST/bin/hookwire" | grep -v -E 'linux-vdso|libc\.so|libm\.so|libgcc_s\.so|ld-linux|libpthread|libdl' && exit 1
    # `hookwire VERSION (Claude Code X.Y.Z)`: the Claude Code behaviour the catalogue matches.
    case "$("${USER_ENV[@]}" "$DIST/bin/hookwire" --version)" in
        "hookwire $version (Claude Code "*")") ;;
        *) echo "hookwire --version does not say hookwire $version (Claude Code ...)" >&2; exit 1 ;;
    esac
}

# From source, outside the repository, with the developer's cargo (and the shared target dir).
rust_crate() {
    local p
    p=$(project rust rust main.rs)
    mkdir -p "$p/src" && mv "$p/main.rs" "$p/src/main.rs"
    # The repository's lockfile, so the crate versions (and the compiled ones in the shared
    # target dir) are those CI already built; `cargo add` keeps them.
    cp Cargo.lock "$p/Cargo.lock"
    in_project "$p" rust-install --dev
    grep -q '"decision":"deny"' "$p/out"
}

node_from_source() {
    local p
    p=$(project node-src node index.js)
    (cd "$p" && npm init -y >/dev/null &&
        npm install --no-audit --no-fund --foreground-scripts "$ROOT/bindings-node" >"$p/install.log" 2>&1) ||
        { cat "$p/install.log" >&2; exit 1; }
    grep -E '^hookwire:|Finished' "$p/install.log" || true
    if grep -q EBADENGINE "$p/install.log"; then grep -A4 EBADENGINE "$p/install.log" >&2; exit 1; fi
    (cd "$p" && node index.js) | tee "$p/out"
    expect_deny "$p/out" 1
}

python_from_source() { # python_from_source NAME SPEC: pip builds SPEC with cargo in a fresh venv
    local p
    p=$(project "$1" python quickstart.py)
    python3 -m venv "$p/.venv"
    "$p/.venv/bin/python" -m pip install --quiet --disable-pip-version-check "$2"
    (cd "$p" && .venv/bin/python quickstart.py) | tee "$p/out"
    expect_deny "$p/out" 2
}

step "python: the wheel into a fresh venv (no cargo, no index)"
timed python_wheel
step "node: the two npm tarballs into an npm init -y project (no cargo, offline)"
timed node_tarballs
step "go: a module that replaces bindings-go with target/dist/go (no cargo, no proxy)"
timed go_module
step "c: the tarball installed under a prefix, a C program built with pkg-config (no cargo)"
timed c_prefix
step "shell: bin/hookwire on PATH (no cargo)"
timed shell_cli
step "rust: hookwire-core as a path dependency of a new crate (README's Rust quick start)"
timed rust_crate
step "node from source: npm install /path/to/bindings-node from a project outside the repository"
timed node_from_source
step "python sdist: pip install target/dist/python/hookwire-V.tar.gz (builds with cargo, as on a platform without a wheel)"
timed python_from_source python-sdist "$DIST/python/hookwire-$version.tar.gz"
step "python from source: pip install /path/to/bindings-python into a venv outside the repository"
timed python_from_source python-src "$ROOT/bindings-python"

echo
echo "dist: every artifact installed and ran its quick start outside the repository"
