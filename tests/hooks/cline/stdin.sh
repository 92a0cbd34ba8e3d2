#!/bin/sh
# Prints its stdin to stderr.
cat >&2
