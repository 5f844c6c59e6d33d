"""One attempt in the HTML report: the instruction, the claim, each check with its detail, the
action timeline from audit.jsonl, and the final screenshot embedded as a data URI.

Every piece of text read from a run folder goes through `h` (escaped); nothing here fetches
anything, so the page makes no request when opened.
"""

from __future__ import annotations

import base64
import re

from phoneshell.audit import Action
from phoneshell.errors import EvidenceError
from phoneshell.evidence import load_evidence
from phoneshell.report.escape import h
from phoneshell.report.runs import Attempt, RunRecord

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
PARAMS_SHOWN = 160
"""Characters of an action's parameters shown in the timeline before it is cut."""


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
    return f"{_short_type(t.type)} {name!r}" if name else _short_type(t.type)


def _params(action: Action) -> str:
    text = ", ".join(f"{k}={v}" for k, v in action.params.items())
    return text if len(text) <= PARAMS_SHOWN else text[:PARAMS_SHOWN] + "..."


def _ok(action: Action) -> tuple[str, str]:
    if action.ok is None:
        return "unknown", "no outcome logged"
    return ("ok", "ok") if action.ok else ("bad", f"failed: {action.error}")


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
    """The agent's claim in full, or that it made none."""
    claim = attempt.row.claim
    if claim is None:
        return '<p class="claim none">the agent reported no claim</p>'
    parts = [f'<dt>status</dt><dd class="claim-status">{h(claim.status)}</dd>']
    if claim.answer:
        parts.append(f'<dt>answer</dt><dd class="claim-answer">{h(claim.answer)}</dd>')
    if claim.summary:
        parts.append(f'<dt>summary</dt><dd class="claim-summary">{h(claim.summary)}</dd>')
    return f'<dl class="claim">{"".join(parts)}</dl>'


def screenshot_html(run: RunRecord, attempt: Attempt) -> str:
    """The final screenshot as an embedded PNG, the evidence flags, or why there is none."""
    if not attempt.row.evidence:
        return '<p class="none">no evidence was captured (the attempt ended before capture)</p>'
    try:
        evidence = load_evidence(run.run_dir / attempt.row.evidence)
    except EvidenceError as exc:
        return f'<p class="bad">the evidence cannot be read: {h(exc.message)}</p>'
    out = ""
    flags = sorted(evidence.all_flags())
    if flags:
        out += f'<p class="flags">evidence flags: {h(", ".join(flags))}</p>'
    png = evidence.screenshot_png
    if png is None:
        return out + '<p class="none">no screenshot was captured</p>'
    if not png.startswith(PNG_MAGIC):
        return out + '<p class="bad">the screenshot file is not a PNG</p>'
    data = base64.b64encode(png).decode("ascii")
    return (out + f'<img class="screenshot" alt="final screenshot of {h(attempt.task_id)} '
            f'#{attempt.number}" src="data:image/png;base64,{data}">')


def attempt_html(run: RunRecord, run_index: int, attempt: Attempt) -> str:
    """The whole section of one attempt (a closed <details>, its summary line showing)."""
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
    if not row.teardown.ok:
        extra.append(f'<p class="bad">teardown failed: {h(row.teardown.error)}</p>')
    extra += [f'<p class="superseded">an earlier try was not scored and was run again: '
              f"{h(r.skip_reason)}</p>" for r in attempt.superseded]
    where = anchor(run_index, row.task_id, row.attempt)
    return (
        f'<details class="attempt {h(row.outcome)}" id="{where}">'
        f"<summary>{h(row.task_id)} #{row.attempt} &middot; {h(run.label)} &middot; "
        f'<span class="outcome">{h(row.outcome)}</span> &middot; {row.seconds:.1f}s, '
        f"{row.turns} turn(s)</summary>"
        f"<h4>Instruction</h4>{instruction}{''.join(extra)}"
        f"<h4>Claim</h4>{claim_html(attempt)}"
        f"<h4>Checks</h4>{checks_html(attempt)}"
        f"<h4>Timeline</h4>{timeline_html(run.timeline(attempt))}"
        f"<h4>Final screen</h4>{screenshot_html(run, attempt)}"
        "</details>")
