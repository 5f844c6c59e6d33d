"""The HTML report: one page (inline CSS, no script, no external request) with the summary
tables, the comparisons, and per task its pass matrix and attempts (html_attempt); the final
screenshots go to a folder beside it, `<page name>_files/`, which travels with the page.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from phoneshell import __version__
from phoneshell.records import write_text_atomic
from phoneshell.report.escape import h
from phoneshell.report.html_attempt import ScreenshotFolder, anchor, attempt_html
from phoneshell.report.runs import RunRecord
from phoneshell.report.tally import (
    FALSE_CLAIM,
    MISSED_CLAIM,
    Report,
    TagNumbers,
    TaskRow,
)
from phoneshell.report.text import at_least, fraction, interval, pct, tag_cell, tasks_line
from phoneshell.tasks.tags import CAPABILITY

CSS = """
body { font: 14px/1.45 -apple-system, system-ui, sans-serif; margin: 2em auto; max-width: 72em;
       padding: 0 1em; color: #1d1d1f; background: #fff; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ddd; margin-top: 2em; }
table { border-collapse: collapse; margin: .5em 0 1em; }
th, td { border: 1px solid #ddd; padding: .25em .5em; text-align: left; vertical-align: top; }
th { background: #f5f5f7; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.warnings li { color: #8a4b00; }
.matrix td { text-align: center; min-width: 2.2em; }
.matrix a { text-decoration: none; color: inherit; display: block; }
.matrix .passed, details.passed > summary { background: #d8f5dd; }
.matrix .failed, details.failed > summary { background: #fbdcdc; }
.matrix .skipped, details.skipped > summary { background: #ececec; }
.matrix .not_run { background: #fff; color: #999; }
.fail td:first-child, .bad { color: #b00020; } .pass td:first-child, .ok { color: #1b7f3b; }
.unknown, .none, .skip, .superseded, .noted { color: #666; }
details.attempt { border: 1px solid #ddd; border-radius: 6px; margin: .4em 0; padding: 0 .8em; }
details.attempt > summary { cursor: pointer; font-weight: 600; margin: 0 -.8em; padding: .3em .8em;
                            border-radius: 6px; }
.instruction { font-style: italic; }
dl.claim dt { font-weight: 600; } dl.claim dd { margin: 0 0 .4em 1.5em; white-space: pre-wrap; }
.timeline { font-size: 12px; } .timeline .phase-agent td:nth-child(2) { font-weight: 700; }
img.screenshot { max-height: 32em; border: 1px solid #ccc; border-radius: 12px; }
.conclusion { font-weight: 600; }
.claim-disagrees { color: #fff; background: #b00020; border-radius: 4px; padding: 0 .4em;
                   font-weight: 600; white-space: nowrap; }
p.claim-disagrees { display: inline-block; margin: .3em 0; white-space: normal; }
"""

AGENT_COLUMNS = ("agent", "run", "attempts", "scored", "passed", "pass rate", "95% CI",
                 "of planned, at least",
                 "skipped", "never run", FALSE_CLAIM, MISSED_CLAIM, "no claim", "timed out",
                 "out of turns", "graded by", "phones")


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], css: str) -> str:
    """A table; cells are given as HTML (callers escape what came from files)."""
    th = "".join(f"<th>{h(c)}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="{css}"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


def summary_html(report: Report) -> str:
    """One row per agent: attempts, rates, skips with reasons, claims against grades."""
    rows = []
    for n in report.agents:
        reasons = "; ".join(f"{h(reason)} ({count})" for reason, count in n.skip_reasons.items())
        marks = ([f"UNVERIFIED: {n.unverified} file(s) do not match its seal"] * bool(n.unverified)
                 + [f"{n.unplanned} attempt(s) run.json does not plan, not counted"]
                 * bool(n.unplanned)
                 + [f"still being written, by {n.still_written}"] * bool(n.still_written))
        rows.append([
            h(n.agent), h(n.run_id) + "".join(f'<br><b class="bad">{h(m)}</b>' for m in marks),
            str(n.attempts), str(n.scored), str(n.passed),
            h(pct(n.pass_rate)), h(interval(n.ci95).removeprefix("95% CI ")),
            h(at_least(n.passed, n.planned, n.pass_floor)),
            f"{n.skipped}" + (f": {reasons}" if reasons else ""), str(n.not_run),
            h(fraction(n.false_claims, n.with_claim, n.false_claim_rate)),
            h(fraction(n.missed_claims, n.with_claim, n.missed_claim_rate)),
            str(n.no_claim), str(n.timed_out), str(n.out_of_turns),
            h("; ".join((n.grader, *n.programs))), h(n.phones)])
    return ("<section id=\"summary\"><h2>Summary</h2>"
            "<p>Pass rates count scored attempts only: a skipped attempt (not scored) or one "
            "never run is not a failure and is never in the denominator. &ldquo;Of planned, at "
            "least&rdquo; counts every attempt not scored as failed: no skip can raise it. "
            "Claim rates are over scored attempts with a claim.</p>"
            + _table(AGENT_COLUMNS, rows, "summary") + "</section>")


def tags_html(tags: Sequence[TagNumbers], agents: Sequence[str]) -> str:
    """A table per kind of tag (capability, other): tags by runs, passed/scored each."""
    out = []
    for capability, title in ((True, "By capability"), (False, "By tag")):
        chosen = [t for t in tags if t.capability == capability]
        if not chosen:
            continue
        rows = []
        for tag in chosen:
            cells = {f"{c.agent} @ {c.run_id}": c for c in tag.agents}
            row = [h(tag.tag.removeprefix(CAPABILITY) if capability else tag.tag)]
            for label in agents:
                c = cells.get(label)
                row.append("" if c is None else h(tag_cell(c)))
            rows.append(row)
        out.append(f"<h3>{title}</h3>" + _table(["tag", *agents], rows, "tags"))
    return f'<section id="tags"><h2>Tags</h2>{"".join(out)}</section>' if out else ""


def comparisons_html(report: Report) -> str:
    """Each pair of runs: the four counts, the tasks each is ahead on, the sign test's p-value,
    and the per-task breakdown."""
    parts = []
    for c in report.comparisons:
        rows = [[h(t.task_id), str(t.both_passed), str(t.only_a), str(t.only_b), str(t.neither),
                 t.ahead or "="] for t in c.per_task]
        parts.append(
            f"<h3>A = {h(c.a)} vs B = {h(c.b)}</h3>"
            + ("" if c.same_grader else
               f'<p class="bad">Graded by different phoneshells: {h(c.graders)}.</p>')
            + f"<p>{c.pairs} pair(s) (same task, task file and attempt, scored in both), "
            f"{c.unpaired} left out"
            + (f", {c.apart} left apart as not the same task ({h(' | '.join(c.apart_tasks))})"
               if c.apart else "")
            + f". Both passed {c.both_passed}, only A {c.only_a}, only B {c.only_b}, neither "
            f"{c.neither}; {h(tasks_line(c))}; sign test p = {c.p_value:.3g}.</p>"
            f'<p class="conclusion">{h(c.conclusion)}</p>'
            + _table(["task", "both passed", "only A", "only B", "neither", "ahead"], rows,
                     "pairs"))
    if not parts:
        return ""
    return f'<section id="comparisons"><h2>Paired comparisons</h2>{"".join(parts)}</section>'


def _matrix(row: TaskRow, runs: Sequence[RunRecord]) -> str:
    width = max((len(c.outcomes) for c in row.runs), default=0)
    index = {r.label: i for i, r in enumerate(runs)}
    lines = []
    for cell in row.runs:
        i = index[f"{cell.agent} @ {cell.run_id}"]
        tds = []
        for n, outcome in enumerate(cell.outcomes, start=1):
            link = (f'<a href="#{anchor(i, row.task_id, n)}">{h(outcome)}</a>'
                    if outcome != "not_run" else "not run")
            tds.append(f'<td class="{h(outcome)}">{link}</td>')
        tds += ["<td></td>"] * (width - len(cell.outcomes))
        lines.append(f"<tr><th>{h(cell.agent)} @ {h(cell.run_id)}</th>{''.join(tds)}</tr>")
    head = "".join(f"<th>#{n}</th>" for n in range(1, width + 1))
    return (f'<table class="matrix"><thead><tr><th>agent @ run</th>{head}</tr></thead>'
            f"<tbody>{''.join(lines)}</tbody></table>")


def tasks_html(report: Report, runs: Sequence[RunRecord], shots: ScreenshotFolder) -> str:
    """Per task: its instruction and tags, the pass matrix, then each attempt in full."""
    parts = []
    for row in report.tasks:
        title = (f"{h(row.task_id)}" + (f" &mdash; {h(row.name)}" if row.name else "")
                 + (f" (task file {h(row.task_sha256[:12])}, one of {row.versions} versions)"
                    if row.versions > 1 else ""))
        about = (f'<p class="instruction">{h(row.instruction)}</p>' if row.instruction else
                 '<p class="none">the task file is missing or changed since the run</p>')
        if row.tags:
            about += f'<p class="tags">tags: {h(", ".join(row.tags))}</p>'
        attempts = "".join(attempt_html(run, i, a, shots) for i, run in enumerate(runs)
                           for a in run.attempts
                           if a.task_id == row.task_id and run.version(a) == row.task_sha256)
        parts.append(f'<article class="task"><h3>{title}</h3>{about}{_matrix(row, runs)}'
                     f"{attempts}</article>")
    return f'<section id="tasks"><h2>Tasks</h2>{"".join(parts)}</section>'


def render_html(report: Report, runs: Sequence[RunRecord], shots: ScreenshotFolder) -> str:
    """The whole report as one HTML document; screenshots are written to `shots` as it goes."""
    warnings = "".join([*(f"<li>{h(r.run_dir)} cannot be read, and is not counted: "
                          f"{h(r.error)}</li>" for r in report.unreadable),
                        *(f"<li>{h(w)}</li>" for w in report.warnings)])
    sources = ", ".join(h(run.run_dir) for run in runs)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>phoneshell report</title><style>{CSS}</style></head><body>"
        f"<h1>phoneshell report</h1><p class=\"meta\">runs: {sources} &middot; phoneshell "
        f"{h(__version__)}</p>"
        + (f'<ul class="warnings">{warnings}</ul>' if warnings else "")
        + summary_html(report) + tags_html(report.tags, [r.label for r in runs])
        + comparisons_html(report) + tasks_html(report, runs, shots) + "</body></html>\n")


def screenshots_folder(page: Path) -> Path:
    """Where the screenshots of the page at `page` go: `report_files/` beside `report.html`."""
    return page.with_name(f"{page.stem}_files")


def write_html(report: Report, runs: Sequence[RunRecord], path: Path) -> None:
    """Write the HTML report, and its screenshots into the folder beside it, each whole: a
    write refused half-way (a full disk, `ulimit -f`) leaves the page as it was, or none."""
    write_text_atomic(path, render_html(report, runs,
                                        ScreenshotFolder(screenshots_folder(path))))
