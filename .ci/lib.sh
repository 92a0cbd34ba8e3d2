# Helpers shared by the .ci scripts; sourced, never run.

step() { printf '\n== %s\n' "$*"; }

need() { # need COMMAND PACKAGE: install the Debian package when the command is missing
    command -v "$1" >/dev/null 2>&1 && return 0
    step "installing $2"
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$2" >/dev/null
}

heartbeat() { # heartbeat SECONDS LABEL COMMAND...: runs COMMAND; says LABEL is still running every SECONDS
    local every=$1 label=$2 t0=$SECONDS rc=0 cmd hb
    shift 2
    "$@" &
    cmd=$!
    (while sleep "$every"; do printf '  ... %s: still running (%ss)\n' "$label" "$((SECONDS - t0))"; done) &
    hb=$!
    wait "$cmd" || rc=$?
    kill "$hb" 2>/dev/null || true
    wait "$hb" 2>/dev/null || true
    return "$rc"
}
