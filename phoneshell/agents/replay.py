"""Agents that re-enact: `open-app` (only opens the task's app: a baseline) and `replay:RUN_DIR`
(repeats, through the bridge, the agent actions an earlier attempt of the same task logged).

Replaying a recorded finish is how the swap test grades a real agent's finish of task B as task
A. A run is replayed only when its files match its seal (`phoneshell.seal`). Each logged action
is replayed as the phone took it (`replayed`): a new session as a new session (WDA's defaults,
as facebook-wda sends them), a request that only set the client up or touched nothing as
nothing, an action WDA failed before it acted as nothing. What the log cannot reproduce (text
typed into a secure field is logged as ***; a click on an element whose target was not
resolved; a change of the phone's orientation, appearance or location, whose value the log does
not keep; several fingers or taps) is found before anything is sent, and the attempt is not
scored ("cannot replay"): a replay that cannot repeat its log is no evidence about the task.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from phoneshell.agents.base import AGENTS, Agent, AgentContext, AgentResult, takes_no_arg
from phoneshell.audit import Action, custody_breaks, refusals
from phoneshell.checks.selections import held
from phoneshell.device import Phone, run_step
from phoneshell.errors import DeviceError, StepError
from phoneshell.evidence import Claim, load_evidence
from phoneshell.holds import held_s
from phoneshell.presses import heading, logged_heading, touch_words
from phoneshell.records import Scalar
from phoneshell.records.layout import ATTEMPTS
from phoneshell.seal import verify_run
from phoneshell.seal_refusal import require_verified
from phoneshell.tasks import Step
from phoneshell.wda_routes import DEVICE_STATES
from phoneshell.xcui import SPRINGBOARD, TYPE_PREFIX


class OpenAppAgent:
    """Opens the task's app and stops: checks that pass now measure nothing the task asked."""

    name = "open-app"

    def run(self, context: AgentContext) -> AgentResult:
        """Launch `task.app` (nothing, for tasks centred on SpringBoard)."""
        app = context.task.app
        if app and app != "com.apple.springboard":
            try:
                run_step(Phone(context.wda_url), Step("launch", app))
            except (StepError, DeviceError) as exc:
                return AgentResult(ran=True, turns=1, error=str(exc),
                                   claim=Claim(status="failed", summary=str(exc)))
        return AgentResult(ran=True, turns=1, claim=Claim(status="done", summary=f"opened {app}"))


def recorded_actions(run_dir: Path, task_id: str, attempt: int | None = None,
                     ) -> tuple[tuple[Action, ...], Claim | None]:
    """The agent-phase actions of a recorded attempt of `task_id`, and its claim.

    With no `attempt`, the last attempt of the task that captured evidence is used.

    Raises:
        StepError: the run has no such attempt, or its log holds what no replay repeats: a
            request the bridge refused in the agent's turn, or a change no action explains.
    """
    folder = run_dir / ATTEMPTS / task_id
    names = (p.parent.parent.name for p in folder.glob("*/evidence/evidence.json"))
    captured = sorted((int(n) for n in names if n.isascii() and n.isdigit()), reverse=True)
    if attempt is None and not captured:
        raise StepError(f"{run_dir} has no attempt of {task_id} with evidence to replay")
    attempt = attempt if attempt is not None else captured[0]
    if attempt not in captured:
        raise StepError(f"{run_dir} has no attempt {attempt} of {task_id} with evidence")
    # The evidence keeps the slice of the log that was graded, so the replay repeats exactly
    # the actions of that try (a retried attempt reuses its number in the run's log).
    evidence = load_evidence(folder / str(attempt) / "evidence")
    unlogged = [e for e in refusals(evidence.events) if e.phase == "agent"]
    unlogged += custody_breaks(evidence.events)
    if unlogged:
        # what the bridge refused (a ban fails on it) or saw change with no action to explain
        # it is graded, and the log keeps no request a replay could send for it
        first = unlogged[0]
        raise StepError(f"cannot replay {run_dir}'s attempt {attempt} of {task_id}: its log "
                        f"holds {len(unlogged)} line(s) no replay repeats (#{first.seq} "
                        f"{first.stage}: {first.error[:120]})")
    return evidence.agent_actions(), evidence.claim


NOTHING_ROUTES: dict[str, str] = {
    "/appium/settings": "WDA's settings shape how it answers, not what the phone shows (the "
                        "bridge forwards only the harmless ones)",
    "/wda/expectNotification": "it waits for a notification and touches nothing",
    "/actions": "a touch chain of pauses only touches nothing",
    "/wda/touch/perform": "a touch chain of pauses only touches nothing",
    "/wda/touch/multi/perform": "a touch chain of pauses only touches nothing",
    "/wda/video/stop": "no screen recording runs to stop (the bridge refuses starting one)",
}
"""The routes a logged `other` may name that change nothing on the phone: replayed as nothing.
Reads (every GET but `wda_routes.GETS_THAT_ACT`, finds, an app's state, `/timeouts`) are never
logged, so a replay never meets them."""


def _opens_session(action: Action) -> bool:
    """A new session (`POST /session`): logged as a `launch` of the app it names, else as an
    `other` (`bridge.sessions.session_action`)."""
    p = action.params
    return (action.kind == "launch" and p.get("via") == "session"
            or action.kind == "other" and p.get("route") == "/session")


def unreplayable(action: Action) -> str:
    """Why the log cannot reproduce `action` ("" when it can): what the phone took of it is not
    in the log, or not something a replay can send again as it was."""
    p = action.params
    number = _numbers(p)
    if action.acted is False:
        return ""  # WDA failed it before it acted: replayed as nothing
    if _opens_session(action):
        # WDA ends the session before it (and that session's app, when it was made for one)
        # before it reads the request: with no answer logged, whether it did is not known
        return "" if action.ok is not None else ("no answer to it was logged: whether WDA "
                                                 "made the session, ending the one before and "
                                                 "maybe its app, is not known")
    if action.kind == "other":
        route = str(p.get("route", ""))
        if route in NOTHING_ROUTES:
            return ""
        if route in DEVICE_STATES:
            return (f"it changed the phone's {DEVICE_STATES[route]} to a value the log does not "
                    "keep")
        return f"the log does not say enough to replay it ({route or 'no route'})"
    if action.kind == "type" and p.get("text") == "***":
        return "typed into a secure field; the log keeps no text to replay"
    if action.kind == "type" and p.get("via") == "clear":
        return "it cleared a field, whose text the log does not keep: a replay types only"
    if action.kind == "tap":
        presses = action.presses
        if presses == 0:
            return ""  # the log says no finger went down
        at_point = {"x", "y"} <= set(number)
        if presses == 2 and at_point or presses == 1 and (at_point or action.target is not None
                                                          and (action.target.label
                                                               or action.target.name)):
            return ""
        if presses is None or presses > 1:
            return (f"a {touch_words(p)}{'' if at_point else ' on an element'}: a replay "
                    "plays one finger's tap or hold, or a double tap at a point")
    elif action.kind == "swipe" and {"from_x", "from_y", "to_x", "to_y"} <= set(number):
        return _unreplayable_slide(p, number)
    elif action.kind in ("launch", "activate", "terminate") and p.get("bundle_id") \
            or action.kind in ("home", "press") or action.kind == "open_url" and p.get("url") \
            or action.kind == "type" \
            or action.kind == "terminate" and p.get("via") == "delete_session":
        return ""
    return "the log does not say enough to replay it"


def _numbers(p: Mapping[str, Scalar]) -> dict[str, float]:
    """A logged action's numbers (coordinates, durations) by name."""
    return {k: float(v) for k, v in p.items() if isinstance(v, (int, float))
            and not isinstance(v, bool)}


def _unreplayable_slide(p: Mapping[str, Scalar], number: dict[str, float]) -> str:
    """Why a logged slide with both ends cannot be replayed as one straight drag between them
    ("" when it can): several fingers, or a first move another way than its ends go (the phone
    takes a slide's way by its first move past the slop: `presses.heading`)."""
    fingers = p.get("fingers")
    if isinstance(fingers, int) and fingers > 1:
        return f"a slide of {fingers} fingers: a replay drags one finger"
    straight = heading((number["from_x"], number["from_y"]), (number["to_x"], number["to_y"]))
    if logged_heading(p) != straight:
        return (f"its first move went {logged_heading(p)}, its ends {straight}: a replay drags "
                "straight between them")
    return ""


def replay_action(phone: Phone, action: Action) -> Phone:
    """Send one logged action again, as the phone took it (the module's docstring); the phone
    to send the next one through (after a new session: one acting in it).

    Raises:
        StepError: the action cannot be reproduced from the log (`unreplayable`), or it failed
            here though WDA did it then.
        DeviceError: the phone failed it here though WDA did it then.
    """
    why = unreplayable(action)
    if why:
        raise StepError(f"{action.describe()}: {why}")
    if action.acted is False or action.kind == "other" and not _opens_session(action) \
            or action.kind == "tap" and action.presses == 0:
        return phone
    try:
        return _send(phone, action)
    except (StepError, DeviceError):
        if action.ok is False:  # WDA failed it then too: the phone took what it takes
            return phone
        raise


def _new_session(phone: Phone, bundle_id: str | None) -> Phone:
    """Open a session as the agent's client did, naming the app the log names: WDA ends the one
    before (terminating its app when it was made for one and `shouldTerminateApp`, WDA's
    default) and starts that app afresh (`forceAppLaunch`, WDA's default). The log names the
    app only, so WDA's defaults are sent, as facebook-wda's `session()` sends them."""
    match: dict[str, object] = {"bundleId": bundle_id, "shouldWaitForQuiescence": False} \
        if bundle_id else {}
    phone.act("/session", {"capabilities": {"alwaysMatch": match}}, session=False)
    # the replay goes on in that session, as the client did: a link that finds it (`/status`)
    return Phone(phone.url, phone.timeout_s, phone.effect_timeout_s, phone.where,
                 phone.patience_s)


def _send(phone: Phone, action: Action) -> Phone:
    """Send an action `unreplayable` passed."""
    p = action.params
    number = _numbers(p)
    if _opens_session(action):
        return _new_session(phone, str(p["bundle_id"]) if action.kind == "launch" else None)
    if action.kind in ("launch", "activate") and p.get("bundle_id"):
        phone.launch(str(p["bundle_id"]))
    elif action.kind == "terminate" and p.get("via") == "delete_session":
        # A closed session ends its app only if it was created to: repeat what the log saw.
        if action.app_before not in ("", SPRINGBOARD) and action.app_after not in (
                "", action.app_before):
            phone.terminate(action.app_before)
    elif action.kind == "terminate" and p.get("bundle_id"):
        phone.terminate(str(p["bundle_id"]))
    elif action.kind == "home":
        phone.home()
    elif action.kind == "press":
        phone.press(str(p.get("button", "home")))
    elif action.kind == "open_url":
        phone.open_url(str(p["url"]))
    elif action.kind == "type":
        phone.type_keys(str(p.get("text", "")))
    elif action.kind == "swipe":
        # pressed as long as the finger held still first (a chain's `hold`, a drag's press)
        phone.drag((number["from_x"], number["from_y"]), (number["to_x"], number["to_y"]),
                   held_s(p))
    elif action.kind == "tap" and {"x", "y"} <= set(number):
        if held(action):
            phone.touch_and_hold(number["x"], number["y"], number.get("duration") or 1.0)
        elif action.presses == 2:
            phone.act("/wda/doubleTap", {"x": number["x"], "y": number["y"]})
        else:
            phone.tap(number["x"], number["y"])
    elif action.kind == "tap" and action.target is not None:
        # the same kind of element: another that shares its text (a note titled like a
        # button) is not what the agent tapped
        kind = action.target.type.removeprefix(TYPE_PREFIX)
        step = Step.tap_on(action.target.label or action.target.name, kind)
        if held(action):  # a hold on it, as long (the back button's history menu opens so)
            step = replace(step, kind="long_press", seconds=number.get("duration") or 1.0)
        run_step(phone, step)
    return phone


class ReplayAgent:
    """Repeats the agent actions of a recorded attempt of the same task id."""

    def __init__(self, run_dir: Path, attempt: int | None = None,
                 task_id: str | None = None) -> None:
        self.run_dir, self.attempt, self.task_id = run_dir, attempt, task_id
        self.name = f"replay:{run_dir}"

    def run(self, context: AgentContext) -> AgentResult:
        """Replay every logged action in order; the recorded claim is the claim."""
        task_id = self.task_id or context.task.id
        try:
            recorded, claim = recorded_actions(self.run_dir, task_id, self.attempt)
        except StepError as exc:
            return AgentResult(ran=False, error=exc.message)
        for action in recorded:  # before anything is sent: a replay cut short proves nothing
            why = unreplayable(action)
            if why:
                return AgentResult(ran=False, error=f"cannot replay {action.describe()}: {why}")
        phone = Phone(context.wda_url)
        for turn, action in enumerate(recorded, start=1):
            try:
                phone = replay_action(phone, action)
            except (StepError, DeviceError) as exc:
                return AgentResult(ran=True, turns=turn, error=str(exc),
                                   claim=Claim(status="failed", summary=f"replay stopped: {exc}"))
        return AgentResult(ran=True, turns=len(recorded), claim=claim)


def _open_app(arg: str) -> Agent:
    """Only open the task's app (a baseline: what passes with it measures nothing asked)."""
    takes_no_arg("open-app", arg)
    return OpenAppAgent()


def _replay(arg: str) -> Agent:
    """`replay:RUN_DIR`: repeat the agent actions an earlier run logged for the task."""
    if not arg:
        raise StepError("replay needs a run folder: --agent replay:runs/RUN_ID")
    # What is replayed is graded again: only a run that still matches its seal (`phoneshell
    # run` has no --unverified: its hint says what a replay needs instead)
    require_verified(Path(arg), verify_run(Path(arg)), unverified=False, warn=print,
                     anyway="a replay needs the run as phoneshell wrote and sealed it")
    return ReplayAgent(Path(arg))


AGENTS.register("open-app")(_open_app)
AGENTS.register("replay")(_replay)
