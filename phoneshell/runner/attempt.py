"""One attempt: setup -> agent -> capture -> grade -> teardown, and one results row.

Everything acts through the bridge, each part under its phase (setup, agent, check, teardown),
so the audit log shows who did what; the agent is handed only the bridge's URL. The evidence
carries the attempt's slice of that log.

Only what the agent could have caused is scored. A locked phone, a setup step that did not take,
an app that is not installed or an agent that never ran make the attempt skipped, with the
reason. A rig that stops answering raises `RigDown` so the run stops instead of recording a
string of failures. A timed-out or out-of-turns attempt never passes. Teardown always runs and
its failure is recorded.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, replace
from pathlib import Path

from bridge import BridgeServer
from phoneshell.agents import Agent, AgentContext, AgentResult
from phoneshell.audit import audit_size, read_audit
from phoneshell.checks import Need
from phoneshell.device import (
    Phone,
    ProbeError,
    Readings,
    capture_evidence,
    cleanup_counts,
    needs_of,
    run_probe,
    run_step,
    run_steps,
    with_counts,
)
from phoneshell.device.input_probe import probe_input
from phoneshell.device.phone import SPRINGBOARD
from phoneshell.errors import RIG_DOWN, DeviceError, DeviceLocked, RunError, StepError
from phoneshell.evidence import Claim, DeviceRead, Evidence, ProbeReading, save_evidence
from phoneshell.grade import Verdict, grade
from phoneshell.records import AuditEvent, Outcome, ResultRow, Teardown, write_record
from phoneshell.tasks import Task


class RigDown(RunError):
    """The phone or WDA cannot run attempts any more; the run stops."""


@dataclass(frozen=True)
class Rig:
    """The phone as attempts use it: the bridge in front of it, and the harness's `Phone` on the
    bridge's URL (so the harness's own steps are logged too)."""

    bridge: BridgeServer
    phone: Phone

    def enter(self, plan: AttemptPlan, phase: str) -> None:
        """Log what comes next under this attempt and phase."""
        if "agent" in (phase, self.bridge.context.phase):
            # The agent acts through its own client: nothing the harness read before it holds.
            self.phone.forget()
        self.bridge.set_context(plan.run_id, plan.task.id, plan.attempt, phase)

    def audit_mark(self, plan: AttemptPlan) -> int:
        """Where the run's audit log ends now: this try's events all come after it (a retried
        attempt reuses its task and attempt number, but never its place in the log)."""
        return audit_size(plan.run_dir / "audit.jsonl")

    def audit_slice(self, plan: AttemptPlan, mark: int) -> tuple[AuditEvent, ...]:
        """This try's events in the run's audit log since `mark`, every phase so far.

        Other phones may be writing the same log; their lines carry other tasks. A line still
        being written by one of them is not ours: every action of this try was answered, so its
        outcome line was written, before this is read.
        """
        log = read_audit(plan.run_dir / "audit.jsonl", mark)
        return tuple(e for e in log.records if e.task_id == plan.task.id
                     and e.attempt == plan.attempt and e.run_id == plan.run_id)


@dataclass(frozen=True)
class AttemptPlan:
    """Which attempt to run, and where its files go."""

    run_id: str
    run_dir: Path
    task: Task
    attempt: int
    installed: frozenset[str] | None = None
    """Bundle ids installed on the phone, when the device can say (WDA cannot)."""
    device: str = ""
    """The label of the phone it runs on (recorded in the results row)."""

    @property
    def folder(self) -> Path:
        """attempts/<task_id>/<n>/ inside the run folder."""
        return self.run_dir / "attempts" / self.task.id / str(self.attempt)


class _Skip(Exception):
    """Not scored: the reason is the message."""


def require_rig(rig: Rig) -> None:
    """Raise `RigDown` when the phone is locked or input no longer reaches its screen.

    WDA answers 200 to every gesture on a locked phone or a wedged one, so an agent's failure
    there would be the rig's; it is checked before a failure is scored.
    """
    _require_unlocked(rig.phone)
    probe = probe_input(rig.phone, timeout_s=rig.phone.effect_timeout_s)
    if not probe.reached:
        raise RigDown(f"{probe.detail} (checked after the attempt failed)",
                      hint="`phoneshell doctor` checks the chain; a wedged phone needs a restart")


def _require_unlocked(phone: Phone) -> None:
    """A locked phone is the rig down, not a reason to skip one attempt."""
    try:
        phone.require_unlocked()
    except DeviceLocked as exc:
        raise RigDown(exc.message, hint=exc.hint) from exc


def _check_rig(phone: Phone, plan: AttemptPlan) -> None:
    _require_unlocked(phone)
    app = plan.task.app
    # WDA cannot tell an app that is not installed from one that is not running (and XCTest
    # can hang launching one), so the list comes from the device's own channel when it has one.
    if plan.installed is not None and app and app != SPRINGBOARD and app not in plan.installed:
        raise _Skip(f"{app} is not installed on this phone")


Counts = dict[Need, tuple[int | None, str]]


def _count(rig: Rig, needs: tuple[Need, ...]) -> Counts:
    """Take each count probe (phase `probe`); a failed probe gives None and its reason."""
    counts: Counts = {}
    for need in needs:
        try:
            value = run_probe(rig.phone, need.name, need.arg)
            counts[need] = (int(value), "")
        except ProbeError as exc:
            counts[need] = (None, exc.message)
    return counts


def _prepare(rig: Rig, plan: AttemptPlan) -> Counts:
    """Setup, then the "before" counts; setup runs again after them, so the probes' own taps
    cannot change where the agent starts. A count that cannot be taken before the agent acts
    skips the attempt: nothing the agent does could be judged against it."""
    task, phone = plan.task, rig.phone
    # the checks' counts, and those teardown deletes by (most often the same)
    counted = tuple(dict.fromkeys([*(n for n in needs_of(task.checks) if n.what == "probe"),
                                   *(Need("probe", *c) for c in cleanup_counts(task.teardown))]))
    rig.enter(plan, "setup")
    try:
        run_steps(phone, task.setup)
        if not counted:
            return {}
        rig.enter(plan, "probe")
        before = _count(rig, counted)
        missing = [why for value, why in before.values() if value is None]
        if missing:
            raise _Skip(f"a probe could not count before the agent acted: {missing[0]}")
        rig.enter(plan, "setup")
        run_steps(phone, task.setup)
    except StepError as exc:
        raise _Skip(f"setup failed: {exc}") from exc
    return before


def _capture(rig: Rig, plan: AttemptPlan, claim: Claim | None, before: Counts,
             mark: int) -> Evidence:
    """Capture the end state, then the "after" counts and device values, with the audit slice,
    noting an app change nobody logged."""
    known = rig.bridge.last_foreground
    needs = needs_of(plan.task.checks)
    evidence = capture_evidence(rig.phone, plan.task.id, needs, claim)
    flags = set(evidence.flags)
    # The bridge saw the foreground around the last logged action; a different app at capture,
    # with no action in between, means something drove the phone outside the bridge.
    if known and evidence.foreground and evidence.foreground.bundle_id != known:
        flags.add("acted_outside_bridge")
    rig.enter(plan, "probe")
    after = _count(rig, tuple(before))
    # every "before" count was taken (else the attempt was skipped): errors are the after's
    probes = tuple(ProbeReading(name=n.name, arg=n.arg, before=before[n][0], after=after[n][0],
                                error=after[n][1]) for n in before)
    reads = []
    for need in (n for n in needs if n.what == "read"):
        try:
            value = str(run_probe(rig.phone, need.name, need.arg))
            reads.append(DeviceRead(probe=need.name, arg=need.arg, value=value))
        except ProbeError as exc:
            reads.append(DeviceRead(probe=need.name, arg=need.arg, error=exc.message))
    return replace(evidence, flags=frozenset(flags), probes=probes, reads=tuple(reads),
                   events=rig.audit_slice(plan, mark), audited=True)


def _readings(before: Counts, evidence: Evidence | None) -> Readings:
    """The attempt's counts, before the agent and after capture, for the teardown to clean by."""
    if evidence is not None and evidence.probes:
        return {(p.name, p.arg): (p.before, p.after) for p in evidence.probes}
    return {(n.name, n.arg): (value, None) for n, (value, _) in before.items()}


def _teardown(phone: Phone, task: Task, folder: Path, readings: Readings) -> Teardown:
    """Run every teardown step, even after one fails; report what failed, never raise."""
    errors = []
    for step in task.teardown:
        try:
            run_step(phone, with_counts(step, readings))
        except (StepError, DeviceError) as exc:
            errors.append(str(exc))
        except Exception as exc:  # noqa: BLE001 - a harness bug must not hide the attempt
            with (folder / "traceback.txt").open("a") as out:
                out.write(traceback.format_exc())
            errors.append(f"harness error in {step.describe()} ({type(exc).__name__}): {exc}")
    return Teardown(ok=not errors, error="; ".join(errors))


@dataclass(frozen=True)
class AttemptResult:
    """The row to record, and whether the rig went down during the attempt."""

    row: ResultRow
    rig_down: bool
    evidence: Evidence | None = None
    """What was graded, when the attempt was scored."""


def run_attempt(plan: AttemptPlan, rig: Rig, agent: Agent) -> AttemptResult:
    """Run one attempt and write its evidence and verdict; return its results row.

    A locked phone or a WDA that stopped answering is reported with `rig_down`, and teardown is
    not attempted on a rig that is down.
    """
    task, folder, phone = plan.task, plan.folder, rig.phone
    folder.mkdir(parents=True, exist_ok=True)
    started = time.time()
    mark = rig.audit_mark(plan)
    result = AgentResult(ran=False)
    verdict: Verdict | None = None
    evidence: Evidence | None = None
    evidence_dir = skip_reason = error_type = ""
    rig_down = False
    before: Counts = {}
    try:
        _check_rig(phone, plan)
        before = _prepare(rig, plan)
        rig.enter(plan, "agent")
        context = AgentContext(task, task.instruction, rig.bridge.url, task.max_steps,
                               task.timeout_seconds, folder)
        result = _ran(agent.run(context), rig.audit_slice(plan, mark))
        if not result.ran:
            raise _Skip(f"the agent never ran: {result.error or 'no reason given'}")
        rig.enter(plan, "check")
        evidence = _capture(rig, plan, result.claim, before, mark)
        save_evidence(evidence, folder / "evidence")
        evidence_dir = str((folder / "evidence").relative_to(plan.run_dir))
        verdict = grade(task, evidence)
        if not evidence.final or not evidence.final.source.complete:
            raise _Skip("the phone sent only cut-off page sources at capture, so the end state "
                        "cannot be graded (a rig fault)")
        if not verdict.passed or result.timed_out or result.out_of_turns:
            rig.enter(plan, "check")
            require_rig(rig)  # a failure is scored only if the phone still takes input
    except _Skip as exc:
        skip_reason = str(exc)
    except (RigDown, *RIG_DOWN) as exc:
        skip_reason, error_type, rig_down = f"rig down: {exc}", type(exc).__name__, True
    except DeviceError as exc:  # WDA refused something the harness needed: not the agent's fault
        skip_reason, error_type = f"device error: {exc}", type(exc).__name__
    except Exception as exc:  # noqa: BLE001 - a bug in one attempt is data; the run goes on
        (folder / "traceback.txt").write_text(traceback.format_exc())
        skip_reason = f"harness error ({type(exc).__name__}): {exc}; see traceback.txt"
        error_type = type(exc).__name__
    finally:
        rig.enter(plan, "teardown")
        teardown = (_teardown(phone, task, folder, _readings(before, evidence)) if not rig_down
                    else Teardown(ok=False, error="not run: the rig is down"))
        rig.bridge.clear_context()
    if skip_reason:
        verdict = None
    elif verdict is not None:
        verdict = overrule(verdict, result)
        write_record(folder / "verdict.json", verdict)  # written once the outcome is known
    passed = verdict is not None and verdict.passed
    outcome: Outcome = "skipped" if verdict is None else "passed" if passed else "failed"
    row = ResultRow(
        run_id=plan.run_id, task_id=task.id, attempt=plan.attempt,
        agent=agent.name, outcome=outcome, passed=passed, skipped=verdict is None,
        skip_reason=skip_reason, checks=verdict.results if verdict else (), claim=result.claim,
        started_at=started, seconds=round(time.time() - started, 3), turns=result.turns,
        timed_out=result.timed_out, out_of_turns=result.out_of_turns, error=result.error,
        error_type=error_type, teardown=teardown, evidence=evidence_dir,
        task_sha256=task.sha256, device=plan.device)
    return AttemptResult(row, rig_down, evidence if verdict is not None else None)


def overrule(verdict: Verdict, result: AgentResult) -> Verdict:
    """The verdict of the attempt: a timed-out or out-of-turns agent never passes, whatever its
    checks say, and the verdict says why."""
    why = ("the agent ran out of time" if result.timed_out
           else "the agent ran out of turns" if result.out_of_turns else "")
    if not why:
        return verdict
    return verdict.model_copy(update={"passed": False, "overruled": why})


def _ran(result: AgentResult, events: tuple[AuditEvent, ...]) -> AgentResult:
    """An agent that says it never ran but acted on the phone did run: its actions are in the
    log, so whatever stopped it is its failure to score, not a reason to skip."""
    acted = any(e.phase == "agent" for e in events)
    if result.ran or not acted:
        return result
    summary = f"the agent acted on the phone, then stopped: {result.error or 'no reason'}"
    return replace(result, ran=True, claim=result.claim or Claim(status="failed", summary=summary))
