"""An agent that makes its own folder unreadable on its way out (`chmod 0`) is graded as it
left the phone, never skipped (red team 128): under a harness that is not root, the look at its
claim raised "Permission denied", which the turn took for the harness's error and skipped the
attempt as "the agent never ran". Played as such a harness: the CLI run as `nobody`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOCKS = """import os, subprocess
subprocess.run(["phoneshell", "finish", "--status", "done", "--answer", "999"])
os.chmod(os.environ["PHONESHELL_ATTEMPT_DIR"], 0)
"""


@pytest.mark.slow  # a whole program as another user
def test_an_agent_that_locks_its_folder_is_failed_not_skipped() -> None:
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        pytest.skip("needs root to run the harness as another user (CI runs as root)")
    # a folder `nobody` may write, outside pytest's own (which only root may enter)
    place = Path(tempfile.mkdtemp(prefix="phoneshell-locked-"))
    try:
        place.chmod(0o777)
        agent = place / "locks.py"
        agent.write_text(LOCKS)
        done = subprocess.run(
            ["runuser", "-u", "nobody", "--", "env", f"HOME={place}",
             f"PHONESHELL_KEY_FILE={place / 'run-signing.key'}", sys.executable, "-m",
             "phoneshell", "run", str(ROOT / "environments"), "--task", "calculator.arithmetic",
             "--agent", f"command:python3 {agent}", "--runs", str(place / "runs"),
             "--run-id", "L"], capture_output=True, text=True, cwd=place, timeout=300)
        if "Permission denied" in done.stderr and not (place / "runs" / "L").exists():
            pytest.skip(f"this checkout cannot be read by nobody: {done.stderr[-300:]}")
        (row,) = [json.loads(line) for line in
                  (place / "runs" / "L" / "results.jsonl").read_text().splitlines()]
        assert row["outcome"] == "failed", row
        assert "its folder could not be read" in row["error"], row["error"]
    finally:
        subprocess.run(["chmod", "-R", "u+rwx", str(place)], check=False)
        shutil.rmtree(place, ignore_errors=True)
