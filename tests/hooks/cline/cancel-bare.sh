#!/bin/sh
# Cancels the run and says nothing else.
printf '{"cancel":true}'
