#!/bin/sh
# hang.sh PIDFILE: writes its own pid and the pid of a background `sleep 30` to PIDFILE (one
# per line), then waits forever. Run it with a short timeout: at the deadline hookwire must
# kill the whole process group (SIGTERM, then SIGKILL), so neither pid survives (§5.5).
echo $$ > "$1"
sleep 30 &
echo $! >> "$1"
wait
