"""One attempt: setup -> agent -> capture -> grade -> teardown, and one results row.

Everything acts through the bridge, each part under its phase (setup, agent, check, teardown),
so the audit log shows who did what. The agent is handed only a URL of its own, granted for its
turn and revoked when it ends. The evidence carries the attempt's slice of that log, as the
bridge wrote it: lines someone else put in the file are left out, and fail the attempt
(`audit_forged`), as does a change of the phone no logged action explains
(`acted_outside_bridge`, from the custody lines).

Only what the agent could have caused is scored. A locked phone, a setup step that did not take,
an app that is not installed or an agent that never ran make the attempt skipped, with the
reason. A rig failure that follows the agent's own logged actions (it locked the phone, ended
WDA's session, terminated WDA) is its failure, with the reason; so is one found after the turn
of a program that could reach the phone around the bridge (`runner.around`). An app WDA could
not read from the attempt's start is not scored (`runner.endstate`). Any other rig failure raises
`RigDown` so the run stops instead of recording a string of failures. A timed-out or
out-of-turns attempt never passes, and its turns are at least the actions the log shows its
agent took: more than the task's `max_steps` is out of turns (`runner.turn`). What the run
fails an attempt for beyond the grade of its evidence is kept in the verdict's `run_overruled`.
A harness error skips the attempt before the agent's turn began, and fails it after (what the
harness met may be the agent's doing: `turn.harness_failed`). Teardown always runs, its failure
recorded.

This module runs the phases in order and writes the row; the capture lives in `capture`, the
teardown in `teardown`, the plan and the phase marks in the audit log in `plan`.
"""

from __future__ import annotations

import functools
import time
import traceback
from dataclasses import dataclass, replace

from bridge.audit_log import AuditWriteError
from phoneshell.agents import Agent, AgentContext, AgentResult
from phoneshell.agents.bounds import DiskShort
from phoneshell.agents.command import CommandAgent
from phoneshell.audit import apps_in_front
from phoneshell.device import Phone, run_steps
from phoneshell.device.phone import SPRINGBOARD
from phoneshell.errors import RIG_DOWN, DeviceError, DeviceLocked, PhoneshellError, StepError
from phoneshell.evidence import Evidence, save_evidence
from phoneshell.grade import Verdict, grade, raised
from phoneshell.records import Outcome, ResultRow, Teardown, write_record
from phoneshell.runner import stop
from phoneshell.runner.aftermath import (
    agent_broke_rig,
    changed_device,
    changed_settings,
    left_running,
)
from phoneshell.runner.capture import capture_attempt, unlock_after_turn
from phoneshell.runner.counts import (
    Counts,
    Leftover,
    after_teardown,
    counts_of,
    dig_from_start,
    start_state,
    take_counts,
    uncountable,
)
from phoneshell.runner.disk_room import make_room
from phoneshell.runner.around import AroundWatch, around_bridge, reaches_around, watch_around
from phoneshell.runner.endstate import (
    AppUnreadable,
    UnreadableEndState,
    capture_or_blame,
    seen_whole,
    unread_from_start,
    unreadable,
)
from phoneshell.runner.folder import write_note
from phoneshell.runner.owner import OwnerWatch
from phoneshell.runner.plan import AttemptPlan, audit_slice, enter_phase
from phoneshell.runner.rig import Rig, RigDown, after_whom, check_rig
from phoneshell.runner.setback import HeldBack
from phoneshell.runner.stop import stopped_by
from phoneshell.runner.teardown import Left, run_teardown, teardown_readings
from phoneshell.runner.turn import beyond_grade, harness_failed, held_to_log, measured, overrule
from phoneshell.runner.wda_state import touched
from phoneshell.untrusted import storable


class _Skip(Exception):
    """Not scored: the reason is the message."""


def _require_unlocked(phone: Phone) -> None:
    """A locked phone is the rig down, not a reason to skip one attempt."""
    try:
        phone.require_unlocked()
    except DeviceLocked as exc:
        raise RigDown(exc.message, hint=exc.hint) from exc


def _check_rig(rig: Rig, plan: AttemptPlan) -> None:
    # A disk short of the harness's room once the run gave back what it keeps of earlier
    # agents (`disk_room`) is not the agent's doing: its turn is not played (it would be
    # charged for filling it), and, as for a locked phone, the run stops there (every later
    # attempt would be skipped the same way), to be played again (a run's resume does it;
    # swap and attack have none: `AttemptPlan.resumable`).
    room = make_room(plan.run_dir, plan.folder, f"{plan.task.id} attempt {plan.attempt}",
                     id(rig))
    if room:
        again = "--resume plays it" if plan.resumable else "play it again"
        raise RigDown(f"{room}; free some space, then {again}")
    # The lock is asked only when nothing has shown it unlocked since the last agent's turn
    # (`LastSeen.unlocked`): a real phone charges a request for it, and the harness locks
    # nothing; a setup that fails asks it then (`_prepare`).
    if not rig.seen.unlocked:
        _require_unlocked(rig.phone)
    rig.seen.unlocked = False  # until something shows it again: the agent may do anything
    app = plan.task.app
    # WDA cannot tell an app that is not installed from one that is not running (and XCTest
    # can hang launching one), so the list comes from the device's own channel when it has one.
    if plan.installed is not None and app and app != SPRINGBOARD and app not in plan.installed:
        raise _Skip(f"{app} is not installed on this phone")


def _prepare(rig: Rig, plan: AttemptPlan) -> Counts:
    """Setup, then the "before" counts; setup runs again after them, so the probes' own taps
    cannot change where the agent starts. A count that cannot be taken before the agent acts
    skips the attempt (nothing the agent does could be judged against it), unless this run
    counted it on this phone before: then its agents spoiled it (`counts.uncountable`)."""
    task, phone = plan.task, rig.phone
    counted = counts_of(task)  # the checks' counts, and those teardown deletes by
    enter_phase(rig, plan, "setup")
    try:
        run_steps(phone, task.setup)
        if not counted:
            return {}
        enter_phase(rig, plan, "probe")
        seen_none, seen_some = frozenset(rig.at_none), frozenset(rig.at_some)
        readable = frozenset(rig.counted)
        before = take_counts(rig, counted)
        spoiled = uncountable(before, readable)
        if spoiled:
            raise Leftover(spoiled, dig_from_start(rig, before))  # teardown digs it out
        missing = [count.why for count in before.values() if count.value is None]
        if missing:
            raise _Skip(f"a probe could not count before the agent acted: {missing[0]}")
        elsewhere = start_state(rig, task, before, seen_none, seen_some)  # raises Leftover
        if elsewhere:
            raise _Skip(elsewhere)
        enter_phase(rig, plan, "setup")
        run_steps(phone, task.setup)
    except StepError as exc:
        _require_unlocked(rig.phone)  # locked meanwhile (`LastSeen.unlocked`): the rig down
        raise _Skip(f"setup failed: {exc}{after_whom(rig.seen, task)}") from exc
    return before


def _after_agent(rig: Rig, plan: AttemptPlan, mark: int, evidence: Evidence | None) -> Left:
    """What the agent left, by the log the capture read, else read now. Nothing when the log
    cannot be read: the teardown still runs, and the failure shows elsewhere."""
    try:
        events = evidence.events if evidence is not None else audit_slice(rig, plan, mark)[0]
    except (PhoneshellError, *RIG_DOWN):
        return Left()
    return Left(left_running(plan.task, apps_in_front(events)), changed_settings(events),
                 changed_device(events), touched(events))


@dataclass(frozen=True)
class AttemptResult:
    """The row to record, and whether the rig went down during the attempt."""

    row: ResultRow
    rig_down: bool
    evidence: Evidence | None = None
    """What was graded, when the attempt was scored."""
    interrupted: bool = False
    """Ctrl-C, SIGTERM or SIGHUP stopped it: the row says skipped, and the run (or attack)
    should stop after recording it."""


def run_attempt(plan: AttemptPlan, rig: Rig, agent: Agent,
                owner: OwnerWatch | None = None) -> AttemptResult:
    """Run one attempt and write its evidence and verdict; return its results row.

    A locked phone or a WDA that stopped answering is reported with `rig_down`, and teardown is
    not attempted on a rig that is down. With `owner`, the owner's collections the agent may
    have changed are compared after the teardown, and a change fails the attempt
    (`runner.owner`).
    """
    task, folder, phone = plan.task, plan.folder, rig.phone
    folder.mkdir(parents=True, exist_ok=True)
    started = time.time()
    mark = rig.audit_mark(plan.run_dir)
    result = AgentResult(ran=False)
    verdict: Verdict | None = None
    graded: Verdict | None = None  # what its evidence alone shows, before the run's own rules
    evidence: Evidence | None = None
    evidence_dir = skip_reason = error_type = over = ""
    rig_down = interrupted = in_turn = began = False
    watch = watch_around(rig, agent)  # what reached the phone around the bridge in the turn
    before: Counts = {}
    held: HeldBack | None = None  # the phone's own states the agent changed, set back once
    try:
        _check_rig(rig, plan)
        before = _prepare(rig, plan)
        enter_phase(rig, plan, "agent")
        # whether the agent acted shows in intents: the capture's first source is the after
        # of its last action, free, so no read is spent on it here
        began = in_turn = True
        result = _agent_turn(plan, rig, agent, watch)
        in_turn = False
        intents = audit_slice(rig, plan, mark, outcomes=False)[0]
        acted_in = apps_in_front(intents)
        if acted_in:
            rig.seen.agent_apps, rig.seen.agent_of = acted_in, f"{task.id} attempt {plan.attempt}"
        result, over = measured(held_to_log(result, intents), intents, task.max_steps)
        error_type = result.error_type
        if not result.ran:
            raise _Skip(f"the agent never ran: {result.error or 'no reason given'}")
        enter_phase(rig, plan, "check")
        unlocked = unlock_after_turn(rig, plan, mark, intents)
        held = HeldBack(phone, changed_device(intents), rig.device_start)
        from_start = functools.partial(_unread_from_start, rig, plan, mark, agent)
        evidence = capture_or_blame(phone, functools.partial(
            capture_attempt, rig, plan, result.claim, before, mark, held), from_start)
        if unlocked:
            evidence = replace(evidence, flags=evidence.flags | {"unlocked"})
        if evidence.foreground is not None and evidence.foreground.bundle_id != SPRINGBOARD:
            rig.seen.unlocked = True  # an app in front: no lock screen (only the harness next)
        save_evidence(evidence, folder / "evidence")
        evidence_dir = str((folder / "evidence").relative_to(plan.run_dir))
        verdict = graded = grade(task, evidence)  # fails an agent that broke the rig too
        if trace := raised(task, evidence, verdict):  # a check that could not be graded
            write_note(folder / "traceback.txt", trace)
        broke = agent_broke_rig(evidence.events)
        if broke:  # the phone is unlocked for the run to go on
            rig_down = not _recover(rig, plan)
            enter_phase(rig, plan, "check")
        if not broke and (not evidence.final or not evidence.final.source.complete):
            problem = evidence.final.source.problem if evidence.final else "no page source"
            blamed = unreadable(phone, verdict, evidence, from_start)
            around = around_bridge(watch, f"the phone sent only cut-off page sources at "
                                   f"capture ({problem}), and on its home screen too")
            if blamed is None and around:
                blamed = verdict.model_copy(update={"passed": False, "overruled": around})
            if blamed is None:
                raise _Skip(f"the phone sent only cut-off page sources at capture ({problem}), "
                            "and on its home screen too, so the end state cannot be graded (a "
                            f"rig fault){watch.fault_note()}")
            verdict = blamed
        if watch.count and not verdict.overruled:  # it acted around the bridge, fault or not
            verdict = verdict.model_copy(update={"passed": False,
                                                 "overruled": around_bridge(watch)})
        if not verdict.passed or result.timed_out or result.out_of_turns:
            enter_phase(rig, plan, "check")
            check_rig(rig, evidence.events)  # a failure is scored only if the phone takes input
    except Leftover as exc:  # the agent is not handed a phone its like already spoiled
        verdict = Verdict(task_id=task.id, evidence_task_id=task.id, passed=False, results=(),
                          overruled=str(exc))
        before = exc.counts  # teardown deletes what was left
    except UnreadableEndState as exc:  # the phone reads elsewhere: the agent's screen did this
        verdict = Verdict(task_id=task.id, evidence_task_id=task.id, passed=False, results=(),
                          overruled=str(exc))
    except (_Skip, AppUnreadable) as exc:
        skip_reason = str(exc)
    except DiskShort as exc:  # the machine took the disk in a confined turn: not its doing,
        # not scored; what it did to the phone is set back as after any turn
        result, skip_reason = AgentResult(ran=True, error=str(exc)), str(exc)
    except (RigDown, *RIG_DOWN, DeviceError) as exc:
        # what the agent did is in the log, even when its turn ended in the rig's fault
        done = audit_slice(rig, plan, mark)[0]
        result, over = measured(result, done, task.max_steps)
        acted = result.ran or any(e.phase == "agent" for e in done)
        cause = agent_broke_rig(done) if acted else ""
        down = isinstance(exc, (RigDown, *RIG_DOWN))
        # not in the log, but the phone's counts show requests that reached it around the
        # bridge in the agent's turn: its doing too (`runner.around`)
        blame = f"{cause}, and then {exc}" if cause else around_bridge(watch, exc)
        if blame:  # the agent's own doing: its failure, not a skip
            verdict = Verdict(task_id=task.id, evidence_task_id=task.id, passed=False,
                              results=verdict.results if verdict else (), overruled=blame)
            rig_down = down and not _recover(rig, plan)
        elif isinstance(exc, DeviceError) and not down:  # WDA refused the harness something
            skip_reason, error_type = f"device error: {exc}{watch.fault_note()}", type(exc).__name__
        else:
            skip_reason, error_type, rig_down = (f"rig down: {exc}{watch.fault_note()}",
                                                 type(exc).__name__, True)
    except Exception as exc:  # noqa: BLE001 - a bug in one attempt is data; the run goes on
        write_note(folder / "traceback.txt", traceback.format_exc())
        error_type = type(exc).__name__
        said = f"harness error ({error_type}): {storable(str(exc))[:300]}"
        if began:  # the agent's to shape, maybe: scored (`turn.harness_failed`)
            verdict = harness_failed(task.id, verdict, said)
        else:
            skip_reason = f"{said}; see traceback.txt"
    except KeyboardInterrupt as exc:  # the user's (Ctrl-C, SIGTERM: `runner.stop`), not the
        # agent's: never scored, run again on resume
        skip_reason, error_type, interrupted = (f"interrupted ({stopped_by(exc)})",
                                                "KeyboardInterrupt", True)
        if in_turn and isinstance(agent, CommandAgent) and not (
                plan.sandbox is not None and plan.sandbox.confines):
            # an unconfined program can signal the harness itself: said, for whoever reads
            skip_reason += (" during the turn of an agent that ran unconfined (--sandbox "
                            "none), which could have sent it")
    finally:
        # the teardown protects the phone (it deletes what the agent made): a first stop
        # signal waits for it, and is recorded after it; only a second one cuts it short
        with stop.tidying() as tidy:
            enter_phase(rig, plan, "teardown")
            left = (_after_agent(rig, plan, mark, evidence) if result.ran and not rig_down
                    else Left())
            teardown = (Teardown(ok=False, error="not run: the rig is down") if rig_down else
                        run_teardown(phone, task, folder, teardown_readings(before, evidence),
                                     before, left, rig.device_start, evidence, held))
            after_teardown(rig, task, before, teardown)
            if owner is not None and result.ran and not (rig_down or interrupted):
                teardown, verdict, skip_reason = owner.settle(
                    task, evidence, teardown, verdict, skip_reason,
                    lambda: audit_slice(rig, plan, mark)[0], f"{task.id} attempt {plan.attempt}",
                    passes=verdict is not None and overrule(verdict, result, over).passed)
            rig.bridge.clear_context()
    # a stop that came during the teardown, held until it was whole: the attempt is recorded
    # as it ended (a scored one stands: its teardown ran whole), then the run stops
    interrupted = interrupted or tidy.held is not None
    distrusted = verdict.overruled if verdict is not None and not skip_reason else ""
    if skip_reason:
        verdict = None
    elif verdict is not None:
        verdict = beyond_grade(graded, overrule(verdict, result, over))
        write_record(folder / "verdict.json", verdict)  # written once the outcome is known
    passed = verdict is not None and verdict.passed
    outcome: Outcome = "skipped" if verdict is None else "passed" if passed else "failed"
    row = ResultRow(
        run_id=plan.run_id, task_id=task.id, attempt=plan.attempt,
        agent=agent.name, outcome=outcome, passed=passed, skipped=verdict is None,
        skip_reason=skip_reason, checks=verdict.results if verdict else (), claim=result.claim,
        started_at=started, seconds=round(time.time() - started, 3), turns=result.turns,
        timed_out=result.timed_out, out_of_turns=result.out_of_turns,
        error="; ".join(e for e in (result.error, distrusted) if e),
        error_type=error_type, teardown=teardown, evidence=evidence_dir,
        task_sha256=task.sha256, device=plan.device)
    return AttemptResult(row, rig_down, evidence if verdict is not None else None, interrupted)


def _agent_turn(plan: AttemptPlan, rig: Rig, agent: Agent, watch: AroundWatch) -> AgentResult:
    """The agent's turn (`_run_agent`), with any error it ended in but the rig's kept as its
    result: `turn.held_to_log` then scores it as the agent's failure when it had acted on the
    phone (an agent must not be able to turn its failure into a skip by what it sends or
    answers), and skips it only when it had not."""
    try:
        return _run_agent(plan, rig, agent, watch)
    except (RigDown, *RIG_DOWN) as exc:
        # an in-process agent's own connection failed: the rig's fault only if the phone
        # no longer answers the harness either (one read); else the agent's error
        if isinstance(exc, RigDown) or rig.phone.locked():
            raise
        failed: Exception = exc
    except DiskShort:
        raise  # the disk's, not the agent's: the attempt is not scored (`run_attempt`)
    except Exception as exc:  # noqa: BLE001 - kept as data, with its traceback
        failed = exc
    write_note(plan.folder / "traceback.txt", "".join(traceback.format_exception(failed)))
    return AgentResult(ran=False, error=f"harness error ({type(failed).__name__}) in the "
                       f"agent's turn: {storable(str(failed))[:300]}; see traceback.txt",
                       error_type=type(failed).__name__)


def _run_agent(plan: AttemptPlan, rig: Rig, agent: Agent, watch: AroundWatch) -> AgentResult:
    """Grant the agent a URL of its own for its turn, run it, and revoke the grant whatever
    happened: nothing it left behind can use the phone after. `watch` reads the phone's ledger
    of inputs just before the grant and once it is revoked (`runner.around`)."""
    program = isinstance(agent, CommandAgent)
    # A program in the sandbox cannot reach a private phone; an agent in this process has no
    # shell at all. Either way the bridge is the only way to the phone while it runs.
    confined = not program or (plan.sandbox is not None and plan.sandbox.confines
                               and rig.private)
    watch.begin()
    url = rig.bridge.grant_agent(confined=confined, max_steps=plan.task.max_steps)
    try:
        task = plan.task
        return agent.run(AgentContext(task, task.instruction, url, task.max_steps,
                                      task.timeout_seconds, plan.folder, plan.sandbox,
                                      rig.bridge.agent_cut_off))
    finally:
        rig.bridge.revoke_agent()  # and what was on its way through the bridge has arrived
        watch.end()


def _unread_from_start(rig: Rig, plan: AttemptPlan, mark: int, agent: Agent, app: str) -> bool:
    """Whether `app` could not be read from the attempt's start (`endstate.unread_from_start`),
    by this attempt's log and what the run's log shows read whole on this phone; read only
    after a capture failed. Never for an agent that could reach the phone around the bridge:
    what it did there is in no log."""
    if reaches_around(rig, agent):
        return False
    try:
        earlier = rig.bridge.writer.verify(plan.run_id, 0).events
    except AuditWriteError:
        return False  # nothing shows the app unreadable from the start: the agent's, as before
    return unread_from_start(app, audit_slice(rig, plan, mark)[0], seen_whole(earlier))


def _recover(rig: Rig, plan: AttemptPlan) -> bool:
    """After the agent broke the rig: unlock the phone if that is what it did, and say whether
    the phone works again (so the run goes on)."""
    enter_phase(rig, plan, "teardown")
    try:
        if rig.phone.locked():
            rig.phone.unlock()
        rig.phone.require_unlocked()
        rig.phone.foreground()
    except DeviceError:
        return False
    return True
