"""The rig: one phone behind a bridge the runner holds the keys to, and whether it still works.

The bridge gets a token of its own (the harness's `Phone` drives through it) and a control
token, both random, both kept in this process. Each attempt's agent is granted a URL of its own
and the grant is revoked when it stops (`runner.attempt`). How strictly the bridge judges
custody follows the phone: a simulated iPhone acts at once and its screens change on input
alone; a real one finishes transitions after WDA answers.

The rig check after a failure is cheap: one read says whether the phone is locked, and the
attempt's own log usually shows the phone answering input (an action that changed the screen);
only when it shows input going nowhere is input probed, with a handful of requests.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bridge import BridgeServer, Trajectory
from bridge.audit_log import AuditWriteError
from bridge.custody import Custody
from bridge.observe import Observation, from_xml
from bridge.shares import AGENT_LOG_BYTES
from phoneshell.audit import Action, actions, audit_size
from phoneshell.checks import Need
from phoneshell.device import Phone
from phoneshell.device.phone import SPRINGBOARD
from phoneshell.errors import DeviceLocked, RunError, shown_url
from phoneshell.patience import PHONE_PATIENCE_S
from phoneshell.records import AuditEvent, DeviceKind
from phoneshell.records.layout import AUDIT
from phoneshell.tasks import Task

REAL_SETTLE_S = 2.0
"""How long a real phone may go on finishing an action after WDA answered (an app opening)."""
GESTURES = frozenset({"tap", "type", "home", "press", "swipe"})
"""Input the touch screen and buttons take. A launch is no proof of those: WDA launches apps
through XCTest even on a phone whose touches go nowhere."""


class RigDown(RunError):
    """The phone or WDA cannot run attempts any more; the run stops."""


@dataclass
class LastSeen:
    """What the harness last saw of the phone, kept until an agent's turn could change it."""

    unlocked: bool = False
    """The phone was last seen unlocked, and nothing since could have locked it: the run's
    check before its first attempt, the rig check after a failure, or a capture with an app in
    front (a locked phone shows SpringBoard's lock screen), with only the harness acting since.
    The next attempt then asks no lock before its setup (`runner.attempt`); a phone locked
    meanwhile by a person or an Auto-Lock left short fails that setup, which asks then."""
    agent_apps: tuple[str, ...] = ()
    """The apps the last agent to act had in front (`audit.apps_in_front`)."""
    agent_of: str = ""
    """Whose that agent was: "TASK attempt N"."""


@dataclass(frozen=True)
class Rig:
    """The phone as attempts use it: the bridge in front of it, and the harness's `Phone` on the
    bridge's URL (so the harness's own steps are logged too)."""

    bridge: BridgeServer
    phone: Phone
    private: bool = False
    """Nothing but the bridge can reach the phone (a simulator phoneshell started, behind a
    secret path; a USB phone through the system's usbmuxd socket, which the sandbox hides): a
    sandboxed agent cannot go around the bridge. A usbmuxd reached any other way may be one the
    sandbox reaches over the host's network (`usbmux.reachable_usbmuxd`): not private."""
    reach: str = ""
    """How an agent's program could reach the phone without the bridge, as the run says it
    ("" when private)."""
    clock_runs: bool = True
    """The phone's clock runs as a real phone's does (False: phoneshell's simulator, whose clock
    moves only when told; its evidence is flagged `clock_still`). Set by `open_rig`, with the
    bridge's chain of custody to match: never change one without the other."""
    counts_requests: bool = False
    """The phone counts every WDA request it received, by route (phoneshell's simulator: `GET
    /phoneshell/sim/requests`): on a rig that is not private, the witness of what reached it
    around the bridge (`runner.around`)."""
    seen: LastSeen = field(default_factory=lambda: LastSeen())
    """What the harness last saw of the phone that only an agent's turn can change."""
    at_none: set[Need] = field(default_factory=set)
    """The counts this run last saw at none on this phone (`runner.counts`): any found there
    later are its agents' doing."""
    at_some: set[Need] = field(default_factory=set)
    """The counts this run last saw above none on this phone: none found there later is its
    agents' doing."""
    lost: set[Need] = field(default_factory=set)
    """Counts its agents emptied where a task starts from some (`runner.counts`): found still
    empty later, that is their doing too, until some are counted again."""
    counted: set[Need] = field(default_factory=set)
    """The counts this run read a number for on this phone: found uncountable later (more
    than a screen of notes to count, say), that is its agents' doing (`runner.counts`)."""
    listed: dict[Need, tuple[str, ...]] = field(default_factory=dict)
    """What each count that lists its rows (`device.ROWS`) showed before the run's first
    attempt: what a count its agents buried beyond counting is dug back down to
    (`counts.uncountable`), and what the run deletes down to when it ends (`tidy`)."""
    started: dict[Need, tuple[int, tuple[str, ...] | None]] = field(default_factory=dict)
    """Each count taken before the run's first attempt, and the rows it listed (None: it lists
    none): what the run's end compares with before it deletes what its agents left
    (`counts.left_since_start`), as an attempt's teardown compares with its count before the
    agent."""
    turns: list[str] = field(default_factory=list)
    """Each agent's turn on this phone so far, in order ("TASK attempt N"): whose agent changed
    a count since the run last saw it as it started (`as_started`)."""
    as_started: dict[Need, int] = field(default_factory=dict)
    """For each count, how many agents' turns (`turns`) had been played when the run last
    counted it on the side of none it started on (`started`): an agent after that changed it
    (`runner.counts.changed_by`)."""
    device_start: dict[str, str] = field(default_factory=dict)
    """The phone's own state before the run's first attempt (`device.device_state`: how it is
    held, light or dark, a simulated location): what an agent changed of it is set back to."""

    def __post_init__(self) -> None:
        # Until an agent is granted, only the harness drives the phone through this bridge:
        # what its last action left needs no read before the next (`BridgeServer.confined`),
        # as between the attempts of a confined agent.
        self.bridge.confined = True

    def enter(self, run_id: str, task_id: str, attempt: int, phase: str) -> None:
        """Log what comes next under this attempt and phase."""
        if "agent" in (phase, self.bridge.context.phase):
            # The agent acts through its own client: nothing the harness read before it holds.
            self.phone.forget()
        if phase == "agent" and self.bridge.context.phase != "agent":
            self.turns.append(f"{task_id} attempt {attempt}")
        self.bridge.set_context(run_id, task_id, attempt, phase)

    def in_turns_wake(self) -> bool:
        """Whether what is logged now comes after the current attempt's agent's turn (its
        capture, teardown, the owner watch after it), not before it or outside any attempt."""
        context = self.bridge.context
        return bool(context.task_id and self.turns
                    and self.turns[-1] == f"{context.task_id} attempt {context.attempt}")

    @contextmanager
    def under_run(self, run_id: str, phase: str) -> Iterator[None]:
        """Log what the block does under the run itself (no task or attempt), in `phase`, and
        under nothing once it ends, however it ends."""
        self.enter(run_id, "", 0, phase)
        try:
            yield
        finally:
            self.bridge.clear_context()

    def audit_mark(self, run_dir: Path) -> int:
        """Where the run's audit log ends now: this try's events all come after it (a retried
        attempt reuses its task and attempt number, but never its place in the log)."""
        return audit_size(run_dir / AUDIT)

    def audit_slice(self, run_id: str, task_id: str, attempt: int, mark: int,
                    outcomes: bool = True) -> tuple[tuple[AuditEvent, ...], tuple[str, ...]]:
        """This try's events since `mark`, every phase so far, as the bridge wrote them; and
        the lines in that stretch of the file the bridge did not write (never graded).

        Other phones may be writing the same log; their lines carry other tasks. A line still
        being written by one of them is not ours: every action of this try was answered, so its
        outcome line was written, before this is read.

        Args:
            outcomes: have the bridge write the last action's outcome first when its after is
                still pending (one read); False where intents are enough.
        """
        if outcomes:
            self.bridge.recorder.settle()
        try:
            found = self.bridge.writer.verify(run_id, mark)
        except AuditWriteError as exc:
            raise RunError(exc.message, hint="the run folder must stay readable") from exc
        mine = tuple(e for e in found.events if e.task_id == task_id
                     and e.attempt == attempt and e.run_id == run_id)
        return mine, found.forged


@contextmanager
def open_rig(url: str, runs_dir: Path, kind: DeviceKind = "sim", private: bool = False,
             timeout_s: float = 60.0, effect_timeout_s: float | None = None,
             trajectory: Trajectory | None = None,
             agent_log_bytes: int = AGENT_LOG_BYTES, reach: str = "",
             patience_s: float | None = None, clock_runs: bool = False) -> Iterator[Rig]:
    """A bridge with fresh secrets in front of the phone at `url`, and the harness's `Phone`.

    Args:
        kind: sim (effects at once, screens still until input) or a real phone.
        private: the phone can be reached only through this bridge (see `Rig.private`).
        timeout_s: how long the harness waits for WDA to answer a request.
        effect_timeout_s: how long it waits for an effect to show (default: 1 s on a
            simulator, which acts at once; 5 s on a real phone, which animates).
        trajectory: keep the agent's screens there (`--trajectory`; one for a run's rigs).
        agent_log_bytes: how much of the audit log each agent's turn may write.
        reach: how a program could reach the phone without the bridge (see `Rig.reach`).
        patience_s: how long a read WDA refused is asked again (`phoneshell.patience`;
            default: a real phone's 5 s, on a simulator too, or, where the caller set the
            effect timeout, as long as that, at least 1 s).
        clock_runs: the simulator's clock runs as a real phone's does (moved with real time;
            by default it moves only when told; a real phone's always runs). Where it runs, a
            screen may change by itself (a timer counts down), so the chain of custody compares
            only the front app (`Custody.screens_static`): `Rig.clock_runs` and the custody
            always agree.
    """
    sim = kind == "sim"
    runs = not sim or bool(clock_runs)
    custody = (Custody(settle_s=0.0, screens_static=not runs) if sim
               else Custody(REAL_SETTLE_S))
    bridge = BridgeServer(url, runs_dir=runs_dir, token=secrets.token_urlsafe(24),
                          control_token=secrets.token_urlsafe(24), custody=custody,
                          trajectory=trajectory, agent_log_bytes=agent_log_bytes)
    effect_s = effect_timeout_s if effect_timeout_s is not None else 1.0 if sim else 5.0
    with bridge:
        # the harness's messages name the phone, not the bridge's URL: that holds its token
        if patience_s is None:
            patience_s = PHONE_PATIENCE_S if effect_timeout_s is None else max(1.0, effect_s)
        phone = Phone(bridge.url, timeout_s, effect_s, where=f"{shown_url(url)} (through the "
                                                               "bridge)", patience_s=patience_s)
        yield Rig(bridge, phone, private, reach, clock_runs=runs, counts_requests=sim)


def responded(events: Sequence[AuditEvent]) -> bool:
    """Whether the agent's own logged gestures show the phone answering: one that changed the
    front app or the screen."""
    for action in actions(events):
        if action.phase != "agent" or action.kind not in GESTURES or not action.ok:
            continue
        if _changed(action):
            return True
    return False


def _changed(action: Action) -> bool:
    app = bool(action.app_before and action.app_after and action.app_before != action.app_after)
    screen = bool(action.screen_before and action.screen_after
                  and action.screen_before != action.screen_after)
    return app or screen


def refused(events: Sequence[AuditEvent]) -> bool:
    """Whether WDA answered any of the agent's logged actions with an error."""
    return any(a.phase == "agent" and a.ok is False for a in actions(events))


def agent_input(events: Sequence[AuditEvent]) -> bool:
    """Whether the agent sent the phone any gesture at all."""
    return any(a.phase == "agent" and a.kind in GESTURES for a in actions(events))


def check_rig(rig: Rig, events: Sequence[AuditEvent]) -> None:
    """Raise `RigDown` when the phone no longer takes input, before a failure is scored.

    WDA answers 200 to every gesture on a locked or wedged phone, so an agent's failure there
    would be the rig's. One read for the lock, and one session read when WDA refused any of the
    agent's actions; then nothing more when the attempt's log already shows input reaching the
    phone, or shows the agent sending none (then nothing the phone did or did not do explains
    its failure).

    Raises:
        RigDown: the phone is locked, or input does not reach the screen.
        DeviceError: WDA refuses the harness's session too (`errors.RIG_DOWN` kinds: the rig).
    """
    try:
        rig.phone.require_unlocked()
    except DeviceLocked as exc:
        raise RigDown(exc.message, hint=exc.hint) from exc
    rig.seen.unlocked = True
    if refused(events):
        # WDA turned the agent's own actions down: one session read says whether it turns the
        # harness down too (a rig fault, raised as such), or only the agent's requests.
        rig.phone.forget()
        rig.phone.app_state(SPRINGBOARD)
    if responded(events) or not agent_input(events):
        return
    if not input_reaches(rig.phone):
        raise RigDown("input does not reach the screen: the home button left the same screen "
                      "in front, and a sideways swipe did not move it (checked after the "
                      "attempt failed)",
                      hint="`phoneshell doctor` checks the chain; a wedged phone needs a restart")


def input_reaches(phone: Phone) -> bool:
    """Press home and see the screen change; on the home screen's first page already, page it
    sideways and back.

    A handful of requests: the press, a page source or two, the swipes. Home is pressed on
    SpringBoard too: it closes Spotlight, Notification Center, Control Center or an icon's menu,
    and goes back to the first page, none of which a sideways drag moves. Where home changes
    nothing, a drag that moves nothing is tried the other way (a home screen of one page has
    nothing to page to; a phone opens the App Library there, the simulator has none): only a
    screen that moves neither way has input going nowhere. An agent that left any of these
    showing, then failed, would else have its failure skipped as the rig's, and the run stopped.
    """
    before = from_xml(phone.source())
    phone.home()
    if phone.poll(lambda: _moved(phone, before), phone.effect_timeout_s):
        return True
    size = _screen_size(before.tree)
    y = size[1] // 2
    right, left = (round(size[0] * 0.9), y), (round(size[0] * 0.1), y)
    for start, end in ((right, left), (left, right)):
        phone.drag(start, end)
        if phone.poll(lambda: _moved(phone, before), phone.effect_timeout_s):
            phone.drag(end, start)
            return True
    return False


def reads_whole(phone: Phone) -> bool:
    """Whether the phone reads its home screen whole (home, then a source or a few), after the
    screen an agent left could not be read whole: then that screen was the trouble, not the
    phone (a page too big for WDA to write out, text WDA wrote raw), and the agent left an end
    state nobody can grade; otherwise the phone is."""
    phone.home()
    return phone.poll(lambda: phone.page().complete and phone.page().bundle_id == SPRINGBOARD,
                      phone.effect_timeout_s)


def _moved(phone: Phone, before: Observation) -> bool:
    """Whether the phone shows another app or another screen than `before`."""
    now = from_xml(phone.source())
    return now.app != before.app or now.screen != before.screen


def _screen_size(tree: object) -> tuple[int, int]:
    rect = tree.get("rect") if isinstance(tree, dict) else None
    if isinstance(rect, dict):
        width, height = rect.get("width"), rect.get("height")
        if isinstance(width, (int, float)) and isinstance(height, (int, float)) and width > 0:
            return int(width), int(height)
    return 390, 844


def after_whom(seen: LastSeen, task: Task) -> str:
    """Who may have left the phone so a setup fails: the last agent to act, when it had one of
    the apps the setup works in in front ("" when it had none). An agent can leave an app in a
    state a later setup does not expect (a view it keeps over a terminate) and have later
    attempts not scored: said, so a reader of the skip sees it."""
    touched = {task.app, *(str(s.arg) for s in task.setup
                           if s.kind in ("launch", "terminate", "activate"))} - {""}
    shared = [app for app in seen.agent_apps if app in touched]
    if not shared or not seen.agent_of:
        return ""
    return (f" (the agent of {seen.agent_of} had {', '.join(shared)} in front before it: "
            "it may have left it so)")
