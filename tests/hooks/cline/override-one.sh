#!/bin/sh
# Replaces the tool input.
printf '{"overrideInput":{"commands":["one"]}}'
