#!/bin/sh
# Log lines, then the answer on a HOOK_CONTROL line.
echo "checking"
printf 'HOOK_CONTROL\t{"contextModification":"via control"}\n'
