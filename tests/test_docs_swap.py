"""docs/swap.md's table of numbers is what the commands print now: every count that comes from
the task files alone (implied pairs, pairs marked compatible, all pairs of the suite) is worked
out here the way the commands work it out, so the table cannot go stale unnoticed (red team
102: the `implications environments --strict` row said 6 implied pairs for months after the
suite had 9). The accepted counts, which need the swaps played, are tests/cli/test_cli_swap.py's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from phoneshell.cli import main
from phoneshell.implication import implied_pairs
from phoneshell.tasks import Task, load_tasks

ROOT = Path(__file__).resolve().parent.parent


def _table() -> dict[str, list[str]]:
    """The rows of the "in numbers" table: the command (between backticks) to its other cells."""
    text = (ROOT / "docs" / "swap.md").read_text()
    section = text.split("## The finding, and the fix, in numbers", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 4:
            rows[cells[0].strip("`")] = cells[1:]
    return rows


def _row(table: dict[str, list[str]], start: str) -> list[str]:
    """The one row whose command starts so (the reference suite's path is the `reference`
    fixture's business, not this file's)."""
    (cells,) = [cells for command, cells in table.items() if command.startswith(start)]
    return cells


def _compatible(tasks: list[Task], pairs: list[tuple[str, str]]) -> int:
    """How many (A, B) pairs A marks compatible with B in `tasks` (what a swap scores as a
    positive)."""
    by_id = {t.id: t for t in tasks}
    return sum(b in by_id[a].compatible_with for a, b in pairs if a in by_id)


def test_the_implications_row_is_what_the_command_prints(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code = main(["implications", "environments", "--strict"])
    last = capsys.readouterr().out.splitlines()[-1]  # "80 tasks, 9 implied pair(s), 0 not ..."
    implied, loose = int(last.split(", ")[1].split()[0]), int(last.split(", ")[2].split()[0])
    assert (loose, code) == (0, 0), last
    assert _table()["implications environments --strict"] == [
        f"{implied} implied, all compatible", "", "exit 0"], last


def test_the_full_matrix_row_counts_every_pair_of_the_suite(environments: Path) -> None:
    tasks = list(load_tasks([environments]).tasks)
    every = [(a.id, b.id) for a in tasks for b in tasks if a.id != b.id]
    cells = _table()["swap --all environments"]
    assert cells[0] == f"{len(every):,} ({_compatible(tasks, every)} compatible)", cells


def test_the_reference_rows_count_the_pairs_the_public_suite_implies(
        reference: Path, environments: Path) -> None:
    public = list(load_tasks([reference / "phoneshell-environments"]).tasks)
    implied = [(p.implied.id, p.by.id) for p in implied_pairs(public)]
    ours = list(load_tasks([environments]).tasks)
    table = _table()
    played = _row(table, "swap --implied ")
    assert played[0] == f"{len(implied)} ({_compatible(public, implied)} compatible)", played
    graded = _row(table, "swap --pairs-from ")
    assert graded[0] == f"{len(implied)} ({_compatible(ours, implied)} compatible)", graded
