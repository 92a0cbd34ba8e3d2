#!/bin/sh
# dialect-env.sh NAME...
# For each NAME prints "NAME=value" when NAME is in this process's environment (exported), else
# "NAME unset", one per line in argument order. "?NAME" prints "NAME set" / "NAME unset" (for
# values a vector cannot name). Unlike env.sh it looks at the exported environment only (`export
# -p`), so a shell's own default PATH variable (dash sets one, unexported) does not count.
# Builtins only: the hook may run with no PATH at all.
exported="
$(export -p)"
for arg in "$@"; do
  n=${arg#\?}
  case "$exported" in
    *"
export $n="*|*"
export $n"|*"
export $n
"*|*"
declare -x $n="*|*"
declare -x $n"|*"
declare -x $n
"*)
      if [ "$n" != "$arg" ]; then
        printf '%s set\n' "$n"
      else
        eval "printf '%s=%s\n' \"\$n\" \"\$$n\""
      fi ;;
    *) printf '%s unset\n' "$n" ;;
  esac
done
