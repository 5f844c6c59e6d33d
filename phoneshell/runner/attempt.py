"""One attempt: setup -> agent -> capture -> grade -> teardown, and one results row.

Only what the agent could have caused is scored. A locked phone, a setup step that did not take,
an app that is not installed or an agent that never ran make the attempt skipped, with the
reason. A rig that stops answering raises `RigDown` so the run stops instead of recording a
string of failures. A timed-out or out-of-turns attempt never passes. Teardown always runs and
its failure is recorded.
"""

from __future__ import annotations

import json
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from phoneshell.agents import Agent, AgentContext, AgentResult
from phoneshell.device import Phone, capture_evidence, needs_of, run_step, run_steps
from phoneshell.device.phone import SPRINGBOARD
from phoneshell.errors import DeviceError, DeviceLocked, DeviceUnreachable, RunError, StepError
from phoneshell.evidence import save_evidence
from phoneshell.grade import Verdict, grade
from phoneshell.records import to_jsonable
from phoneshell.runner.results import RESULT_VERSION, Outcome, ResultRow, Teardown
from phoneshell.tasks import Task

APP_UNKNOWN = 0
"""XCUIApplicationState for a bundle id the phone does not know: the app is not installed."""


class RigDown(RunError):
    """The phone or WDA cannot run attempts any more; the run stops."""


@dataclass(frozen=True)
class AttemptPlan:
    """Which attempt to run, and where its files go."""

    run_id: str
    run_dir: Path
    task: Task
    attempt: int
    agent_url: str
    """The URL handed to the agent."""

    @property
    def folder(self) -> Path:
        """attempts/<task_id>/<n>/ inside the run folder."""
        return self.run_dir / "attempts" / self.task.id / str(self.attempt)


class _Skip(Exception):
    """Not scored: the reason is the message."""


def _check_rig(phone: Phone, task: Task) -> None:
    try:
        phone.require_unlocked()
    except DeviceLocked as exc:
        raise RigDown(exc.message, hint=exc.hint) from exc
    if task.app and task.app != SPRINGBOARD and phone.app_state(task.app) == APP_UNKNOWN:
        raise _Skip(f"{task.app} is not installed on this phone")


def _teardown(phone: Phone, task: Task) -> Teardown:
    errors = []
    for step in task.teardown:
        try:
            run_step(phone, step)
        except (StepError, DeviceError) as exc:
            errors.append(str(exc))
    return Teardown(not errors, "; ".join(errors))


@dataclass(frozen=True)
class AttemptResult:
    """The row to record, and whether the rig went down during the attempt."""

    row: ResultRow
    rig_down: bool


def run_attempt(plan: AttemptPlan, phone: Phone, agent: Agent) -> AttemptResult:
    """Run one attempt and write its evidence and verdict; return its results row.

    A locked phone or a WDA that stopped answering is reported with `rig_down`, and teardown is
    not attempted on a rig that is down.
    """
    task, folder = plan.task, plan.folder
    folder.mkdir(parents=True, exist_ok=True)
    started = time.time()
    result = AgentResult(ran=False)
    verdict: Verdict | None = None
    evidence_dir = skip_reason = error_type = ""
    rig_down = False
    try:
        _check_rig(phone, task)
        try:
            run_steps(phone, task.setup)
        except StepError as exc:
            raise _Skip(f"setup failed: {exc}") from exc
        context = AgentContext(task, task.instruction, plan.agent_url, task.max_steps,
                               task.timeout_seconds, folder)
        result = agent.run(context)
        if not result.ran:
            raise _Skip(f"the agent never ran: {result.error or 'no reason given'}")
        evidence = capture_evidence(phone, task.id, needs_of(task.checks), result.claim)
        save_evidence(evidence, folder / "evidence")
        evidence_dir = str((folder / "evidence").relative_to(plan.run_dir))
        verdict = grade(task, evidence)
        (folder / "verdict.json").write_text(json.dumps(to_jsonable(verdict), indent=2) + "\n")
    except _Skip as exc:
        skip_reason = str(exc)
    except (RigDown, DeviceUnreachable, DeviceLocked) as exc:
        skip_reason, error_type, rig_down = f"rig down: {exc}", type(exc).__name__, True
    except DeviceError as exc:  # WDA refused something the harness needed: not the agent's fault
        skip_reason, error_type = f"device error: {exc}", type(exc).__name__
    except Exception as exc:  # noqa: BLE001 - a bug in one attempt is data; the run goes on
        (folder / "traceback.txt").write_text(traceback.format_exc())
        skip_reason = f"harness error ({type(exc).__name__}): {exc}; see traceback.txt"
        error_type = type(exc).__name__
    finally:
        teardown = (_teardown(phone, task) if not rig_down
                    else Teardown(False, "not run: the rig is down"))
    scored = not skip_reason and verdict is not None
    passed = bool(scored and verdict and verdict.passed
                  and not (result.timed_out or result.out_of_turns))
    outcome: Outcome = "skipped" if not scored else "passed" if passed else "failed"
    row = ResultRow(
        v=RESULT_VERSION, run_id=plan.run_id, task_id=task.id, attempt=plan.attempt,
        agent=agent.name, outcome=outcome, passed=passed, skipped=not scored,
        skip_reason=skip_reason, checks=verdict.results if verdict else (), claim=result.claim,
        started_at=started, seconds=round(time.time() - started, 3), turns=result.turns,
        timed_out=result.timed_out, out_of_turns=result.out_of_turns, error=result.error,
        error_type=error_type, teardown=teardown, evidence=evidence_dir,
        task_sha256=task.sha256)
    return AttemptResult(row, rig_down)
