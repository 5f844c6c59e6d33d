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
A harness error skips the attempt before the agent's turn began, and fails it after, wherever it
raised (what the harness met may be the agent's doing: `turn.harness_failed`, `ending.fell`);
every attempt gets a row. Teardown always runs, its failure recorded.

This module runs the phases in order; the agent's turn lives in `agent_turn`, the capture in
`capture`, the teardown's steps in `teardown`, the end of an attempt (its teardown run, its row,
and the row of one the harness raised on past the phases' guard) in `ending`, the plan and the
phase marks in the audit log in `plan`.
"""

from __future__ import annotations

import functools
import time
import traceback
from dataclasses import dataclass, replace

from bridge.audit_log import AuditWriteError
from phoneshell.agents import Agent, AgentResult
from phoneshell.agents.bounds import DiskShort
from phoneshell.agents.command import CommandAgent
from phoneshell.audit import apps_in_front
from phoneshell.device import Phone, run_steps
from phoneshell.device.phone import SPRINGBOARD
from phoneshell.errors import RIG_DOWN, DeviceError, DeviceLocked, PhoneshellError, StepError
from phoneshell.evidence import Evidence, save_evidence
from phoneshell.grade import Verdict, grade, raised
from phoneshell.records import ResultRow
from phoneshell.runner.aftermath import (
    agent_broke_rig,
    changed_device,
    changed_settings,
    left_running,
)
from phoneshell.runner.agent_turn import agent_turn
from phoneshell.runner.around import around_bridge, reaches_around, watch_around
from phoneshell.runner.capture import capture_attempt, unlock_after_turn
from phoneshell.runner.counts import (
    Counts,
    Leftover,
    counts_of,
    dig_from_start,
    start_state,
    take_counts,
    uncountable,
)
from phoneshell.runner.disk_room import make_room
from phoneshell.runner.ending import Played, fell, row_of, tear_down
from phoneshell.runner.endstate import (
    AppUnreadable,
    UnreadableEndState,
    capture_or_blame,
    pictures_elsewhere,
    seen_whole,
    unread_from_start,
    unreadable,
)
from phoneshell.runner.folder import write_note
from phoneshell.runner.fresh_folder import fresh_folder
from phoneshell.runner.owner import OwnerWatch
from phoneshell.runner.plan import AttemptPlan, audit_slice, enter_phase
from phoneshell.runner.rig import Rig, RigDown, after_whom, check_rig
from phoneshell.runner.setback import HeldBack
from phoneshell.runner.stop import stopped_by
from phoneshell.runner.teardown import Left
from phoneshell.runner.turn import harness_failed, held_to_log, measured
from phoneshell.runner.unwritten import LogWatch, unwritten_error
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
    counted it on this phone before, whatever stopped it: then its agents spoiled it
    (`counts.uncountable`; a locked phone raises before, as the rig down)."""
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
    (`runner.owner`). Whatever raises past the phases' own guard (in a handler, the teardown,
    the row) still gives the attempt its row (`ending.fell`): one place, so no later change to
    the phases can lose one.
    """
    planted = fresh_folder(plan.folder)  # never one an earlier agent filled
    played = Played(time.time(), rig.audit_mark(plan.run_dir), watch_around(rig, agent))
    after_agent = functools.partial(_after_agent, rig, plan, played.mark)
    log = LogWatch(rig.bridge.writer, plan.run_id, isinstance(agent, CommandAgent))
    try:
        try:
            _play(plan, rig, agent, played, log)
        finally:
            tear_down(plan, rig, played, owner, after_agent)
        _unwritten(plan, played, log, None)
        row = row_of(plan, agent.name, played)
    except Exception as exc:  # noqa: BLE001 - every attempt gets a row; the run goes on
        row = (row_of(plan, agent.name, played) if _unwritten(plan, played, log, exc) else
               fell(plan, rig, agent.name, played, exc))
    if planted:
        row = row.model_copy(update={"notes": (*row.notes, planted)})
    scored = played.evidence if row.evidence and not row.skipped else None
    return AttemptResult(row, played.rig_down, scored, played.stopped())


def _unwritten(plan: AttemptPlan, p: Played, log: LogWatch, exc: Exception | None) -> str:
    """When the run folder could not be written in the attempt (`exc`, what raised past its
    phases, or the audit log's refused lines: `runner.unwritten`): the attempt is not scored,
    whatever its phases made of it (a refused action, a capture that raised), and the rig is
    down, so the run stops; "" when the folder took every write."""
    # an agent the harness stopped for a limit of its turn (the disk, its folder) is failed
    # for it, as before, whatever its writes left of the disk
    why = "" if p.interrupted or p.result.stopped else log.failed(exc, plan.run_dir)
    if why:
        if exc is not None:
            write_note(plan.folder / "traceback.txt", "".join(traceback.format_exception(exc)))
        p.skip_reason, p.rig_down = why, True
        p.error_type = type(exc).__name__ if exc is not None else "AuditWriteError"
    return why


def _play(plan: AttemptPlan, rig: Rig, agent: Agent, p: Played, log: LogWatch) -> None:
    """Setup, the agent's turn, capture and grade, kept in `p`. What ends an attempt but not the
    run (a skip, the agent's failure, the rig's, a harness error) is kept there, never raised;
    only a stop signal during a handler is, and an error writing the run folder (the rig's:
    `_unwritten`, after the teardown)."""
    task, folder, phone = plan.task, plan.folder, rig.phone
    try:
        _check_rig(rig, plan)
        p.before = _prepare(rig, plan)
        enter_phase(rig, plan, "agent")
        # whether the agent acted shows in intents: the capture's first source is the after
        # of its last action, free, so no read is spent on it here
        p.began = p.in_turn = True
        log.mark_turn()
        p.result = agent_turn(plan, rig, agent, p.watch)
        log.mark_turn()
        p.in_turn = False
        intents = audit_slice(rig, plan, p.mark, outcomes=False)[0]
        acted_in = apps_in_front(intents)
        if acted_in:
            rig.seen.agent_apps, rig.seen.agent_of = acted_in, f"{task.id} attempt {plan.attempt}"
        p.result, p.over = measured(held_to_log(p.result, intents), intents, task.max_steps)
        p.error_type = p.result.error_type
        if not p.result.ran:
            raise _Skip(f"the agent never ran: {p.result.error or 'no reason given'}")
        enter_phase(rig, plan, "check")
        unlocked = unlock_after_turn(rig, plan, p.mark, intents)
        p.held = HeldBack(phone, changed_device(intents), rig.device_start)
        from_start = functools.partial(_unread_from_start, rig, plan, p.mark, agent)
        look = rig.bridge.screen_mark()  # what a read after the agent's last action showed
        left = functools.partial(rig.bridge.shows, look) if look is not None else None
        evidence = capture_or_blame(phone, functools.partial(
            capture_attempt, rig, plan, p.result.claim, p.before, p.mark, p.held), from_start,
            left)
        if evidence.screenshot_png is None:  # WDA took no picture of it: does it anywhere?
            enter_phase(rig, plan, "check")
            pictures_elsewhere(phone)
        if unlocked:
            evidence = replace(evidence, flags=evidence.flags | {"unlocked"})
        p.evidence = evidence
        if evidence.foreground is not None and evidence.foreground.bundle_id != SPRINGBOARD:
            rig.seen.unlocked = True  # an app in front: no lock screen (only the harness next)
        save_evidence(evidence, folder / "evidence")
        p.evidence_dir = str((folder / "evidence").relative_to(plan.run_dir))
        verdict = p.verdict = p.graded = grade(task, evidence)  # fails a rig breaker too
        if trace := raised(task, evidence, verdict):  # a check that could not be graded
            write_note(folder / "traceback.txt", trace)
        broke = agent_broke_rig(evidence.events)
        if broke:  # the phone is unlocked for the run to go on
            p.rig_down = not _recover(rig, plan)
            enter_phase(rig, plan, "check")
        if not broke and (not evidence.final or not evidence.final.source.complete):
            problem = evidence.final.source.problem if evidence.final else "no page source"
            blamed = unreadable(phone, verdict, evidence, from_start)
            around = around_bridge(p.watch, f"the phone sent only cut-off page sources at "
                                   f"capture ({problem}), and on its home screen too")
            if blamed is None and around:
                blamed = verdict.model_copy(update={"passed": False, "overruled": around})
            if blamed is None:
                raise _Skip(f"the phone sent only cut-off page sources at capture ({problem}), "
                            "and on its home screen too, so the end state cannot be graded (a "
                            f"rig fault){p.watch.fault_note()}")
            verdict = p.verdict = blamed
        if p.watch.count and not verdict.overruled:  # it acted around the bridge, fault or not
            verdict = p.verdict = verdict.model_copy(update={
                "passed": False, "overruled": around_bridge(p.watch)})
        if not verdict.passed or p.result.timed_out or p.result.out_of_turns:
            enter_phase(rig, plan, "check")
            check_rig(rig, evidence.events)  # a failure is scored only if the phone takes input
    except Leftover as exc:  # the agent is not handed a phone its like already spoiled
        p.verdict = Verdict(task_id=task.id, evidence_task_id=task.id, passed=False, results=(),
                            overruled=str(exc))
        p.before = exc.counts  # teardown deletes what was left
    except UnreadableEndState as exc:  # the phone reads elsewhere: the agent's screen did this
        broke = _undo_breakage(rig, plan, p)
        p.verdict = Verdict(task_id=task.id, evidence_task_id=task.id, passed=False, results=(),
                            overruled=f"{broke}, and then {exc}" if broke else str(exc))
    except AppUnreadable as exc:  # the rig's, unless the agent broke it first
        if broke := _undo_breakage(rig, plan, p):
            p.verdict = Verdict(task_id=task.id, evidence_task_id=task.id, passed=False,
                                results=(), overruled=f"{broke}, and then {exc}")
        else:
            p.skip_reason = str(exc)
    except _Skip as exc:
        p.skip_reason = str(exc)
    except DiskShort as exc:  # the machine took the disk in a confined turn: not its doing,
        # not scored; what it did to the phone is set back as after any turn
        p.result, p.skip_reason = AgentResult(ran=True, error=str(exc)), str(exc)
    except (RigDown, *RIG_DOWN, DeviceError) as exc:
        _rig_failed(plan, rig, p, exc)
    except Exception as exc:  # noqa: BLE001 - a bug in one attempt is data; the run goes on
        if unwritten_error(exc, plan.run_dir) is not None:
            raise  # the rig's, but a full disk its agent may have filled: `_unwritten` says
        write_note(folder / "traceback.txt", traceback.format_exc())
        p.error_type = type(exc).__name__
        said = f"harness error ({p.error_type}): {storable(str(exc))[:300]}"
        if p.began:  # the agent's to shape, maybe: scored (`turn.harness_failed`)
            broke = _undo_breakage(rig, plan, p)
            p.verdict = harness_failed(task.id, p.verdict,
                                       f"{broke}, and then {said}" if broke else said)
        else:
            p.skip_reason = f"{said}; see traceback.txt"
    except KeyboardInterrupt as exc:  # the user's (Ctrl-C, SIGTERM: `runner.stop`), not the
        # agent's: never scored, run again on resume
        p.skip_reason, p.error_type, p.interrupted = (f"interrupted ({stopped_by(exc)})",
                                                      "KeyboardInterrupt", True)
        if p.in_turn and isinstance(agent, CommandAgent) and not (
                plan.sandbox is not None and plan.sandbox.confines):
            # an unconfined program can signal the harness itself: said, for whoever reads
            p.skip_reason += (" during the turn of an agent that ran unconfined (--sandbox "
                              "none), which could have sent it")


def _rig_failed(plan: AttemptPlan, rig: Rig, p: Played,
                exc: RigDown | DeviceError | Exception) -> None:
    """The rig failed the attempt (`exc`): the agent's failure when the log shows its actions
    did it, or requests reached the phone around the bridge in its turn; else not scored,
    and the rig reported down unless WDA only refused the harness something."""
    # what the agent did is in the log, even when its turn ended in the rig's fault
    done = audit_slice(rig, plan, p.mark)[0]
    p.result, p.over = measured(p.result, done, plan.task.max_steps)
    acted = p.result.ran or any(e.phase == "agent" for e in done)
    cause = agent_broke_rig(done) if acted else ""
    down = isinstance(exc, (RigDown, *RIG_DOWN))
    # not in the log, but the phone's counts show requests that reached it around the
    # bridge in the agent's turn: its doing too (`runner.around`)
    blame = f"{cause}, and then {exc}" if cause else around_bridge(p.watch, exc)
    if blame:  # the agent's own doing: its failure, not a skip
        p.verdict = Verdict(task_id=plan.task.id, evidence_task_id=plan.task.id, passed=False,
                            results=p.verdict.results if p.verdict else (), overruled=blame)
        # undone whatever failed: a lock stays on after a refusal the rig survives too
        p.rig_down = (down or bool(cause)) and not _recover(rig, plan)
    elif isinstance(exc, DeviceError) and not down:  # WDA refused the harness something
        p.skip_reason = f"device error: {exc}{p.watch.fault_note()}"
        p.error_type = type(exc).__name__
    else:
        p.skip_reason, p.error_type, p.rig_down = (f"rig down: {exc}{p.watch.fault_note()}",
                                                   type(exc).__name__, True)


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


def _undo_breakage(rig: Rig, plan: AttemptPlan, p: Played) -> str:
    """What the agent did that breaks the rig, by the attempt's log (`agent_broke_rig`; "" when
    nothing, or before its turn), undone (`_recover`) before any verdict on a capture that
    failed is kept: whatever the capture raised, the row names it, and the next attempt does
    not find the phone as this agent left it (locked, it would be skipped as the rig down and
    stop the run)."""
    if not p.began:
        return ""
    try:
        broke = agent_broke_rig(audit_slice(rig, plan, p.mark)[0])
    except (PhoneshellError, *RIG_DOWN):
        return ""  # no log to read: the rig check after finds what is wrong
    if broke:
        p.rig_down = not _recover(rig, plan)
    return broke


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
