"""Which attempt to run and where its files go (`AttemptPlan`), and how each part of an attempt
marks its phase in the rig's audit log and reads back the attempt's slice of it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from phoneshell.agents.sandbox import Sandbox
from phoneshell.records import AuditEvent
from phoneshell.records.layout import ATTEMPTS
from phoneshell.runner.rig import Rig
from phoneshell.tasks import Task


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
    sandbox: Sandbox | None = None
    """How a program agent is confined (None: unconfined)."""
    resumable: bool = True
    """Whether `run --resume` can play the attempt again (swap and attack have no resume)."""

    @property
    def folder(self) -> Path:
        """attempts/<task_id>/<n>/ inside the run folder."""
        return self.run_dir / ATTEMPTS / self.task.id / str(self.attempt)


def enter_phase(rig: Rig, plan: AttemptPlan, phase: str) -> None:
    """Mark the attempt's `phase` in the rig's audit log: what follows is done under it."""
    rig.enter(plan.run_id, plan.task.id, plan.attempt, phase)


def audit_slice(rig: Rig, plan: AttemptPlan, mark: int, outcomes: bool = True,
                ) -> tuple[tuple[AuditEvent, ...], tuple[str, ...]]:
    """The attempt's audit events since `mark`, and the lines in its slice the bridge never
    wrote (`Rig.audit_slice`)."""
    return rig.audit_slice(plan.run_id, plan.task.id, plan.attempt, mark, outcomes)
