#!/usr/bin/env bash
# The runner backend a C host's hooks start on, seen from a hook: `bash .ci/c-backend.sh EXAMPLE`
# runs tests/c/example.c's binary EXAMPLE (linked against the library under test) with one
# exec-form hook, tests/hooks/parent-pidfds.sh, which prints how many pidfds its parent (the
# host) holds. HOOKWIRE_EXPECT_BACKEND=linux wants at least one (the Linux backend watches each
# hook through a pidfd), =portable none (the posix_spawn backend never opens one). Not under
# valgrind, which offers no pidfd.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
example=$1
expect=${HOOKWIRE_EXPECT_BACKEND:?set HOOKWIRE_EXPECT_BACKEND to linux or portable}
dir=$(mktemp -d "${TMPDIR:-/tmp}/hookwire-c-backend.XXXXXX")
trap 'rm -rf "$dir"' EXIT
printf '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/bin/sh","args":["%s"]}]}]}}' \
    "$PWD/tests/hooks/parent-pidfds.sh" >"$dir/settings.json"
printf '{"hook_event_name":"Stop","cwd":"/"}' | "$example" "$dir/settings.json" >"$dir/result.json"
python3 - "$dir/result.json" "$expect" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
expect, o = sys.argv[2], r["outcomes"][0]
assert o["status"] == "ok", r
n = int(o["stdout"])
ok = n >= 1 if expect == "linux" else n == 0 if expect == "portable" else False
assert ok, f"HOOKWIRE_EXPECT_BACKEND={expect}: the C host holds {n} pidfds while its hook runs: {r}"
print(f"c: the hook's parent holds {n} pidfd(s): the {expect} backend")
PY
