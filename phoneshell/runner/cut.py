"""What a stop signal leaves: the row of an attempt it ended before it made its own
(`cut_short`), and the run's tidy-up, which a first stop waits for and a second cuts short
(`tidy_up`)."""

from __future__ import annotations

import time
from collections.abc import Callable

from phoneshell.records import ResultRow, Teardown
from phoneshell.runner import stop
from phoneshell.runner.plan import AttemptPlan
from phoneshell.runner.stop import stopped_by

__all__ = ["cut_short", "tidy_up"]


def tidy_up(say: Callable[[str], None], work: Callable[[], str]) -> None:
    """Put back what the run's agents left (`tidy.PhoneTidy`): a first stop signal waits for it
    to end and then stops the run; a second cuts it short, said."""
    try:
        with stop.tidying() as tidy:
            say(work())
    except KeyboardInterrupt as exc:
        say(f"the tidy-up was cut short ({stopped_by(exc)} again): what the run's agents left "
            "(alarms, cities, tabs, a timer) may still be on the phone")
        raise
    if tidy.held is not None:
        raise tidy.held


def cut_short(plan: AttemptPlan, agent: str, exc: BaseException) -> ResultRow:
    """The row of an attempt a stop signal ended before it made its own (a second Ctrl-C or
    SIGTERM in its teardown, or one before its phases began): not scored, so its folder is
    sealed with the run and a resume plays it again."""
    why = (f"interrupted ({stopped_by(exc)}) before the attempt was recorded; its teardown "
           "was cut short")
    return ResultRow(
        run_id=plan.run_id, task_id=plan.task.id, attempt=plan.attempt, agent=agent,
        outcome="skipped", passed=False, skipped=True, skip_reason=why, checks=(), claim=None,
        started_at=time.time(), seconds=0.0, error_type="KeyboardInterrupt",
        teardown=Teardown(ok=False, error="cut short by a stop signal"),
        task_sha256=plan.task.sha256, device=plan.device)
