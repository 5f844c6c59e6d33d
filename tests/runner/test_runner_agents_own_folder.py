"""A refusal to read or write a file in an attempt's own agent folder is the agent's doing,
never the rig's (red team 128): an agent that failed and then `chmod 0` its scratch folder made
the harness's look at its claim raise "Permission denied" under a non-root harness, and the rule
that any refusal in the run folder is the rig's fault turned its failure into "not scored" and
stopped the run. The same refusal anywhere else in the run folder is still the rig's."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from phoneshell.runner.unwritten import rigs_error, unwritten_error


def refused(path: Path, code: int = errno.EACCES) -> OSError:
    """The error the system gives for `path` (as `Path.is_symlink` raises it)."""
    try:
        raise PermissionError(code, "Permission denied", str(path))
    except PermissionError as exc:
        return exc


@pytest.mark.parametrize("inside", ["claim.json", "turns.json", "deep/er/file", ""])
def test_a_refusal_in_the_agents_own_folder_is_its_own(tmp_path: Path, inside: str) -> None:
    agent = tmp_path / "R" / "attempts" / "calculator.arithmetic" / "1" / "agent"
    for code in (errno.EACCES, errno.EPERM):
        exc = refused(agent / inside if inside else agent, code)
        assert unwritten_error(exc, tmp_path / "R") is None
        assert rigs_error(exc, tmp_path / "R", disk_user=True, in_turn=False) is None


@pytest.mark.parametrize("where", ["attempts/t/1/evidence/final.xml", "attempts/t/1/agent.stderr",
                                   "results.jsonl", "audit.jsonl", "attempts/agent/1/x",
                                   "attempts/t/agent"])
def test_a_refusal_anywhere_else_in_the_run_folder_is_the_rigs(tmp_path: Path,
                                                               where: str) -> None:
    exc = refused(tmp_path / "R" / where)
    assert unwritten_error(exc, tmp_path / "R") is exc


def test_a_refusal_raised_through_another_error_is_told_the_same(tmp_path: Path) -> None:
    inner = refused(tmp_path / "R" / "attempts" / "t" / "1" / "agent" / "claim.json")
    try:
        raise RuntimeError("reading the claim") from inner
    except RuntimeError as outer:
        assert unwritten_error(outer, tmp_path / "R") is None
