"""The judgeset the judge tests share: made once for the whole test session by the real runner
on the simulated iPhone (judges_rig.py), whichever worker gets there first.

Playing it takes seconds of simulated-iPhone time (the runner's own screenshots and input
probes, and one frame per action), so the workers share one copy under a lock rather than each
playing it; tests only read it (judges write their answers to their own folders).
"""

from __future__ import annotations

import pytest
from judges.judges_rig import Made, load_made, make_judgeset
from session_folder import made_once


@pytest.fixture(scope="session")
def made(tmp_path_factory: pytest.TempPathFactory) -> Made:
    """A judgeset of positives, honest failures, a swapped negative and attack negatives."""
    return load_made(made_once(tmp_path_factory, "judges-rig", make_judgeset))
