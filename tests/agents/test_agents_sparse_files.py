"""A kept agent folder is bounded by the sizes its files say they are, as well as by the disk
they take (red team 143, RT143-2): a sparse file of 1 TiB takes no blocks, and is 1 TiB to any
copy or archive of the run folder without sparse support. Whole attempts through the runner."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from agents.command_attempt import attempt

from phoneshell.agents.bounds import FOLDER_MAX_APPARENT_BYTES
from phoneshell.runner import Rig
from phoneshell.tasks import Task

PYTHON = shlex.quote(sys.executable)


def sparse_agent(size: int) -> str:
    """A command line that leaves a sparse file of `size` bytes (no blocks) in its folder."""
    code = ("import os; f = open(os.path.join(os.environ['PHONESHELL_ATTEMPT_DIR'], 'big.bin'),"
            f" 'wb'); f.truncate({size}); f.close()")
    return f"{PYTHON} -c {shlex.quote(code)}"


def test_a_sparse_file_past_the_limit_fails_the_attempt_and_is_deleted(
        rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    row = attempt(rig, tmp_path, suite["calculator.arithmetic"], sparse_agent(1 << 40))
    said = row.model_dump_json()
    assert "sparse file" in said and "big.bin" in said, said
    assert not row.passed
    kept = tmp_path / "R" / "attempts" / "calculator.arithmetic" / "1" / "agent"
    assert not (kept / "big.bin").exists()


def test_a_sparse_file_within_the_limit_is_kept(rig: Rig, tmp_path: Path,
                                                suite: dict[str, Task]) -> None:
    row = attempt(rig, tmp_path, suite["calculator.arithmetic"],
                  sparse_agent(FOLDER_MAX_APPARENT_BYTES // 2))
    assert "sparse file" not in row.model_dump_json()
    kept = tmp_path / "R" / "attempts" / "calculator.arithmetic" / "1" / "agent"
    assert (kept / "big.bin").stat().st_size == FOLDER_MAX_APPARENT_BYTES // 2
