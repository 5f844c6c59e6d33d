"""The terminal report: per agent the pass rate with its interval, skips with reasons, claims
against grades, per tag; then each pair of runs compared. Lines only, no colour.
"""

from __future__ import annotations

from phoneshell.percent import bound, percent
from phoneshell.report.compare import Comparison
from phoneshell.report.tally import AgentNumbers, Report, TagCell, TagNumbers
from phoneshell.tasks.tags import CAPABILITY


def pct(value: float | None) -> str:
    """A fraction as a percentage with one decimal ("n/a" when there is none), never 100.0%
    short of all nor 0.0% above none (`phoneshell.percent`)."""
    return percent(value)


def interval(ci: tuple[float, float] | None) -> str:
    """A Wilson interval as "95% CI 12.3-45.6%", each bound rounded away from the rate
    (`phoneshell.percent.bound`: the low end down, the high end up, never moved to 0.1% as a
    rate is; 1 in 1000 is "0.01-0.6%"), so the printed interval holds the true one."""
    return "" if ci is None else f"95% CI {bound(ci[0], 'low')}-{bound(ci[1], 'high')}%"


def fraction(part: int, whole: int, value: float | None) -> str:
    """"3/8 = 37.5%", or "0/0 (no rate)"."""
    return f"{part}/{whole} = {pct(value)}" if whole else f"{part}/0 (no rate)"


def at_least(part: int, whole: int, value: float | None) -> str:
    """"2/3 = 66.6%" for a rate that is a floor (`pass_floor`): rounded down, as every lower
    bound is, so "at least" never claims more than part/whole ("0/0 (no rate)" for none)."""
    if not whole or value is None:
        return f"{part}/{whole} (no rate)"
    return f"{part}/{whole} = {bound(value, 'low')}%"


def not_scored(skipped: int, not_run: int, planned: int) -> str:
    """", 1 skipped, 2 never run (of 8 planned)" ("" when every planned attempt was scored)."""
    parts = [f"{skipped} skipped"] * bool(skipped) + [f"{not_run} never run"] * bool(not_run)
    return f", {', '.join(parts)} (of {planned} planned)" if parts else ""


def tag_cell(cell: TagCell) -> str:
    """One run's numbers on a tag: "3/4 = 75.0%  95% CI ..., 1 skipped (of 5 planned)", and
    what the row may miss: "; may miss 2 planned attempt(s) of tasks whose tags are not
    known"."""
    return (fraction(cell.passed, cell.scored, cell.pass_rate)
            + (f"  {interval(cell.ci95)}" if cell.ci95 else "")
            + not_scored(cell.skipped, cell.not_run, cell.planned)
            + (f"; may miss {cell.unknown} planned attempt(s) of tasks whose tags are not known"
               if cell.unknown else ""))


def _agent_lines(n: AgentNumbers) -> list[str]:
    lines = [f"{n.agent} @ {n.run_id}  ({n.run_dir})", f"  graded by {n.grader}",
             *(f"  {program}" for program in n.programs), f"  on {n.phones}",
             f"  attempts {n.attempts} of {n.planned} planned: {n.scored} scored, "
             f"{n.skipped} skipped (not scored), {n.not_run} "
             + ("not yet run (still being written)" if n.still_written else "never run")]
    if n.unverified:
        lines.insert(1, f"  UNVERIFIED: {n.unverified} file(s) do not match the run's seal, so "
                        "these numbers are the files' word only, and the run cannot pass")
    if n.unplanned:
        lines.append(f"  {n.unplanned} recorded attempt(s) run.json does not plan, in no count "
                     "(never passed), so the run cannot pass")
    if n.scored:
        lines.append(f"  passed {fraction(n.passed, n.scored, n.pass_rate)} of scored  "
                     f"({interval(n.ci95)})")
    else:
        lines.append("  passed: no attempt was scored, so there is no pass rate")
    if n.planned > n.scored:
        lines.append(f"  passed {at_least(n.passed, n.planned, n.pass_floor)} of planned (at "
                     "least: every attempt not scored counted as failed, which no skip can raise)")
    for reason, count in n.skip_reasons.items():
        lines.append(f"  skipped ({count}): {reason}")
    if n.left_out:
        lines.append(f"  left out {len(n.left_out)} task file(s) with errors, none of their "
                     "tasks run nor counted, so the run cannot pass: "
                     + ", ".join(out.file for out in n.left_out))
    if n.superseded:
        lines.append(f"  {n.superseded} skipped row(s) replaced by a later try (--resume); the "
                     "last row of each attempt counts")
    if n.timed_out or n.out_of_turns:
        lines.append(f"  ran out of time {n.timed_out}, out of turns {n.out_of_turns} "
                     "(these never pass)")
    lines.append(f"  claims (scored attempts): {n.claimed_done} done, {n.claimed_gave_up} gave "
                 f"up, {n.claimed_failed} failed, {n.no_claim} with no claim")
    lines.append("    claimed success but failed: "
                 f"{fraction(n.false_claims, n.with_claim, n.false_claim_rate)}")
    lines.append("    claimed failure but passed: "
                 f"{fraction(n.missed_claims, n.with_claim, n.missed_claim_rate)}")
    return lines


def _tag_lines(tags: tuple[TagNumbers, ...], capability: bool) -> list[str]:
    chosen = [t for t in tags if t.capability == capability]
    if not chosen:
        return []
    names = [t.tag.removeprefix(CAPABILITY) if capability else t.tag for t in chosen]
    width = max(len(name) for name in names) + 2
    lines = ["by capability:" if capability else "by tag:"]
    for tag, name in zip(chosen, names, strict=True):
        for cell in tag.agents:
            lines.append(f"  {name:<{width}} {cell.agent} @ {cell.run_id}: {tag_cell(cell)}")
            name = ""
    return lines


def tasks_line(c: Comparison) -> str:
    """What the test counts: "by task (each counts once, however often it was repeated): A
    ahead on 1, B on 0, even on 3 of 4"."""
    return (f"by task (each counts once, however often it was repeated): A ahead on "
            f"{c.tasks_ahead_a}, B on {c.tasks_ahead_b}, even on {c.tasks_even} of "
            f"{c.paired_tasks}")


def _comparison_lines(c: Comparison) -> list[str]:
    lines = [f"paired: A = {c.a}  vs  B = {c.b}",
             f"  {c.pairs} pair(s) (same task, task file and attempt, scored in both); "
             f"{c.unpaired} left out (skipped or missing in one)"
             + (f"; {c.apart} left apart (not the same task: another version of its file or "
                "another kind of phone)" if c.apart else ""),
             f"  both passed {c.both_passed}, only A {c.only_a}, only B {c.only_b}, neither "
             f"{c.neither}",
             f"  {tasks_line(c)}",
             f"  {c.conclusion}"]
    if not c.same_grader:
        lines.insert(1, f"  GRADED BY DIFFERENT PHONESHELLS: {c.graders}")
    width = max(len(t.task_id) for t in c.per_task) + 2
    lines.append(f"  {'task':<{width}} both  only A  only B  neither  ahead")
    lines += [f"  {t.task_id:<{width}} {t.both_passed:>4}  {t.only_a:>6}  {t.only_b:>6}  "
              f"{t.neither:>7}  {t.ahead or '='}" for t in c.per_task]
    return lines


def render_text(report: Report) -> str:
    """The whole terminal report."""
    lines: list[str] = []
    for run in report.unreadable:
        lines += [f"{run.run_dir}  UNREADABLE, not counted: {run.error}", ""]
    for agent in report.agents:
        lines += [*_agent_lines(agent), ""]
    for capability in (True, False):
        tag_lines = _tag_lines(report.tags, capability)
        if tag_lines:
            lines += [*tag_lines, ""]
    for comparison in report.comparisons:
        lines += [*_comparison_lines(comparison), ""]
    lines += [f"warning: {w}" for w in report.warnings]
    return "\n".join(lines).rstrip("\n") + "\n"
