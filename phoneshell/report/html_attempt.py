"""One attempt in the HTML report: the instruction, the claim (marked when the phone's grade
disagrees with it), each check with its detail, the action timeline from audit.jsonl, and the
final screenshot, saved as a file in a folder beside the page.

Screenshots are files, not data URIs: embedded, 160 attempts made a 9 MB page that a browser
parses whole before it shows anything; as files at full resolution the page stays small, loads
them lazily, and small text on the screen stays readable (scaling down would need an image
library and blur the evidence a person checks the grade against).

Every piece of text read from a run folder goes through `h` (escaped); nothing here fetches
anything beyond the screenshots folder, so the page makes no other request when opened.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from phoneshell.audit import Action
from phoneshell.checks.tapped_names import target_named
from phoneshell.errors import EvidenceError
from phoneshell.evidence import load_evidence
from phoneshell.records import write_text_atomic
from phoneshell.report.escape import h
from phoneshell.report.runs import TIMELINE_LINES, Attempt, RunRecord
from phoneshell.report.tally import claim_disagreement

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
PARAMS_SHOWN = 160
"""Characters of an action's parameters shown in the timeline before it is cut."""


@dataclass(frozen=True)
class ScreenshotFolder:
    """The folder beside the HTML page its screenshots are written to."""

    path: Path

    def save(self, name: str, png: bytes) -> str:
        """Write one screenshot; return its `src`, relative to the page."""
        self.path.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self.path / name, png)
        return f"{self.path.name}/{name}"


def anchor(run_index: int, task_id: str, number: int) -> str:
    """The element id of an attempt's section (ids allow only a few characters)."""
    return f"a{run_index}-{re.sub(r'[^A-Za-z0-9_.-]', '_', task_id)}-{number}"


def _short_type(element_type: str) -> str:
    return element_type.removeprefix("XCUIElementType")


def _target(action: Action) -> str:
    if action.target is None:
        return ""
    t = action.target
    name = t.label or t.name
    # one with neither (a picker wheel) as checks name it: by its value, never a typed one
    return f"{_short_type(t.type)} {name!r}" if name else target_named(t, 60)


def _params(action: Action) -> str:
    text = ", ".join(f"{k}={v}" for k, v in action.params.items())
    return text if len(text) <= PARAMS_SHOWN else text[:PARAMS_SHOWN] + "..."


def _ok(action: Action) -> tuple[str, str]:
    if action.ok is None:
        return "unknown", "no outcome logged"
    return ("ok", "ok") if action.ok else ("bad", f"failed: {action.error}")


def _cut_html(run: RunRecord, attempt: Attempt) -> str:
    """Says how many lines of the attempt's log the timeline leaves out ("" when none)."""
    cut = run.cut.get((attempt.task_id, attempt.number), 0)
    return (f'<p class="none">and {cut:,} more line(s) of its log, not shown (a report keeps '
            f"the first {TIMELINE_LINES:,} of an attempt)</p>" if cut else "")


def timeline_html(actions: tuple[Action, ...]) -> str:
    """The action timeline as a table (phase, kind, parameters, target, apps, outcome)."""
    if not actions:
        return '<p class="none">no action was logged for this attempt</p>'
    rows = []
    for a in actions:
        css, ok = _ok(a)
        rows.append(
            f'<tr class="phase-{h(a.phase)}"><td>{a.seq}</td><td>{h(a.phase)}</td>'
            f"<td>{h(a.kind)}</td><td>{h(_params(a))}</td><td>{h(_target(a))}</td>"
            f"<td>{_apps(a)}</td><td class=\"{css}\">{h(ok)}</td></tr>")
    return ('<table class="timeline"><thead><tr><th>#</th><th>phase</th><th>kind</th>'
            "<th>parameters</th><th>target</th><th>app before &rarr; after</th><th>outcome</th>"
            "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


def _apps(action: Action) -> str:
    if not (action.app_before or action.app_after):
        return ""
    return f"{h(action.app_before or '?')} &rarr; {h(action.app_after or '?')}"


def checks_html(attempt: Attempt) -> str:
    """Each check of the counted row, passed or failed, with its detail."""
    row = attempt.row
    if not row.checks:
        return '<p class="none">no check was graded</p>'
    items = "".join(
        f'<tr class="{"pass" if c.passed else "fail"}"><td>{"passed" if c.passed else "failed"}'
        f"</td><td>{h(c.label or c.kind)}</td><td>{h(c.detail)}</td></tr>" for c in row.checks)
    return ('<table class="checks"><thead><tr><th></th><th>check</th><th>detail</th></tr>'
            f"</thead><tbody>{items}</tbody></table>")


def claim_html(attempt: Attempt) -> str:
    """The agent's claim in full (marked when the grade disagrees), or that it made none."""
    claim = attempt.row.claim
    if claim is None:
        return '<p class="claim none">the agent reported no claim</p>'
    parts = [f'<dt>status</dt><dd class="claim-status">{h(claim.status)}</dd>']
    if claim.answer:
        parts.append(f'<dt>answer</dt><dd class="claim-answer">{h(claim.answer)}</dd>')
    if claim.summary:
        parts.append(f'<dt>summary</dt><dd class="claim-summary">{h(claim.summary)}</dd>')
    disagrees = claim_disagreement(attempt.row)
    mark = (f'<p class="claim-disagrees">{h(disagrees)}: the agent said {h(claim.status)}, '
            f"the phone graded the attempt {h(attempt.row.outcome)}</p>" if disagrees else "")
    return f'{mark}<dl class="claim">{"".join(parts)}</dl>'


NOTED_FLAGS = {"clock_still": "the phone's clock stood still (phoneshell's simulated iPhone: "
                              "its time moves only when told), so a running timer shows where "
                              "it started",
               "unlocked": "the phone had locked itself during the agent's turn (Auto-Lock ran "
                           "out) and was unlocked to capture the screen the agent left"}
"""Flags that describe the phone, not a doubt about the evidence: said in words, not flagged."""


def screenshot_html(run: RunRecord, attempt: Attempt, folder: ScreenshotFolder,
                    name: str) -> str:
    """The final screenshot (written to `folder` as `name`), the evidence flags, or why there
    is none."""
    if not attempt.row.evidence:
        return '<p class="none">no evidence was captured (the attempt ended before capture)</p>'
    try:
        evidence = load_evidence(run.run_dir / attempt.row.evidence)
    except EvidenceError as exc:
        return f'<p class="bad">the evidence cannot be read: {h(exc.message)}</p>'
    out = ""
    flags = sorted(evidence.all_flags())
    warnings = [flag for flag in flags if flag not in NOTED_FLAGS]
    if warnings:
        out += f'<p class="flags bad">evidence flags: {h(", ".join(warnings))}</p>'
    out += "".join(f'<p class="noted">{h(NOTED_FLAGS[flag])}</p>' for flag in flags
                   if flag in NOTED_FLAGS)
    png = evidence.screenshot_png
    if png is None:
        return out + '<p class="none">no screenshot was captured</p>'
    if not png.startswith(PNG_MAGIC):
        return out + '<p class="bad">the screenshot file is not a PNG</p>'
    src = folder.save(name, png)
    return (out + f'<img class="screenshot" loading="lazy" alt="final screenshot of '
            f'{h(attempt.task_id)} #{attempt.number}" src="{h(src)}">')


def attempt_html(run: RunRecord, run_index: int, attempt: Attempt,
                 shots: ScreenshotFolder) -> str:
    """The whole section of one attempt: a <details>, open when the attempt failed (that is
    what a reader came for), its summary line marking a claim the grade disagrees with."""
    row = attempt.row
    task = run.task(attempt.task_id)
    instruction = (f'<p class="instruction">{h(task.instruction)}</p>' if task else
                   '<p class="instruction none">instruction not shown: the task file is missing '
                   "or changed since the run</p>")
    extra = []
    if row.skipped:
        extra.append(f'<p class="skip">not scored: {h(row.skip_reason)}</p>')
    if row.timed_out or row.out_of_turns:
        extra.append('<p class="bad">ran out of '
                     f'{"time" if row.timed_out else "turns"}: this attempt cannot pass</p>')
    if row.error:
        extra.append(f'<p class="error">agent error: {h(row.error)}</p>')
    extra += [f'<p class="noted">harness note: {h(note)}</p>' for note in row.notes]
    if not row.teardown.ok:
        extra.append(f'<p class="bad">teardown failed: {h(row.teardown.error)}</p>')
    if row.teardown.switched:
        extra.append('<p class="error">Settings values the agent changed: '
                     f'{h("; ".join(row.teardown.switched))}</p>')
    extra += [f'<p class="superseded">an earlier try was not scored and was run again: '
              f"{h(r.skip_reason)}</p>" for r in attempt.superseded]
    where = anchor(run_index, row.task_id, row.attempt)
    disagrees = claim_disagreement(row)
    badge = f' &middot; <span class="claim-disagrees">{h(disagrees)}</span>' if disagrees else ""
    opened = " open" if row.outcome == "failed" else ""
    return (
        f'<details class="attempt {h(row.outcome)}" id="{where}"{opened}>'
        f"<summary>{h(row.task_id)} #{row.attempt} &middot; {h(run.label)} &middot; "
        f'<span class="outcome">{h(row.outcome)}</span> &middot; {row.seconds:.1f}s, '
        f"{row.turns} turn(s){badge}</summary>"
        f"<h4>Instruction</h4>{instruction}{''.join(extra)}"
        f"<h4>Claim</h4>{claim_html(attempt)}"
        f"<h4>Checks</h4>{checks_html(attempt)}"
        f"<h4>Timeline</h4>{timeline_html(run.timeline(attempt))}{_cut_html(run, attempt)}"
        f"<h4>Final screen</h4>{screenshot_html(run, attempt, shots, f'{where}.png')}"
        "</details>")
