#!/bin/sh
# env-names.sh : prints the name of every exported variable, one per line, in the shell's
# (sorted) `export -p` order, except PWD, OLDPWD and SHLVL, which the shell itself creates on
# startup. For the environment-isolation vectors (251, 252): the whole list is compared, so
# nothing beyond an allowlist can hide. Builtins only: the hook may run with no PATH at all. (A
# python3 hook would not do: a version manager's shim on the host's PATH adds its own
# variables before the real interpreter starts.)
export -p | while IFS= read -r line; do
  case "$line" in
    "export "*) rest=${line#export } ;;
    "declare -x "*) rest=${line#declare -x } ;;
    *) continue ;; # the continuation of a multi-line value
  esac
  name=${rest%%=*}
  case "$name" in
    PWD | OLDPWD | SHLVL) ;;
    *) printf '%s\n' "$name" ;;
  esac
done
