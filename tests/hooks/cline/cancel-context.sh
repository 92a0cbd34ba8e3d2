#!/bin/sh
# Cancels the run with a contextModification and no errorMessage.
printf '{"cancel":true,"contextModification":"C as reason"}'
