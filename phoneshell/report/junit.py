"""JUnit XML for CI systems: one test suite per run, one test case per attempt.

The file's verdict is the report's exit code: CI gates on failures and errors, so everything
that keeps a run from passing is one or the other, and a run that cannot pass never reads
green. A failed attempt is a `<failure>` carrying every check with its detail (the agent's
failure); one not scored is an `<error type="not scored">` with the reason, and a planned one
never run an `<error type="not run">` (the rig's or the run's error, never the agent's failure,
and never a `<skipped>`, which CI reads as green: an agent that left the phone so later attempts
could not be scored would pass there). A task file the run left out for errors is an `<error>`
case too, as is a run the report could not read, one whose files do not match its seal (read
with `--unverified`: a case `unverified`), and one whose results record attempts it never
planned (a case `not planned`: such a row is never a passing case). The claim goes to
`<system-out>`. Every warning the text report gives of a run is in its suite too, each a
`<property name="warning">` and a line of the suite's `<system-err>` (the warnings of no one
run, such as a comparison's, in every suite), so the file says all the text says: a run still
being written, or not tamper-proof, or edited, says so where CI reads it.

Text from agents and devices is written as the terminal shows it (red team 137: a CI step that
prints the file when its publish step fails ran an agent's `##vso[task.complete
result=Succeeded;]`, and a carriage return or U+202E drew another line's words): every string
through `untrusted.visible`, then `xml_safe` (`_x`), and in element text each line of a
multi-line value after its first behind `| `, as the run's progress lines quote it, its white
space single (`_lines`): no line of agent text starts a line of the file. ElementTree then
escapes it for XML.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from phoneshell.report.escape import xml_safe
from phoneshell.report.runs import Attempt, RunRecord
from phoneshell.report.tally import Report, Unreadable
from phoneshell.runner.lines import QUOTED
from phoneshell.untrusted import tidy_lines, visible


def _x(text: str) -> str:
    """Any text for the file, as the terminal shows it: escapes for what would act or hide
    (`visible`), then for what XML cannot hold."""
    return xml_safe(visible(text))


def _lines(entries: Sequence[str]) -> str:
    """Element text of `entries`, one line each begun by the harness's own words: each shown
    as `_x` does, its white space single, and its lines after the first behind `| `."""
    return "\n".join(f"{QUOTED if i else ''}{part}" for entry in entries
                     for i, part in enumerate(tidy_lines(_x(entry))))


def _case(suite: ET.Element, attempt: Attempt) -> None:
    row = attempt.row
    case = ET.SubElement(suite, "testcase", classname=_x(row.task_id),
                         name=_x(f"{row.task_id} #{row.attempt}"),
                         time=f"{row.seconds:.3f}")
    if row.skipped:
        ET.SubElement(case, "error", type="not scored",
                      message=_x(f"not scored: {row.skip_reason}"))
    elif not row.passed:
        failed = [c for c in row.checks if not c.passed]
        why = ("ran out of time" if row.timed_out else "ran out of turns" if row.out_of_turns
               else "; ".join(c.label or c.kind for c in failed) or "no check passed")
        failure = ET.SubElement(case, "failure", message=_x(why), type="failed")
        failure.text = _lines(
            [f"{'passed' if c.passed else 'FAILED'}  {c.label or c.kind}: {c.detail}"
             for c in row.checks] + ([f"agent error: {row.error}"] if row.error else []))
    out = []
    if row.claim is not None:
        out.append(f"claim: {row.claim.status}")
        out += [f"answer: {row.claim.answer}"] if row.claim.answer else []
        out += [f"summary: {row.claim.summary}"] if row.claim.summary else []
    else:
        out.append("claim: none")
    out += [f"superseded try: {r.skip_reason}" for r in attempt.superseded]
    if not row.teardown.ok:
        out.append(f"teardown failed: {row.teardown.error}")
    ET.SubElement(case, "system-out").text = _lines(out)


def _not_run(suite: ET.Element, task_id: str, number: int, writer: str) -> None:
    """A planned attempt with no row: an error, "not run" (never a failure, never left out);
    of a run still being written (`writer`), not yet run, never "cut short"."""
    case = ET.SubElement(suite, "testcase", classname=_x(task_id),
                         name=_x(f"{task_id} #{number}"), time="0.000")
    why = (f"not yet run: the run was still being written, by {writer}, when this report was "
           "made" if writer else "not run: the run stopped or was cut short before this attempt")
    ET.SubElement(case, "error", type="not run", message=_x(why))


def _left_out(suite: ET.Element, file: str, errors: Sequence[str]) -> None:
    """A task file the run left out for errors: an error, none of its tasks run."""
    case = ET.SubElement(suite, "testcase", classname="left-out", name=_x(file),
                         time="0.000")
    error = ET.SubElement(case, "error", type="task file error",
                          message=_x(f"left out for errors: {errors[0] if errors else ''}"))
    error.text = _lines(errors)


def _run_error(suite: ET.Element, name: str, kind: str, message: str,
               lines: Sequence[str] = ()) -> None:
    """A case for what keeps a run from passing that is no attempt of it."""
    case = ET.SubElement(suite, "testcase", classname=kind, name=_x(name), time="0.000")
    error = ET.SubElement(case, "error", type=kind, message=_x(message))
    if lines:
        error.text = _lines(lines)


def _run_errors(run: RunRecord) -> list[tuple[str, str, list[str]]]:
    """The run's errors that are no attempt of it: (kind, message, lines) each."""
    errors: list[tuple[str, str, list[str]]] = []
    if not run.planned:  # a run of nothing passed nothing: `all_passed` says so too
        errors.append(("nothing planned", "the run planned no attempt", []))
    if run.problems:
        errors.append(("unverified", f"UNVERIFIED: {len(run.problems)} file(s) do not match the "
                       "run's seal; its cases are the files' word only", list(run.problems)))
    if run.unplanned:
        errors.append(("not planned", f"{len(run.unplanned)} recorded attempt(s) run.json does "
                       "not plan, not counted: the run cannot pass",
                       [f"{a.task_id} #{a.number}: {a.row.outcome}" for a in run.unplanned]))
    return errors


def _warnings(suite: ET.Element, warnings: Sequence[str]) -> None:
    """The report's warnings of this suite: a property each, and the suite's system-err."""
    if not warnings:
        return
    properties = ET.Element("properties")
    for warning in warnings:
        ET.SubElement(properties, "property", name="warning", value=_x(warning))
    suite.insert(0, properties)
    ET.SubElement(suite, "system-err").text = _lines([f"warning: {w}" for w in warnings])


def junit_xml(runs: Sequence[RunRecord], unreadable: Sequence[Unreadable] = (),
              warnings: Sequence[str] = ()) -> ET.ElementTree:
    """The JUnit document of these runs: every planned attempt is a case, the ones not scored
    or never run errors, so the file fails exactly when the report exits non-zero
    (`tally.all_passed`), and a run cut short never looks like a smaller run that passed.
    `warnings` are the report's (`Report.warnings`): each run's own go in its suite, the rest
    in every suite."""
    root = ET.Element("testsuites", name="phoneshell")
    own = {w for run in runs for w in run.warnings}
    shared = [w for w in warnings if w not in own]
    for run in runs:
        rows = [a.row for a in run.attempts]
        never = run.not_run()
        left_out = run.manifest.left_out
        errors = _run_errors(run)
        suite = ET.SubElement(
            root, "testsuite", name=_x(run.label),
            tests=str(len(rows) + len(never) + len(left_out) + len(errors)),
            failures=str(sum(1 for r in rows if not r.skipped and not r.passed)),
            skipped="0", errors=str(sum(r.skipped for r in rows) + len(never) + len(left_out)
                                    + len(errors)),
            time=f"{sum(r.seconds for r in rows):.3f}")
        for attempt in run.attempts:
            _case(suite, attempt)
        for task_id, number in never:
            _not_run(suite, task_id, number, run.writer)
        for out in left_out:
            _left_out(suite, out.file, out.errors)
        for kind, message, lines in errors:
            _run_error(suite, run.label, kind, message, lines)
        _warnings(suite, [*run.warnings, *shared])
    for gone in unreadable:
        suite = ET.SubElement(root, "testsuite", name=_x(gone.run_dir), tests="1",
                              failures="0", skipped="0", errors="1", time="0.000")
        _run_error(suite, gone.run_dir, "unreadable", f"not counted: {gone.error}")
    for count in ("tests", "failures", "skipped", "errors"):
        root.set(count, str(sum(int(s.get(count, "0")) for s in root)))
    tree = ET.ElementTree(root)
    ET.indent(tree)
    return tree


def write_junit(report: Report, runs: Sequence[RunRecord], path: Path) -> None:
    """Write the JUnit XML file: one test case per attempt, and one per run the report could
    not read (`report.unreadable`)."""
    junit_xml(runs, report.unreadable, report.warnings).write(path, encoding="utf-8",
                                                              xml_declaration=True)
