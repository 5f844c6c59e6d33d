"""How an attempt ends: its teardown and its results row, written from what it got to (`Played`);
and the row of an attempt the harness raised on anywhere past the guard of its phases (`fell`),
so every attempt gets a row. Never grades: the outcome of a scored attempt is decided before
this, and `fell` only fails it."""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

from phoneshell.agents import AgentResult
from phoneshell.evidence import Evidence
from phoneshell.grade import Verdict
from phoneshell.records import Outcome, ResultRow, Teardown, write_record
from phoneshell.records.layout import VERDICT
from phoneshell.runner import stop
from phoneshell.runner.around import AroundWatch
from phoneshell.runner.counts import Counts, after_teardown
from phoneshell.runner.folder import write_note
from phoneshell.runner.owner import OwnerWatch
from phoneshell.runner.plan import AttemptPlan, audit_slice, enter_phase
from phoneshell.runner.rig import Rig
from phoneshell.runner.setback import HeldBack
from phoneshell.runner.teardown import Left, run_teardown, teardown_readings
from phoneshell.runner.turn import beyond_grade, harness_failed, overrule
from phoneshell.untrusted import storable

NOT_RUN = Teardown(ok=False, error="not run")


@dataclass
class Played:
    """What one attempt got to, kept as it goes: whatever ends it, its row is written from this."""

    started: float
    """Unix time the attempt began."""
    mark: int
    """Where the attempt's slice of the audit log begins (`Rig.audit_mark`)."""
    watch: AroundWatch
    """What reached the phone around the bridge in the agent's turn (`runner.around`)."""
    result: AgentResult = field(default_factory=lambda: AgentResult(ran=False))
    verdict: Verdict | None = None
    graded: Verdict | None = None
    """What its evidence alone shows, before the run's own rules."""
    evidence: Evidence | None = None
    evidence_dir: str = ""
    skip_reason: str = ""
    error_type: str = ""
    over: str = ""
    """What the log shows of the agent's actions past its budget (`turn.measured`)."""
    rig_down: bool = False
    interrupted: bool = False
    in_turn: bool = False
    began: bool = False
    """The agent's turn began: from here a harness error fails the attempt, never skips it."""
    before: Counts = field(default_factory=dict)
    held: HeldBack | None = None
    """The phone's own states the agent changed, set back once (at capture)."""
    left: Left = Left()
    """What the agent left that the task's teardown does not undo, once read."""
    teardown: Teardown | None = None
    """Set once the teardown ended (None: it never ran, or raised)."""
    tidies: list[stop.Tidying] = field(default_factory=list)

    def stopped(self) -> bool:
        """Whether a stop signal ended it, or came during a teardown and was held till then."""
        return self.interrupted or any(tidy.held is not None for tidy in self.tidies)


def tear_down(plan: AttemptPlan, rig: Rig, p: Played, owner: OwnerWatch | None,
              after_agent: Callable[[Evidence | None], Left]) -> None:
    """Run the attempt's teardown (none on a rig that is down), then, with `owner`, compare the
    owner's collections its agent may have changed (`runner.owner`, which may fail or unscore
    the attempt); `after_agent` reads what the agent left."""
    task = plan.task
    # the teardown protects the phone (it deletes what the agent made): a first stop
    # signal waits for it, and is recorded after it; only a second one cuts it short
    with stop.tidying() as tidy:
        p.tidies.append(tidy)
        enter_phase(rig, plan, "teardown")
        if p.result.ran and not p.rig_down:
            p.left = after_agent(p.evidence)
        teardown = (Teardown(ok=False, error="not run: the rig is down") if p.rig_down else
                    run_teardown(rig.phone, task, plan.folder,
                                 teardown_readings(p.before, p.evidence), p.before, p.left,
                                 rig.device_start, p.evidence, p.held))
        after_teardown(rig, task, p.before, teardown)
        if owner is not None and p.result.ran and not (p.rig_down or p.interrupted):
            verdict = p.verdict
            teardown, p.verdict, p.skip_reason = owner.settle(
                task, p.evidence, teardown, verdict, p.skip_reason,
                lambda: audit_slice(rig, plan, p.mark)[0], f"{task.id} attempt {plan.attempt}",
                passes=verdict is not None and overrule(verdict, p.result, p.over).passed)
        elif owner is not None and not (p.rig_down or p.interrupted):
            # no agent ran, but its teardown may have dug out what an earlier agent planted
            owner.cleared(task, f"{task.id} attempt {plan.attempt}")
        rig.bridge.clear_context()
        p.teardown = teardown


def row_of(plan: AttemptPlan, agent: str, p: Played) -> ResultRow:
    """The results row of an attempt that ended as `p` says, its verdict (with the run's own
    rules: `turn.overrule`) written to verdict.json when it was scored."""
    task = plan.task
    distrusted = p.verdict.overruled if p.verdict is not None and not p.skip_reason else ""
    verdict = None
    if not p.skip_reason and p.verdict is not None:
        verdict = beyond_grade(p.graded, overrule(p.verdict, p.result, p.over))
        write_record(plan.folder / VERDICT, verdict)  # written once the outcome is known
    passed = verdict is not None and verdict.passed
    outcome: Outcome = "skipped" if verdict is None else "passed" if passed else "failed"
    result = p.result
    return ResultRow(
        run_id=plan.run_id, task_id=task.id, attempt=plan.attempt, agent=agent,
        outcome=outcome, passed=passed, skipped=verdict is None, skip_reason=p.skip_reason,
        checks=verdict.results if verdict else (), claim=result.claim, started_at=p.started,
        seconds=round(time.time() - p.started, 3), turns=result.turns,
        timed_out=result.timed_out, out_of_turns=result.out_of_turns,
        error="; ".join(e for e in (result.error, distrusted) if e),
        error_type=p.error_type, notes=result.notes, teardown=p.teardown or NOT_RUN,
        evidence=p.evidence_dir, task_sha256=task.sha256, device=plan.device)


def fell(plan: AttemptPlan, rig: Rig, agent: str, p: Played, exc: Exception) -> ResultRow:
    """The row of an attempt the harness raised on (`exc`) past the guard of its phases: in a
    handler of what ended them, in the teardown, or in making the row itself.

    As in the phases (`turn.harness_failed`): after the agent's turn began the attempt fails,
    since what raised may be the agent's doing (its claim, its folder's files, its screen),
    and before it the attempt is not scored. Never a missing row, which the run would leave
    out of its count and play again on `--resume`. The traceback goes to traceback.txt; a
    teardown that did not end is run again (`_teardown_again`). The row holds only what the
    harness made: what the agent returned (claim, turns) may be what raised."""
    write_note(plan.folder / "traceback.txt", traceback.format_exc())
    error_type = type(exc).__name__
    said = f"harness error ({error_type}): {storable(str(exc))[:300]}"
    if p.teardown is None:
        p.teardown = _teardown_again(plan, rig, p)
    if not p.began:
        return _fallen_row(plan, agent, p, None, f"{said}; see traceback.txt", error_type)
    verdict = beyond_grade(p.graded, harness_failed(plan.task.id, p.verdict, said))
    try:  # what raised may have been this very write (a folder where the file goes)
        write_record(plan.folder / VERDICT, verdict)
    except Exception as unwritten:  # noqa: BLE001 - said in the row, which is what must exist
        said = f"; its verdict.json could not be written ({type(unwritten).__name__})"
        return _fallen_row(plan, agent, p, verdict, "", error_type, said)
    return _fallen_row(plan, agent, p, verdict, "", error_type)


def _fallen_row(plan: AttemptPlan, agent: str, p: Played, verdict: Verdict | None,
                skip_reason: str, error_type: str, unwritten: str = "") -> ResultRow:
    """`fell`'s row: failed with `verdict`, or skipped for `skip_reason` (verdict None);
    `unwritten`: why its verdict.json is not there ("" when it is)."""
    return ResultRow(
        run_id=plan.run_id, task_id=plan.task.id, attempt=plan.attempt, agent=agent,
        outcome="skipped" if verdict is None else "failed", passed=False,
        skipped=verdict is None, skip_reason=skip_reason,
        checks=verdict.results if verdict else (), claim=None, started_at=p.started,
        seconds=round(time.time() - p.started, 3),
        error=(verdict.overruled if verdict else "") + unwritten, error_type=error_type,
        teardown=p.teardown or NOT_RUN, evidence=p.evidence_dir if verdict else "",
        task_sha256=plan.task.sha256, device=plan.device)


def _teardown_again(plan: AttemptPlan, rig: Rig, p: Played) -> Teardown:
    """The teardown, run again after it raised (or never ran), from what the harness read
    itself: the counts before the agent and what it left (`Played.left`), not the evidence
    (what raised may be in it). Never raises: what failed is the record."""
    if p.rig_down:
        return Teardown(ok=False, error="not run: the rig is down")
    try:
        with stop.tidying() as tidy:
            p.tidies.append(tidy)
            enter_phase(rig, plan, "teardown")
            teardown = run_teardown(rig.phone, plan.task, plan.folder,
                                    teardown_readings(p.before, None), p.before, p.left,
                                    rig.device_start)
            after_teardown(rig, plan.task, p.before, teardown)
            rig.bridge.clear_context()
            return teardown
    except Exception as exc:  # noqa: BLE001 - the row must still be written; this is its record
        write_note(plan.folder / "traceback.txt", traceback.format_exc())
        return Teardown(ok=False, error=f"not run whole: harness error ({type(exc).__name__}): "
                                        f"{storable(str(exc))[:300]}; see traceback.txt")
