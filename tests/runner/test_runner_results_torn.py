"""A run folder the harness cannot write or read back at its end (an unconfined agent made its
results.jsonl or run.json a folder) is the folder's fault, never a bug: the run says which file
is wrong and how, that it removed nothing, and exits 2. Before, the end-of-run tally's
RecordError (or the last seal's IsADirectoryError) escaped as "a bug in phoneshell", exit 3.
Bytes no row is, written in the results' place, are put back from the harness's memory
(`kept`) and the run ends as runs do."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli

TASK = str(ROOT / "environments" / "calculator.arithmetic.yaml")
TEARS = """import json, os, sys
from pathlib import Path
here, name, how = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
torn = here / "runs" / "R" / name
if (here / "first").exists():  # the second turn tears the file
    os.remove(torn)
    if how == "folder":
        torn.mkdir()
    else:
        torn.write_bytes(b"\\x00not a row\\n")
(here / "first").touch()
print(json.dumps({"status": "done", "answer": "x"}))
"""


def torn_run(tmp_path: Path, name: str, how: str) -> tuple[int, str]:
    """A run of three attempts whose agent tears the run's file `name` on its second turn."""
    agent = tmp_path / "tears.py"
    agent.write_text(TEARS)
    done = run_cli("run", TASK, "--agent",
                   f"command:{sys.executable} {agent} {tmp_path} {name} {how}",
                   "--sandbox", "none", "--runs", str(tmp_path / "runs"), "--run-id", "R",
                   "--repeat", "3")
    assert "Traceback" not in done.stderr and "bug" not in done.stderr, done.stderr
    return done.returncode, done.stderr


@pytest.mark.slow  # a whole program for seconds
@pytest.mark.parametrize("name", ["results.jsonl", "run.json"])
def test_a_run_file_made_a_folder_by_the_agent_is_said_as_the_folders_fault(
        tmp_path: Path, name: str) -> None:
    code, stderr = torn_run(tmp_path, name, "folder")
    assert code == 2, stderr
    error = next(x for x in stderr.splitlines() if x.startswith("error:"))
    hint = next(x for x in stderr.splitlines() if x.startswith("hint:"))
    assert str(tmp_path / "runs" / "R" / name) in error, error
    assert "removed nothing" in hint and "--sandbox none" in hint, hint


@pytest.mark.slow  # a whole program for seconds
def test_results_overwritten_with_bytes_no_row_is_are_put_back(tmp_path: Path) -> None:
    code, stderr = torn_run(tmp_path, "results.jsonl", "garbage")
    assert code in (0, 1), stderr
    rows = (tmp_path / "runs" / "R" / "results.jsonl").read_text().splitlines()
    assert [json.loads(r)["attempt"] for r in rows] == [1, 2, 3], rows


@pytest.mark.slow  # a whole program for seconds
def test_a_stop_says_rows_are_kept_only_when_results_still_hold_them(tmp_path: Path) -> None:
    code, stderr = torn_run(tmp_path, "results.jsonl", "folder")
    assert code == 2, stderr
    assert "every row written before it is kept" not in stderr, stderr  # they are not
    assert (f"but {tmp_path / 'runs' / 'R' / 'results.jsonl'} no longer holds the rows written "
            "before it (it cannot be read back") in stderr, stderr
