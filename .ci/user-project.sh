# A user's projects outside the repository, for the scripts that install target/dist as a user
# does (dist.sh, adapters-install.sh); sourced, never run. Needs ROOT (the checkout) and DIST.
#
#   user_projects offline|registries   WORK (a fresh folder outside the repository, removed on
#                                      exit) and USER_ENV (the user's environment, `env ...`):
#                                      PATH without cargo or rustc, no Cargo variables, a HOME
#                                      of its own; offline: no package registry either (pip
#                                      --no-index, npm --offline, GOPROXY=off)
#   project NAME [SNIPPET FILE]        a fresh folder $WORK/NAME, the snippet SNIPPET in FILE
#   in_project DIR SNIPPET [--dev]     runs the shell snippet SNIPPET in DIR as the user
#   timed FUNCTION [NAME ...]          runs it and prints how long it took

user_projects() {
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/hookwire-${0##*/}.XXXXXX")
    trap 'rm -rf "$WORK"' EXIT
    case "$WORK/" in "$ROOT"/*) echo "${0##*/}: $WORK is inside the repository" >&2; exit 1 ;; esac

    # The tools a user has (python3, node, npm, go, cc, pkg-config) are linked in from a folder
    # that also holds cargo or rustc, and such a folder is left off PATH.
    local shims=$WORK/shims user_path d t dirs
    mkdir -p "$shims" "$WORK/home"
    user_path=$shims
    IFS=: read -ra dirs <<<"$PATH"
    for d in "${dirs[@]}"; do
        [ -n "$d" ] && [ -d "$d" ] || continue
        if [ -e "$d/cargo" ] || [ -e "$d/rustc" ]; then
            for t in python3 node npm go gcc cc pkg-config tar; do
                if [ -x "$d/$t" ] && [ ! -e "$shims/$t" ]; then ln -s "$d/$t" "$shims/$t"; fi
            done
        else
            user_path+=:$d
        fi
    done
    USER_ENV=(env -u CARGO_TARGET_DIR -u CARGO_HOME -u RUSTUP_HOME -u RUSTUP_TOOLCHAIN -u RUSTFLAGS
        PATH="$user_path" HOME="$WORK/home" DIST="$DIST" PIP_DISABLE_PIP_VERSION_CHECK=1
        npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
        GOTOOLCHAIN=local GOFLAGS=-mod=mod GOCACHE="$(go env GOCACHE)" GOMODCACHE="$(go env GOMODCACHE)")
    case $1 in
        offline) USER_ENV+=(PIP_NO_INDEX=1 npm_config_offline=true GOPROXY=off) ;;
        registries) ;;
        *) echo "user_projects: offline or registries, not $1" >&2; exit 1 ;;
    esac
    if "${USER_ENV[@]}" sh -c 'command -v cargo || command -v rustc'; then
        echo "${0##*/}: cargo or rustc is still on the user's PATH" >&2
        exit 1
    fi
}

# With --dev: as a developer, cargo on PATH, HOOKWIRE the checkout. The output goes to DIR/out.
in_project() {
    local dir=$1 snippet=$2 rc=0 code run=("${USER_ENV[@]}")
    if [ "${3:-}" = --dev ]; then run=(env HOOKWIRE="$ROOT"); fi
    code=$(python3 "$ROOT/.ci/readme-snippet" "$snippet")
    echo "\$ (snippet $snippet)"
    printf '%s\n' "$code" | sed 's/^/    /'
    (cd "$dir" && "${run[@]}" bash -eo pipefail -c "$code") >"$dir/out" 2>&1 || rc=$?
    cat "$dir/out"
    return "$rc"
}

project() {
    mkdir -p "$WORK/$1"
    if [ $# -gt 1 ]; then python3 "$ROOT/.ci/readme-snippet" "$2" >"$WORK/$1/$3"; fi
    echo "$WORK/$1"
}

timed() {
    local t0=$SECONDS
    "$@"
    printf '%s: %s passed in %ss\n' "${0##*/}" "$1${2:+ $2}" "$((SECONDS - t0))"
}
