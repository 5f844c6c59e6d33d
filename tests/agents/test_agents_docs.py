"""The agent docs are made from the registries they describe, so they cannot drift apart."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from phoneshell.agents import AGENTS, BUILTIN
from phoneshell.agents.environment import VARIABLES
from phoneshell.agents.tools import tool_table
from phoneshell.records import CLAIM_STATUSES

ROOT = Path(__file__).resolve().parents[2]
AGENTS_MD = (ROOT / "docs" / "agents.md").read_text()


def test_the_tool_table_in_the_docs_is_the_registry() -> None:
    assert tool_table() in AGENTS_MD, "regenerate it with `phoneshell mcp --tools`"


def test_phoneshell_mcp_prints_the_tool_table_without_a_phone() -> None:
    done = subprocess.run([sys.executable, "-m", "phoneshell", "mcp", "--tools"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0 and done.stdout == tool_table()


def test_every_variable_of_a_command_agent_is_documented() -> None:
    for name, meaning in VARIABLES.items():
        assert f"| `{name}` | {meaning} |" in AGENTS_MD, name


def test_every_agent_and_claim_status_is_documented() -> None:
    # the built-in ones: tests register stand-ins of their own in the same registry
    assert set(BUILTIN) <= set(AGENTS.names())
    for name in BUILTIN:
        assert f"| `{name}" in AGENTS_MD, name
    claims = (ROOT / "docs" / "claims.md").read_text()
    for status in CLAIM_STATUSES:
        assert f"`{status}`" in claims, status
