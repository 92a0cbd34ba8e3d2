#!/bin/sh
# big-output.sh BYTES : writes BYTES ASCII 'x' characters to stdout, then exits 0.
head -c "$1" /dev/zero | tr '\0' x
