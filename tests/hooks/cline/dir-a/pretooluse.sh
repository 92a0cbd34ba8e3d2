#!/bin/sh
# A Cline hook adding the context B.
printf '{"contextModification":"B"}'
