#!/bin/sh
# emit.sh [-s SECONDS] [-e STDERR] [-x EXIT] [STDOUT]
# Sleeps SECONDS (if given), prints STDOUT to stdout and STDERR to stderr verbatim (no newline
# added), then exits with EXIT (default 0). The generic "a hook that says X and exits N".
secs=""; err=""; code=0
while getopts "s:e:x:" opt; do
  case "$opt" in
    s) secs="$OPTARG" ;;
    e) err="$OPTARG" ;;
    x) code="$OPTARG" ;;
    *) exit 64 ;;
  esac
done
shift $((OPTIND - 1))
[ -n "$secs" ] && sleep "$secs"
[ "$#" -gt 0 ] && printf '%s' "$1"
[ -n "$err" ] && printf '%s' "$err" >&2
exit "$code"
