#!/bin/sh
# A Cline hook adding the context A.
printf '{"contextModification":"A"}'
