#!/bin/sh
# Codex as a graded agent, driving the phone through `phoneshell mcp`:
#   phoneshell run --agent 'command:sh examples/agents/codex.sh'
# Codex passes only a few variables on to MCP servers, so the attempt's are given explicitly.
# Needs `codex` on PATH and signed in; not run in CI (see README.md).
set -eu
exec codex exec --skip-git-repo-check \
    -c 'mcp_servers.phoneshell.command="phoneshell"' \
    -c "mcp_servers.phoneshell.args=[\"mcp\", \"--bridge\", \"$PHONESHELL_WDA_URL\"]" \
    -c "mcp_servers.phoneshell.env={PHONESHELL_CLAIM_FILE=\"$PHONESHELL_CLAIM_FILE\", PHONESHELL_ATTEMPT_DIR=\"$PHONESHELL_ATTEMPT_DIR\", PHONESHELL_MAX_STEPS=\"$PHONESHELL_MAX_STEPS\"}" \
    "$PHONESHELL_INSTRUCTION"
