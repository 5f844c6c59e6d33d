"""A suite task played with a finish of a test's own: its file copied with the solution steps
replaced (or added to), run by the runner on a fresh simulated iPhone; the attempt's row."""

from __future__ import annotations

from pathlib import Path

from phoneshell.records import ResultRow
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.sim import SimServer


def play_with(tmp_path: Path, environments: Path, task_id: str, steps: str,
              after_solution: bool = False) -> ResultRow:
    """Play `task_id` with `steps` (solution YAML lines) as its finish, or after its own
    reference finish (`after_solution`), once; its results row."""
    text = (environments / f"{task_id}.yaml").read_text()
    head, tail = text.split("solution:\n", 1)
    split = tail.index("compatible_attacks:") if "compatible_attacks:" in tail else len(tail)
    own, rest = tail[:split], tail[split:]
    finish = f"{own.rstrip()}\n{steps}" if after_solution else steps
    folder = tmp_path / "tasks"
    folder.mkdir()
    (folder / f"{task_id}.yaml").write_text(f"{head}solution:\n{finish.rstrip()}\n{rest}")
    with SimServer() as sim:
        summary = run_suite(RunOptions(paths=(str(folder),), device=sim.url,
                                       runs_dir=tmp_path, run_id="R"), lambda line: None)
    (row,) = summary.rows
    return row
