#!/bin/sh
# Inside the links directory, reached by a symlink: it runs.
printf '{"contextModification":"inner"}'
