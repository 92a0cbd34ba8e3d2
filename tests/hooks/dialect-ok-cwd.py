#!/usr/bin/env python3
"""dialect-ok-cwd.py EXPECTED : prints "same" when the working directory is the directory
EXPECTED (compared with os.path.samefile, so symlinks in either path do not matter), else
"different: <cwd>". Plain text, exits 0."""
import os
import sys

cwd = os.getcwd()
try:
    same = os.path.samefile(cwd, sys.argv[1])
except OSError:
    same = False
sys.stdout.write("same\n" if same else "different: " + cwd + "\n")
