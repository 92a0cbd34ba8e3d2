#!/bin/sh
# A stand-in for $SHELL: prints its first argument (the login flag), then runs the command.
printf 'argv1=%s\n' "$1"
exec /bin/sh -c "$2"
