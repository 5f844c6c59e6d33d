"""Run folders shared by the report tests: each is made once per session by the real runner."""

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


@pytest.fixture(scope="session")
def tasks_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test tasks, copied out of environments/."""
    return copy_tasks(tmp_path_factory.mktemp("report") / "tasks")


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory, tasks_dir: Path) -> dict[str, Path]:
    """Run folders by name: SOL (solution, 2 repeats), NUL (null, 2 repeats), TIGHT (out of
    turns), CMD (the example lying command agent), LIAR (an in-process liar with markup in its
    claim), FLT (rig down after two attempts), RESUMED (FLT continued on a healthy phone)."""
    folder = tmp_path_factory.mktemp("runs")
    only = [arg for task_id in TASKS for arg in ("--task", task_id)]
    plans = {"SOL": [*only, "--repeat", "2"], "NUL": [*only, "--repeat", "2", "--agent", "null"],
             "TIGHT": ["--task", TIGHT], "CMD": [*only, "--agent", LIAR_COMMAND]}
    with ThreadPoolExecutor(1) as pool:  # the subprocess runs go on while these run here
        started = pool.submit(cli_runs, folder, tasks_dir, plans)
        made = {"LIAR": lying_run(folder, tasks_dir), "FLT": faulted_run(folder, tasks_dir)}
        made.update(started.result())
    made["RESUMED"] = resumed_run(made["FLT"], tmp_path_factory.mktemp("resumed"))
    return made
