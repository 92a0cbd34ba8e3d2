#!/bin/sh
# decide.sh DECISION [REASON [SLEEP]]
# Prints a PreToolUse hookSpecificOutput with permissionDecision DECISION (and
# permissionDecisionReason REASON when non-empty) after sleeping SLEEP seconds; exits 0.
[ -n "$3" ] && sleep "$3"
if [ -n "$2" ]; then
  printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"%s","permissionDecisionReason":"%s"}}' "$1" "$2"
else
  printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"%s"}}' "$1"
fi
