#!/bin/sh
# invalid-utf8.sh: writes bytes that are not UTF-8 (0xFF 0xFE between "a" and "b") on stdout
# and on stderr, then exits 0. Each becomes U+FFFD and sets stdout_lossy / stderr_lossy (§5.4);
# the result JSON stays valid UTF-8.
printf 'a\377\376b'
printf 'a\377\376b' >&2
exit 0
