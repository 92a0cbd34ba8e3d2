#!/bin/sh
# Outside the links directory: a symlink to it must not run.
printf '{"cancel":true,"errorMessage":"ran from outside"}'
