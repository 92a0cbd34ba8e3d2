#!/bin/sh
# Installs the hookwire C library from this folder (the relocatable tree of
# hookwire-<version>-linux-<arch>.tar.gz, made by dist/build) under a prefix:
#   PREFIX/include/hookwire.h
#   PREFIX/lib/libhookwire.so, PREFIX/lib/libhookwire.a
#   PREFIX/lib/pkgconfig/hookwire.pc   (its prefix= is PREFIX)
# Usage: ./install.sh [PREFIX]   or   PREFIX=/opt/hookwire ./install.sh   (default /usr/local).
# DESTDIR stages the files elsewhere (for packagers); hookwire.pc still names PREFIX.
# The tree itself also works unpacked where it is: PKG_CONFIG_PATH=<tree>/lib/pkgconfig.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
PREFIX=${1:-${PREFIX:-/usr/local}}
case $PREFIX in /*) ;; *) PREFIX=$(pwd)/$PREFIX ;; esac
dest=${DESTDIR:-}$PREFIX
mkdir -p "$dest/include" "$dest/lib/pkgconfig"
cp "$here/include/hookwire.h" "$dest/include/hookwire.h"
cp "$here/lib/libhookwire.so" "$here/lib/libhookwire.a" "$dest/lib/"
chmod 644 "$dest/include/hookwire.h" "$dest/lib/libhookwire.a"
chmod 755 "$dest/lib/libhookwire.so"
sed "s|^prefix=.*|prefix=$PREFIX|" "$here/lib/pkgconfig/hookwire.pc" >"$dest/lib/pkgconfig/hookwire.pc"
echo "hookwire: installed under $dest (pkg-config: PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig)"
