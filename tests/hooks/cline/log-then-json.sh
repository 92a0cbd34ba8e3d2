#!/bin/sh
# A log line before the JSON: not one JSON value, so no answer.
echo "checking"
echo '{"cancel":true}'
