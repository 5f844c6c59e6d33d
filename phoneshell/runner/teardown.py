"""An attempt's teardown: WDA's settings the agent changed put back first (`wda_state`: the
set-back finds elements), then the phone's own states it changed, unless the capture did
(`setback.HeldBack`: the steps find the phone held as the run holds it), then every step of the
task's teardown, then what else the agent left that it does not undo (apps running, Settings
values changed), and last a session it opened replaced, the apps stopped; each run even after
one fails; what failed, and what stays as the agent left it, is reported in the `Teardown`
record, never raised."""

from __future__ import annotations

import functools
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import NamedTuple

from phoneshell.device import Phone, Readings, close_left_search, run_step, with_counts
from phoneshell.errors import DeviceError, StepError
from phoneshell.evidence import Evidence
from phoneshell.records import Teardown
from phoneshell.runner.aftermath import Changed
from phoneshell.runner.counts import Counts, spared
from phoneshell.runner.folder import write_note
from phoneshell.runner.setback import HeldBack, set_back_settings
from phoneshell.runner.wda_state import Touched, session_back, settings_back
from phoneshell.tasks import Step, Task


def teardown_readings(before: Counts, evidence: Evidence | None) -> Readings:
    """The attempt's counts, before the agent and after capture, for the teardown to clean by."""
    if evidence is not None and evidence.probes:
        return {(p.name, p.arg): (p.before, p.after) for p in evidence.probes}
    return {(n.name, n.arg): (count.value, None) for n, count in before.items()}


class Left(NamedTuple):
    """What the agent left that the task's teardown does not undo (`aftermath`)."""

    running: tuple[Step, ...] = ()
    """A terminate for each app it left running."""
    settings: tuple[Changed, ...] = ()
    """The Settings values it changed, in the order it first touched them, each with what it
    was before."""
    device: tuple[str, ...] = ()
    """The phone's own states it changed (`aftermath.changed_device`)."""
    wda: Touched = Touched()
    """What it sent of WDA's settings and sessions (`wda_state.touched`)."""


def run_teardown(phone: Phone, task: Task, folder: Path, readings: Readings,
                 before: Counts, left: Left, device_before: Mapping[str, str],
                 evidence: Evidence | None = None, held: HeldBack | None = None) -> Teardown:
    """Put back WDA's settings the agent sent (`left.wda`), and set back the phone's own state
    it changed to what the run found (`left.device`, `device_before`), unless `held` did at
    capture; then run every teardown step, stop the apps the agent left running, set back the
    Settings values it changed (`left`) and replace a session it opened, even after one
    fails; report what failed, and what stays as the agent left it, never raise. A
    `delete_created` whose count `evidence` shows may have grown by the owner's items edited
    is not run (`counts.spared`), and the row says what was left and why."""
    errors: list[str] = []
    rows = {(n.name, n.arg): c.rows for n, c in before.items() if c.rows is not None}

    def guarded(what: str, do: Callable[[], object]) -> object:
        """`do()`, or None with its failure kept in `errors`."""
        try:
            return do()
        except (StepError, DeviceError) as exc:
            errors.append(str(exc))
        except Exception as exc:  # noqa: BLE001 - a harness bug must not hide the attempt
            write_note(folder / "traceback.txt", traceback.format_exc())
            errors.append(f"harness error in {what} ({type(exc).__name__}): {exc}")
        return None

    stays = settings_back(phone, left.wda, guarded)  # first: a slider's set-back finds it
    # then: the steps find the phone held as the run holds it (a count in landscape refuses)
    held = held or HeldBack(phone, left.device, device_before)
    errors.extend(held.errors)  # at capture
    held.now(guarded)
    kept: list[str] = []
    for step in (*task.teardown, *left.running):
        why = spared(step, evidence)
        if why:  # the rows it would delete may be the owner's, edited: left, and said
            kept.append(why)
            guarded("closing the count's search", functools.partial(close_left_search, phone))
            continue
        guarded(step.describe(), functools.partial(run_step, phone,
                                                   with_counts(step, readings, rows)))
    settings = set_back_settings(phone, left.settings, guarded)
    stays += session_back(phone, left.wda, guarded)  # last: ending it may stop its app
    return Teardown(ok=not errors, error="; ".join(errors),
                    stopped=tuple(step.arg for step in left.running),
                    switched=(*settings.said, *held.said), left=tuple(kept),
                    as_was=(*settings.as_was, *held.as_was),
                    stays=(*settings.stays, *held.stays, *stays))
