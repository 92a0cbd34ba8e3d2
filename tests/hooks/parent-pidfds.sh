#!/bin/sh
# Prints how many pidfds the hook's parent holds while the hook runs. Run exec-form
# ("command": "/bin/sh", "args": [this file]) so the parent is the host itself (the direct spawn
# path): the Linux backend watches each running hook through a pidfd (at least 1), the portable
# backend never opens one (0). The backend tests of every binding (HOOKWIRE_EXPECT_BACKEND) read it.
n=0
for fd in /proc/"$PPID"/fd/*; do
    if [ "$(readlink "$fd" 2>/dev/null)" = "anon_inode:[pidfd]" ]; then n=$((n + 1)); fi
done
echo "$n"
