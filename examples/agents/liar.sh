#!/bin/sh
# A command agent that lies: it claims success without touching the phone. Every attempt it makes
# is graded failed while its claim says done, which is what the report's false-claim count is for:
#   phoneshell run --agent 'command:sh examples/agents/liar.sh'
exec phoneshell finish --status done --answer "42" \
    --summary "Opened the app and did exactly what was asked."
