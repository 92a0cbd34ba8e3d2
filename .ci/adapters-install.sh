#!/usr/bin/env bash
# The framework adapters installed as docs/frameworks.md prints it (issue 37):
# each Python extra and each Node framework in a fresh project outside the repository, hookwire
# from target/dist and the framework from its registry (PyPI, npm), with no cargo or rustc on
# PATH; then the adapter's module is imported, which proves the install. (Go's adapter install,
# go-adapter-install, runs in .ci/go.sh.) Run `bash dist/build` first; run from anywhere.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
DIST=${HOOKWIRE_DIST:-$ROOT/target/dist}

# shellcheck source=lib.sh
source "$ROOT/.ci/lib.sh"
# shellcheck source=user-project.sh
source "$ROOT/.ci/user-project.sh"
user_projects registries # WORK, USER_ENV: no cargo or rustc on PATH; PyPI and npm reachable

# python_extra EXTRA MODULE NAME DISTRIBUTIONS: the snippet python-adapter-install-EXTRA in a fresh
# folder, then `from hookwire.adapters.MODULE import NAME` in its venv; prints the versions of
# DISTRIBUTIONS that pip chose.
python_extra() {
    local p
    p=$(project "python-$1")
    in_project "$p" "python-adapter-install-$1"
    "${USER_ENV[@]}" "$p/.venv/bin/python" -c "
import importlib.metadata as m
from hookwire.adapters.$2 import $3
print('import hookwire.adapters.$2: ok;', ', '.join(d + ' ' + m.version(d) for d in '$4'.split()))"
}

# engine_warnings_only_for FILE REGEX: every package npm warned EBADENGINE about in FILE has a
# name that REGEX matches whole (docs/frameworks.md names those packages beside their install line);
# with REGEX empty, npm warned about none.
engine_warnings_only_for() {
    local warned names others
    warned=$(grep -c 'EBADENGINE Unsupported engine' "$1" || true)
    names=$(sed -n "s/.*EBADENGINE *package: '\(.*\)@[^@]*',*$/\1/p" "$1")
    [ "$warned" = "$(printf '%s' "$names" | grep -c . || true)" ] ||
        { echo "$1: $warned EBADENGINE warnings, but these package lines: $names" >&2; exit 1; }
    others=$(printf '%s\n' "$names" | grep -v -x -E "${2:-^$}" | grep . || true)
    [ -z "$others" ] || { echo "$1: npm warned EBADENGINE for packages docs/frameworks.md does not name: $others" >&2; exit 1; }
    [ -z "$names" ] || echo "npm warned EBADENGINE, as docs/frameworks.md says, for: $(echo $names)"
}

# node_framework NAME SUBPATH EXPORT ENGINE_REGEX PACKAGES: the snippet node-adapter-install-NAME in
# a fresh folder (npm must not fail; EBADENGINE only for ENGINE_REGEX), then
# `import { EXPORT } from 'hookwire/SUBPATH'` there; prints the versions of PACKAGES npm chose.
node_framework() {
    local p
    p=$(project "node-$1")
    in_project "$p" "node-adapter-install-$1"
    engine_warnings_only_for "$p/out" "$4"
    (cd "$p" && "${USER_ENV[@]}" node --input-type=module -e "
        import { readFileSync } from 'node:fs'
        const m = await import('hookwire/$2')
        if (typeof m.$3 !== 'function') throw new Error('hookwire/$2 has no $3')
        const version = (d) => JSON.parse(readFileSync('node_modules/' + d + '/package.json', 'utf8')).version
        const versions = '$5'.split(' ').map((d) => d + ' ' + version(d))
        console.log('import hookwire/$2: ok;', versions.join(', '))")
}

step "python: hookwire's wheel with the langchain extra (langchain from PyPI)"
timed python_extra langchain langchain HookwireMiddleware "langchain langchain-core"
step "python: hookwire's wheel with the openai-agents extra"
timed python_extra openai-agents openai_agents HookwireRunner "openai-agents"
step "python: hookwire's wheel with the pydantic-ai extra"
timed python_extra pydantic-ai pydantic_ai HookwireCapability "pydantic-ai-slim"
step "node: hookwire's tarballs with langchain and @langchain/core (npm registry)"
timed node_framework langchain langchain hookwireMiddleware "" "langchain @langchain/core"
step "node: hookwire's tarballs with ai and zod (ai 7 asks for Node >= 22)"
timed node_framework ai ai hookwire "ai|@ai-sdk/.*" "ai zod"
step "node: hookwire's tarballs with @openai/agents and zod (openai 7 asks for Node >= 22)"
timed node_framework openai-agents openai-agents HookwireRunner "openai|@openai/.*" "@openai/agents openai zod"

echo
echo "adapters-install: every adapter installed as docs/frameworks.md prints it and imported, outside the repository"
