"""What a teardown could not set back of what an agent changed is said at the run's end (red team
87: Brightness was left at 10%, and the run's closing lines said nothing). Played by
`wda_state_agent.py` (a program over facebook-wda) through the runner, on a simulated iPhone
whose own state is the witness."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from phoneshell.records import ResultRow
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.sim import SimServer

AGENT = Path(__file__).with_name("wda_state_agent.py")
PREFS = "com.apple.Preferences"


def run(sim: SimServer, runs: Path, environments: Path, mode: str, *tasks: str,
        repeat: int = 1) -> tuple[list[ResultRow], list[str]]:
    """The rows and the lines of a run of `tasks` on `sim`, the agent doing `mode`."""
    lines: list[str] = []
    program = f"{shlex.quote(sys.executable)} {shlex.quote(str(AGENT))} {mode} {sim.url}"
    summary = run_suite(RunOptions(paths=(str(environments),), task_globs=tasks,
                                   device=sim.url, runs_dir=runs, run_id="R", repeat=repeat,
                                   agent=f"command:{program}"), lines.append)
    return list(summary.rows), lines


def brightness(sim: SimServer) -> object:
    return sim.state()["stores"][PREFS]["brightness"]  # type: ignore[index,call-overload]


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_set_back_that_failed_is_said_at_the_runs_end(tmp_path: Path,
                                                        environments: Path) -> None:
    with SimServer() as sim:
        (dimmed,), lines = run(sim, tmp_path, environments, "unread", "settings.fonts.reach")
        assert brightness(sim) == pytest.approx(0.1)
    assert dimmed.teardown is not None
    assert dimmed.teardown.stays == ("Brightness (was 70%)",), dimmed.teardown
    assert ("still not as the run found them: Brightness (was 70%), as settings.fonts.reach "
            "attempt 1's agent left it" in "\n".join(lines)), lines

