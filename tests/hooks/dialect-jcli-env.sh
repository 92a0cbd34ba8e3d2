#!/bin/sh
# dialect-jcli-env.sh NAME...
# For each NAME writes "NAME=value" or "NAME unset" to STDERR, one per line, in argument order;
# stdout stays empty (j-cli reads stdout as its protocol: empty = no change). Exits 0.
for n in "$@"; do
  if eval "[ -n \"\${$n+x}\" ]"; then
    eval "printf '%s=%s\n' \"\$n\" \"\$$n\"" >&2
  else
    printf '%s unset\n' "$n" >&2
  fi
done
exit 0
