#!/bin/sh
# Exit 2 with stderr and no stdout: Cline ignores it.
printf 'stop it' >&2
exit 2
