#!/bin/sh
# Sleeps past a short timeout, then would cancel.
sleep 2
printf '{"cancel":true}'
