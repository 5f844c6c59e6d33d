"""The run context a bridge stamps on every event: run, task, attempt and phase.

The runner sets it before each part of an attempt (through `BridgeServer.set_context` or the
control route `POST /phoneshell/bridge/context`); with none set, actions are logged under the
explicit `unscoped` run. A run id names a folder, so it is checked before it can touch a path.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from phoneshell.errors import BridgeError
from phoneshell.records import UNSCOPED_RUN, Phase, RecordError, check_name

CONTEXT_PHASES: tuple[Phase, ...] = ("setup", "probe", "agent", "check", "teardown")
"""The phases a runner may set; `unscoped` belongs to the bridge alone."""


@dataclass(frozen=True)
class RunContext:
    """Who is acting: which run, task and attempt, and which part of the attempt."""

    run_id: str = UNSCOPED_RUN
    """The run folder's name; `unscoped` when no context was set."""
    task_id: str = ""
    attempt: int = 0
    phase: Phase = "unscoped"

    @property
    def scoped(self) -> bool:
        """Whether a runner set this context (False for the unscoped run)."""
        return self.run_id != UNSCOPED_RUN

    def to_json(self) -> dict[str, str | int]:
        """The context as the control route shows it."""
        return {"run_id": self.run_id, "task_id": self.task_id, "attempt": self.attempt,
                "phase": self.phase}


UNSCOPED = RunContext()


def make_context(run_id: str, task_id: str, attempt: int, phase: str) -> RunContext:
    """Check and build a runner's context.

    Raises:
        BridgeError: a run id that is not a plain folder name, or an unknown phase.
    """
    try:
        check_name(run_id, "run_id")
        if task_id:
            check_name(task_id, "task_id")
    except RecordError as exc:
        raise BridgeError(str(exc), hint="the run id names the folder runs/<run_id>/, the "
                                         "task id attempts/<task_id>/") from None
    if run_id == UNSCOPED_RUN:
        raise BridgeError(f"bad run_id {run_id!r}: it is the bridge's own",
                          hint="the run id names the folder runs/<run_id>/")
    if not isinstance(attempt, int) or isinstance(attempt, bool) or attempt < 0:
        raise BridgeError(f"bad attempt {attempt!r}: want an integer >= 0")
    if phase not in CONTEXT_PHASES:
        raise BridgeError(f"bad phase {phase!r}: want one of {', '.join(CONTEXT_PHASES)}")
    return RunContext(run_id, task_id, attempt, phase)


def context_from_json(data: object) -> RunContext:
    """Read a context from the control route's JSON body (unknown keys are refused).

    Raises:
        BridgeError: the body is not an object with a valid context.
    """
    if not isinstance(data, Mapping):
        raise BridgeError("the context must be a JSON object with run_id, task_id, attempt, "
                          "phase")
    extra = sorted(set(data) - {"run_id", "task_id", "attempt", "phase"})
    if extra:
        raise BridgeError(f"unknown context field(s): {', '.join(extra)}")
    missing = [key for key in ("run_id", "phase") if key not in data]
    if missing:
        raise BridgeError(f"the context needs {' and '.join(missing)}")
    return make_context(cast(str, data["run_id"]), cast(str, data.get("task_id", "")),
                        cast(int, data.get("attempt", 0)), cast(str, data["phase"]))
