"""The judgeset the judge tests share: made once for the whole test session by the real runner
on the simulated iPhone (judges_rig.py), whichever worker gets there first.

Playing it takes seconds of simulated-iPhone time (the runner's own screenshots and input
probes, and one frame per action), so the workers share one copy under a lock rather than each
playing it; tests only read it (judges write their answers to their own folders).
"""

from __future__ import annotations

import fcntl
import os

import pytest
from judges.judges_rig import Made, load_made, make_judgeset


@pytest.fixture(scope="session")
def made(tmp_path_factory: pytest.TempPathFactory) -> Made:
    """A judgeset of positives, honest failures, a swapped negative and attack negatives."""
    base = tmp_path_factory.getbasetemp()
    # under xdist each worker's folder sits in the session's: share that one, never a folder
    # another session (older code) left behind
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "judges-rig"
    shared.mkdir(exist_ok=True)
    with (shared / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (shared / "done").exists():
            make_judgeset(shared / "made")
            (shared / "done").touch()
    return load_made(shared / "made")
