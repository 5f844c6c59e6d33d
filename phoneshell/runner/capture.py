"""An attempt's capture after the agent's turn: the end state, the "after" counts and device
values, and the audit slice as the bridge wrote it (flagging a change nobody logged and lines
the bridge never wrote); and the unlock of a phone that locked itself because the agent changed
its Auto-Lock, so the screen it left can be graded. Evidence is read here, never graded."""

from __future__ import annotations

import functools
from dataclasses import replace

from phoneshell.audit import custody_breaks
from phoneshell.checks import decided_unscrolled, needs_of
from phoneshell.device import Phone, ProbeError, capture_evidence, run_probe
from phoneshell.evidence import Claim, DeviceRead, Evidence, ProbeReading
from phoneshell.records import AuditEvent
from phoneshell.runner.aftermath import agent_broke_rig, changed_settings
from phoneshell.runner.counts import Counts, take_counts, whole_name
from phoneshell.runner.plan import AttemptPlan, audit_slice, enter_phase
from phoneshell.runner.rig import Rig
from phoneshell.runner.setback import HeldBack


def capture_attempt(rig: Rig, plan: AttemptPlan, claim: Claim | None, before: Counts,
                    mark: int, back: HeldBack | None = None) -> Evidence:
    """Capture the end state, then set back how the agent left the phone held (`back`: its
    orientation, light or dark, a simulated location), then the "after" counts and device
    values, with the audit slice as the bridge wrote it; flag a change nobody logged and lines
    the bridge never wrote."""
    needs = needs_of(plan.task.checks)
    # The capture's reads pass through the bridge, which compares what they show with what
    # the agent's last logged action left: a change in between is a custody line.
    # What the agent last looked at after its last action, if it did: a capture that shows
    # the same screen needs no second screenshot to prove it settled.
    look = rig.bridge.screen_mark()
    held = functools.partial(rig.bridge.shows, look) if look is not None else None
    # or a screenshot it took since (an agent that looks by pictures): capture's own
    # screenshot agreeing with it proves the same
    evidence = capture_evidence(rig.phone, plan.task.id, needs, claim, held,
                                rig.bridge.screen_look(),
                                functools.partial(decided_unscrolled, plan.task.checks),
                                rig.clock_runs)
    if back is not None and back.changed:  # the counts read the phone as the run holds it
        enter_phase(rig, plan, "teardown")
        back.now()
    enter_phase(rig, plan, "probe")
    reads = []
    for need in (n for n in needs if n.what == "read"):
        try:
            value = str(run_probe(rig.phone, need.name, need.arg))
            reads.append(DeviceRead(probe=need.name, arg=need.arg, value=value))
        except ProbeError as exc:
            reads.append(DeviceRead(probe=need.name, arg=need.arg, error=exc.message))
    # the counts last, so the teardown that deletes by them may start where they end
    after = take_counts(rig, before, plan.task.teardown)
    # every "before" count was taken (else the attempt was skipped): errors are the after's
    # with what each count is made of, and the whole it counts some of, so the grade can tell
    # a note made from one renamed (`checks.items`)
    probes = tuple(ProbeReading(name=n.name, arg=n.arg, before=before[n].value,
                                after=after[n].value, error=after[n].why,
                                rows_before=before[n].rows, rows_after=after[n].rows,
                                whole=whole_name(n)) for n in before)
    events, forged = audit_slice(rig, plan, mark)
    flags = set(evidence.flags)
    if custody_breaks(events):
        flags.add("acted_outside_bridge")
    if forged:
        flags.add("audit_forged")
    return replace(evidence, flags=frozenset(flags), probes=probes, reads=tuple(reads),
                   events=events, audited=True)


AUTO_LOCK = "Auto-Lock"
"""The setting (Settings > Display & Brightness) that locks a phone left alone that long."""


def unlock_after_turn(rig: Rig, plan: AttemptPlan, mark: int,
                       intents: tuple[AuditEvent, ...]) -> bool:
    """Unlock a phone that locked itself during the agent's turn because the agent changed its
    Auto-Lock, before the end state is captured; True when it did. The screen the agent left is
    behind the lock: taken for the rig down, it would let an agent set Auto-Lock short and wait
    to have any attempt not scored, and stop the run. A phone set up for phoneshell says Never
    (`phoneshell doctor`), so only an agent that changed it can have it lock by itself: the
    lock is asked (one read) only then, and an attempt that left Auto-Lock alone costs nothing.
    WDA unlocks a phone without a passcode (with one, the rig is down, as the check after
    capture finds). A lock the agent pressed stays its failure (`agent_broke_rig`), graded on
    the lock screen. Unlocked before the capture's first read and around the log, so what that
    read shows is still compared with what the agent's last action left (a lock hides no
    change made around the bridge)."""
    # the agent's intents (`intents`, read once after its turn) are enough to see what it
    # changed, and leave its last action's outcome (a read) to the capture's first source
    if all(c.title != AUTO_LOCK for c in changed_settings(intents)):
        return False
    if agent_broke_rig(audit_slice(rig, plan, mark)[0]) or not rig.phone.locked():
        return False
    # Straight to the phone, not through the bridge: logged, the unlock would be the action
    # the capture's first read is compared with, and a change made around the bridge before
    # the lock would pass for the unlock's doing. The `unlocked` flag records it instead.
    direct = Phone(rig.bridge.upstream.url, timeout_s=rig.phone.timeout_s)
    direct.unlock()
    return not direct.locked()  # still locked (a passcode): the rig, found after capture
