"""Agents that re-enact: `open-app` (only opens the task's app: a baseline) and `replay:RUN_DIR`
(repeats, through the bridge, the agent actions an earlier attempt of the same task logged).

Replaying a recorded finish is how the swap test grades a real agent's finish of task B as task
A. A run is replayed only when its files match its seal (`phoneshell.seal`). What the log cannot
reproduce (text typed into a secure field is logged as ***; a click on an element whose target
was not resolved) stops the replay with the reason.
"""

from __future__ import annotations

from pathlib import Path

from phoneshell.agents.base import AGENTS, Agent, AgentContext, AgentResult
from phoneshell.audit import Action
from phoneshell.checks.selections import held
from phoneshell.device import Phone, run_step
from phoneshell.errors import DeviceError, StepError
from phoneshell.evidence import Claim, load_evidence
from phoneshell.seal import require_verified, verify_run
from phoneshell.tasks import Step
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
        StepError: the run has no such attempt.
    """
    folder = run_dir / "attempts" / task_id
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
    return evidence.agent_actions(), evidence.claim


def replay_action(phone: Phone, action: Action) -> None:
    """Send one logged action again.

    Raises:
        StepError: the action cannot be reproduced from the log.
    """
    p = action.params
    number = {k: float(v) for k, v in p.items() if isinstance(v, (int, float))
              and not isinstance(v, bool)}
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
        text = str(p.get("text", ""))
        if text == "***":
            raise StepError(f"{action.describe()}: typed into a secure field; the log keeps no "
                            "text to replay")
        phone.type_keys(text)
    elif action.kind == "swipe" and {"from_x", "from_y", "to_x", "to_y"} <= set(number):
        phone.drag((number["from_x"], number["from_y"]), (number["to_x"], number["to_y"]),
                   number.get("duration", 0.0))
    elif action.kind == "tap" and {"x", "y"} <= set(number):
        if held(action):
            phone.touch_and_hold(number["x"], number["y"], number.get("duration") or 1.0)
        else:
            phone.tap(number["x"], number["y"])
    elif action.kind == "tap" and action.target is not None and (action.target.label
                                                                 or action.target.name):
        # the same kind of element: another that shares its text (a note titled like a
        # button) is not what the agent tapped
        kind = action.target.type.removeprefix(TYPE_PREFIX)
        run_step(phone, Step.tap_on(action.target.label or action.target.name, kind))
    else:
        raise StepError(f"{action.describe()}: the log does not say enough to replay it")


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
        phone = Phone(context.wda_url)
        for turn, action in enumerate(recorded, start=1):
            try:
                replay_action(phone, action)
            except (StepError, DeviceError) as exc:
                return AgentResult(ran=True, turns=turn, error=str(exc),
                                   claim=Claim(status="failed", summary=f"replay stopped: {exc}"))
        return AgentResult(ran=True, turns=len(recorded), claim=claim)


def _open_app(arg: str) -> Agent:
    """Only open the task's app (a baseline: what passes with it measures nothing asked)."""
    return OpenAppAgent()


def _replay(arg: str) -> Agent:
    """`replay:RUN_DIR`: repeat the agent actions an earlier run logged for the task."""
    if not arg:
        raise StepError("replay needs a run folder: --agent replay:runs/RUN_ID")
    # What is replayed is graded again: only a run that still matches its seal.
    require_verified(Path(arg), verify_run(Path(arg)), unverified=False, warn=print)
    return ReplayAgent(Path(arg))


AGENTS.register("open-app")(_open_app)
AGENTS.register("replay")(_replay)
