#!/bin/sh
# Claude Code's answers, which Cline ignores.
printf '{"decision":"block","reason":"cc","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"cc"}}'
