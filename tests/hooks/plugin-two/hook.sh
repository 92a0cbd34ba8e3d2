#!/bin/sh
# A plugin hook: says which plugin root it was run from.
echo "plugin two"
