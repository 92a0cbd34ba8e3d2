#!/bin/sh
# Cancels the run, with an error message; exits 2 with stderr (ignored by Cline).
printf '{"cancel":true,"errorMessage":"not today"}'
printf 'stderr is ignored' >&2
exit 2
