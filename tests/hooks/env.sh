#!/bin/sh
# env.sh NAME...
# For each NAME prints "NAME=value" or "NAME unset", one per line, in argument order.
for n in "$@"; do
  if eval "[ -n \"\${$n+x}\" ]"; then
    eval "printf '%s=%s\n' \"\$n\" \"\$$n\""
  else
    printf '%s unset\n' "$n"
  fi
done
