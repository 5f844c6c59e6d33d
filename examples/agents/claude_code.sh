#!/bin/sh
# Claude Code as a graded agent, driving the phone through `phoneshell mcp`:
#   phoneshell run --agent 'command:sh examples/agents/claude_code.sh'
# It writes this attempt's MCP configuration (the bridge URL, and where `done` puts the claim)
# into the attempt folder, then runs Claude Code headless with only the phone tools allowed.
# Needs `claude` on PATH and signed in; not run in CI (see README.md).
set -eu
config="$PHONESHELL_ATTEMPT_DIR/mcp.json"
python3 - "$config" <<'PY'
import json, os, sys
passed = ("PHONESHELL_CLAIM_FILE", "PHONESHELL_ATTEMPT_DIR", "PHONESHELL_MAX_STEPS")
server = {"command": "phoneshell", "args": ["mcp", "--bridge", os.environ["PHONESHELL_WDA_URL"]],
          "env": {name: os.environ[name] for name in passed}}
with open(sys.argv[1], "w") as out:
    json.dump({"mcpServers": {"phoneshell": server}}, out)
PY
exec claude -p "$PHONESHELL_INSTRUCTION" --mcp-config "$config" --strict-mcp-config \
    --allowedTools "mcp__phoneshell" --output-format json
