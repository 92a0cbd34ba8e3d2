#!/bin/sh
# Cursor runs a user hooks.json's relative command from the file's directory: this prints where
# it ran, to stderr (stdout stays Cursor's JSON protocol).
printf 'ran in %s\n' "$(pwd)" >&2
