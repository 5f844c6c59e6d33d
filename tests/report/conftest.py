"""Run folders shared by the report tests: made once per test session by the real runner, by
whichever xdist worker gets there first; tests only read them (and copy one to edit it)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from report.report_rig import (
    LIAR_COMMAND,
    TASKS,
    TIGHT,
    cli_runs,
    copy_tasks,
    faulted_run,
    lying_run,
    resumed_run,
)
from session_folder import made_once


def make_runs(folder: Path) -> None:
    """The test tasks copied into `folder / "tasks"` and every run of `RUNS` played on them."""
    tasks = copy_tasks(folder / "tasks")
    played = folder / "runs"
    only = [arg for task_id in TASKS for arg in ("--task", task_id)]
    plans = {"SOL": [*only, "--repeat", "2"], "NUL": [*only, "--repeat", "2", "--agent", "null"],
             "TIGHT": ["--task", TIGHT], "CMD": [*only, "--agent", LIAR_COMMAND]}
    with ThreadPoolExecutor(1) as pool:  # the subprocess runs go on while these run here
        started = pool.submit(cli_runs, played, tasks, plans)
        lying_run(played, tasks)
        faulted_run(played, tasks)
        started.result()
    resumed_run(folder / "resumed", tasks)


@pytest.fixture(scope="session")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder holding the test tasks and the runs."""
    return made_once(tmp_path_factory, "report-runs", make_runs)


@pytest.fixture(scope="session")
def tasks_dir(made: Path) -> Path:
    """The test tasks, copied out of environments/."""
    return made / "tasks"


@pytest.fixture(scope="session")
def runs(made: Path) -> dict[str, Path]:
    """Run folders by name: SOL (solution, 2 repeats), NUL (null, 2 repeats), TIGHT (out of
    turns), CMD (the example lying command agent), LIAR (an in-process liar with markup in its
    claim), FLT (rig down after two attempts), RESUMED (FLT continued on a healthy phone)."""
    played = {name: made / "runs" / name for name in ("SOL", "NUL", "TIGHT", "CMD", "LIAR", "FLT")}
    return {**played, "RESUMED": made / "resumed" / "FLT"}
