#!/bin/sh
# Exit 1 with stderr and no stdout: Cline ignores it.
printf 'oops' >&2
exit 1
