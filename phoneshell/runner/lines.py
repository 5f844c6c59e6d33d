"""What a run prints: a line per attempt as it ends, the closing lines, and the commands that
continue and read a run."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from phoneshell.percent import percent
from phoneshell.records import ResultRow
from phoneshell.runner.folder import RESULTS

if TYPE_CHECKING:  # the run's summary is made by run.py, which prints with these
    from phoneshell.runner.run import RunSummary


def resume_command(runs_dir: Path, run_id: str) -> str:
    """The command that continues a run (naming --runs when it is not the default)."""
    runs = "" if runs_dir == Path("runs") else f" --runs {runs_dir}"
    return f"phoneshell run --resume {run_id}{runs}"


def report_command(run_dir: Path) -> str:
    """The command that reads a run's results."""
    return f"phoneshell report {run_dir}"


INDENT = " " * 8


def progress_line(index: int, total: int, row: ResultRow) -> str:
    """`[ 3/80] settings.about.reach  passed  1.2s`, then why, for a failure or a skip: the
    failed checks, and what the agent's program said when it crashed (its stderr's end)."""
    width = len(str(total))
    line = (f"[{index:>{width}}/{total}] {row.task_id:<34} {row.outcome:<7} "
            f"{row.seconds:5.1f}s")
    if row.device and row.device not in ("sim-1", "phone-1"):
        line += f"  on {row.device}"
    reasons = []
    if row.skipped:
        reasons.append(f"not scored: {row.skip_reason}")
    elif not row.passed:
        reasons += [f"{r.label}: {r.detail}" for r in row.checks if not r.passed]
        if row.timed_out or row.out_of_turns:
            reasons.insert(0, "ran out of time" if row.timed_out else "ran out of turns")
        if row.error:  # the agent's program crashed, or a failure no check explains (custody)
            reasons.append(f"agent: {row.error}" if reasons else row.error)
    if not row.teardown.ok:
        reasons.append(f"teardown failed: {row.teardown.error}")
    # a reason may span lines (a traceback's end): keep each under the attempt it belongs to
    return line + "".join(f"\n{INDENT}{part}" for reason in reasons
                          for part in reason.splitlines())


def summary_lines(summary: RunSummary) -> list[str]:
    """The closing lines: counts, skip reasons, where the files are."""
    counts = summary.counts()
    scored = counts["passed"] + counts["failed"]
    rate = f" ({percent(counts['passed'] / scored, 0)} of scored)" if scored else ""
    lines = [f"{len(summary.rows)} attempt(s): {counts['passed']} passed, {counts['failed']} "
             f"failed, {counts['skipped']} skipped{rate}"]
    if summary.planned > scored:  # what no skip, and no attempt left unrun, can raise
        lines.append(f"  at least {percent(counts['passed'] / summary.planned, 0)} of the "
                     f"{summary.planned} planned: every attempt not scored counted as failed")
    if summary.already_scored:
        lines.append(f"  {summary.already_scored} attempt(s) were already scored and not run "
                     "again")
    reasons = Counter(row.skip_reason.split(":")[0] for row in summary.rows if row.skipped)
    lines += [f"  skipped ({n}): {reason}" for reason, n in reasons.most_common()]
    if summary.left_out:
        lines.append(f"left out {len(summary.left_out)} task file(s) with errors (listed above): "
                     f"{', '.join(summary.left_out)}")
    if summary.stopped:
        lines.append(f"the run stopped early: {summary.stopped}")
    lines.append(f"results: {summary.run_dir / RESULTS}")
    lines.append(f"read them: {report_command(summary.run_dir)}  (add --html report.html for "
                 "screenshots and timelines)")
    return lines
