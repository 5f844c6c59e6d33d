"""What a run leaves on a phone that no task cleans up: Safari's tabs.

A URL opened from outside Safari (`POST /url`, which agents and reference finishes use) takes
a new tab each time, so a suite run on one phone leaves about twenty, and nothing an attempt
does is wrong by it: no task counts them, and counting them before and after every Safari
attempt would cost about 5 s each on a real phone. But they pile up run after run, and a Safari
holding about 500 turns off its new-tab control (upstream's phone reached 502, and tasks failed
by it). So the run counts the tabs once per phone before its first attempt, when any of its
tasks uses Safari, and closes the newest ones beyond that count after every `TIDY_EVERY`
attempts on that phone and when its attempts end: the phone's own tabs stay, as they were
(Safari adds a tab at the end of its overview, and the newest are closed first).

Ctrl-C closes them before the run stops (a second Ctrl-C leaves them); a rig that went down
leaves its tabs, and the next run counts them as the phone's own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from phoneshell.apps import bundle_for
from phoneshell.device import ProbeError, run_probe, run_step, with_counts
from phoneshell.device.probes import SAFARI
from phoneshell.errors import DeviceError, StepError
from phoneshell.runner.counts import count_start
from phoneshell.runner.rig import Rig
from phoneshell.tasks import Step, Task

TABS = "safari_tabs"
TIDY_EVERY = 100
"""Attempts on one phone between closings: a run's tabs never near Safari's limit of about 500
(the suite opens about one tab every four attempts)."""


def uses_safari(task: Task) -> bool:
    """Whether the task's app is Safari, or any of its steps open Safari or a URL."""
    steps = (*task.setup, *task.teardown, *(task.solution or ()))
    return task.app == SAFARI or any(
        step.kind == "open_url" or (step.kind in ("launch", "terminate") and step.arg == SAFARI)
        or (step.kind == "open_app" and (bundle_for(step.arg) or step.arg) == SAFARI)
        for step in steps)


def count_tabs(rig: Rig, run_id: str, tasks: Iterable[Task]) -> tuple[int | None, str]:
    """Before the first attempt: how many tabs the phone's Safari has (None when no task uses
    Safari, or when they cannot be counted), and a line for the user when they cannot."""
    if not any(uses_safari(task) for task in tasks):
        return None, ""
    rig.enter(run_id, "", 0, "probe")
    try:
        return int(run_probe(rig.phone, TABS, "")), ""
    except ProbeError as exc:
        return None, (f"Safari's tabs could not be counted before the run, so the tabs it opens "
                      f"will be left open: {exc.message}")
    finally:
        rig.bridge.clear_context()


def close_tabs(rig: Rig, run_id: str, start: int) -> str:
    """Close the tabs opened since Safari had `start` (logged under the run, phase
    `teardown`); say what was done, or why it could not be ("" when none were opened)."""
    rig.enter(run_id, "", 0, "teardown")
    try:
        now = int(run_probe(rig.phone, TABS, "", leave_open=True))  # the overview stays up
        if now <= start:
            run_step(rig.phone, Step("terminate", SAFARI))
            return ""
        run_step(rig.phone, with_counts(Step("delete_created", options=(("probe", TABS),)),
                                        {(TABS, ""): (start, now)}))
    except ProbeError as exc:
        return f"the Safari tabs this run opened could not be counted, so they stay: {exc.message}"
    except (StepError, DeviceError) as exc:
        return f"the Safari tabs this run opened could not all be closed: {exc}"
    finally:
        rig.bridge.clear_context()
    return (f"closed the {now - start} Safari tab(s) this run opened; {start} open, as the "
            "run found them")


@dataclass
class PhoneTidy:
    """One phone's housekeeping for a run (or a swap): its tabs when the run began, and the
    attempts played on it since; each method returns a line for the user ("" when none)."""

    rig: Rig
    run_id: str
    tabs: int | None
    """Safari's tabs before the first attempt; None: not counted (nothing is closed)."""
    played: int = 0

    def attempt_done(self) -> str:
        """Count an attempt; every `TIDY_EVERY`, close the tabs opened so far."""
        self.played += 1
        return self.close() if self.played % TIDY_EVERY == 0 else ""

    def finish(self) -> str:
        """After the last attempt: close the tabs opened since the last closing, if any
        attempt was played since."""
        return self.close() if self.played % TIDY_EVERY else ""

    def close(self) -> str:
        """Close the tabs opened since the run began (`close_tabs`)."""
        return close_tabs(self.rig, self.run_id, self.tabs) if self.tabs is not None else ""


def start_phone(rig: Rig, run_id: str, tasks: Iterable[Task]) -> tuple[PhoneTidy, list[str]]:
    """Before the first attempt on a phone: count what the tasks start from none of
    (`counts.count_start`) and Safari's tabs; the phone's housekeeping, and lines for the user.

    Raises:
        DeviceError: the rig is down (a count that merely fails is said in the lines).
    """
    tasks = tuple(tasks)
    there = count_start(rig, run_id, tasks)
    tabs, uncounted = count_tabs(rig, run_id, tasks)
    return PhoneTidy(rig, run_id, tabs), [line for line in (there, uncounted) if line]
