"""What a run prints: a line per attempt as it ends, the closing lines, and the commands that
continue and read a run."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING

from phoneshell.errors import shown_url
from phoneshell.percent import bound, percent
from phoneshell.records import ResultRow, plain
from phoneshell.records.layout import RESULTS
from phoneshell.untrusted import tidy_lines

if TYPE_CHECKING:  # the run's summary is made by run.py, which prints with these
    from phoneshell.report.tally import AgentNumbers
    from phoneshell.runner.run import RunSummary


def resume_command(runs_dir: Path, run_id: str, device: str | None = None,
                   sandbox: str = "auto") -> str:
    """The command that continues a run: with the --runs, --device and --sandbox it was given
    (each when not the default), which a resume does not take from run.json (red team 105: the
    hint of a run on a URL, pasted as printed, started a simulator and was refused)."""
    hidden = bool(device) and "://" in str(device) and \
        shown_url(str(device)) != str(device).rstrip("/")
    given = [("--runs", str(runs_dir)) if runs_dir != Path("runs") else None,
             ("--device", device) if device and not hidden else None,
             ("--sandbox", sandbox) if sandbox != "auto" else None]
    options = "".join(f" {flag} {shlex.quote(value)}" for flag, value in filter(None, given))
    if hidden:  # its path may be the phone's secret: the run's output never shows it
        return (f"phoneshell run --resume {shlex.quote(run_id)}{options} --device URL (the URL "
                "the run was given, not shown here: its path may be the phone's secret)")
    return f"phoneshell run --resume {shlex.quote(run_id)}{options}"


def report_command(run_dir: Path) -> str:
    """The command that reads a run's results."""
    return f"phoneshell report {run_dir}"


INDENT = " " * 8
QUOTED = "| "
"""Before each line of a reason after its first: text the harness quotes (an agent's stderr, a
traceback), never its own line."""


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
    # a reason may span lines (a traceback's end, an agent's stderr): keep each under the
    # attempt it belongs to, its white space single, so no run of spaces wraps an agent's words
    # to a row's start, and each line after a reason's first marked as quoted, so none reads as
    # the harness's own (red team 121: an agent's "1 attempt(s): 1 passed" was the first such
    # line a reader or a grep of the output found)
    return line + "".join(f"\n{INDENT}{QUOTED if i else ''}{part}" for reason in reasons
                          for i, part in enumerate(tidy_lines(reason)))


def _numbers(summary: RunSummary) -> AgentNumbers:
    if summary.numbers is None:
        raise ValueError(f"run {summary.run_id} has not ended: it has no closing numbers")
    return summary.numbers


def summary_document(summary: RunSummary) -> dict[str, object]:
    """`phoneshell run --format json`: the run's numbers over its whole record (as
    `phoneshell report` counts them) and the row that counts for each attempt recorded, a
    resumed run's earlier ones included; `this_session` says how many this session ran."""
    n = _numbers(summary)
    return {"run_id": summary.run_id, "run_dir": str(summary.run_dir), "planned": n.planned,
            "attempts": n.attempts, "passed": n.passed, "failed": n.failed,
            "skipped": n.skipped, "not_run": n.not_run, "pass_rate": n.pass_rate,
            "pass_floor": n.pass_floor, "stopped": summary.stopped,
            "left_out": plain(n.left_out), "already_scored": summary.already_scored,
            "this_session": len(summary.rows), "report": report_command(summary.run_dir),
            "rows": plain([a.row for a in summary.record.attempts] if summary.record else [])}


def summary_lines(summary: RunSummary) -> list[str]:
    """The closing lines, counted over the run's whole record (`summary.numbers`: results.jsonl
    over run.json's plan, as `phoneshell report` counts it), never over this session's attempts
    alone: a resumed run's earlier failures stay in its rate. Then skip reasons, what the
    session ran, the task files left out, where the files are."""
    n = _numbers(summary)
    rate = f" ({percent(n.passed / n.scored, 0)} of scored)" if n.scored else ""
    lines = [f"{n.attempts} attempt(s): {n.passed} passed, {n.failed} failed, {n.skipped} "
             f"skipped{rate}"]
    if n.not_run:
        lines.append(f"  {n.not_run} of the {n.planned} planned never run")
    if n.planned > n.scored:  # what no skip, and no attempt left unrun, can raise: a floor,
        # so rounded down (2/3 is "at least 66%"), never up past the worst case it states
        lines.append(f"  at least {bound(n.passed / n.planned, 'low', 0)}% of the {n.planned} "
                     "planned: every attempt not scored counted as failed")
    if summary.already_scored:
        lines.append(f"  {summary.already_scored} attempt(s) were already scored and not run "
                     f"again; this session ran {len(summary.rows)}")
    lines += [f"  skipped ({count}): {reason}" for reason, count in n.skip_reasons.items()]
    if n.left_out:
        lines.append(f"left out {len(n.left_out)} task file(s) with errors (listed above): "
                     f"{', '.join(out.file for out in n.left_out)}")
    if summary.stopped:
        lines.append(f"the run stopped early: {summary.stopped}")
    lines.append(f"results: {summary.run_dir / RESULTS}")
    lines.append(f"read them: {report_command(summary.run_dir)}  (add --html report.html for "
                 "screenshots and timelines)")
    return lines
