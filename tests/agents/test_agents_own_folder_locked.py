"""An agent that makes its own folder unreadable on its way out (`chmod 0`) is graded as it
left the phone, never skipped (red team 128): under a harness that is not root, the look at its
claim raised "Permission denied", which the turn took for the harness's error and skipped the
attempt as "the agent never ran". Played as such a harness: the CLI run as `nobody`
(`as_nobody`). Since the folder is given back after every turn (`agents/give_back.py`), its
claim is read and graded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from as_nobody import as_nobody, nobody_cannot_run, nobodys_place

ROOT = Path(__file__).resolve().parents[2]
LOCKS = """import os
print('{"status": "done", "answer": "999"}', flush=True)  # a claim on stdout (docs/agents.md)
os.chmod(os.environ["PHONESHELL_ATTEMPT_DIR"], 0)
"""


@pytest.mark.slow  # a whole program as another user
def test_an_agent_that_locks_its_folder_is_failed_not_skipped() -> None:
    with nobodys_place("phoneshell-locked-") as place:
        why = nobody_cannot_run(place)
        if why:
            pytest.skip(why)
        agent = place / "locks.py"
        agent.write_text(LOCKS)
        done = as_nobody(place, "phoneshell", "run", str(ROOT / "environments"), "--task",
                         "calculator.arithmetic", "--agent", f"command:python3 {agent}",
                         "--runs", str(place / "runs"), "--run-id", "L")
        (row,) = [json.loads(line) for line in
                  (place / "runs" / "L" / "results.jsonl").read_text().splitlines()]
        assert row["outcome"] == "failed", (row["error"], row["skip_reason"], done.stderr[-300:])
        assert row["claim"]["answer"] == "999", row  # what it claimed is graded
