#!/bin/sh
# flood.sh BYTES: writes BYTES bytes of "o" on stdout and as many of "e" on stderr, at the same
# time, then exits 0. hookwire keeps at most max_output_bytes per stream, reads and discards
# the rest (the hook never stalls on a full pipe) and sets *_truncated (§5.4).
head -c "$1" /dev/zero | tr '\0' e >&2 &
head -c "$1" /dev/zero | tr '\0' o
wait
exit 0
