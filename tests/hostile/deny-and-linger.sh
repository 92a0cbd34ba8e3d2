#!/bin/sh
# deny-and-linger.sh PIDFILE: prints a PreToolUse deny (reason "lingering deny"), then leaves
# `sleep 30` in the background holding the hook's stdout and stderr, writes its pid to PIDFILE
# and exits 0. The fire must return at once with the deny (protocol.md §5.5: drain at most
# 100 ms after the leader exits). The sleeper is not killed by hookwire (no kill on a normal
# exit); the test that runs this script kills it.
printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"lingering deny"}}'
sleep 30 &
echo $! > "$1"
exit 0
