"""What a run's agents leave on a phone that no task cleans up: Safari's tabs, alarms, World
Clock's cities, and timers or a stopwatch left going.

A URL opened from outside Safari (`POST /url`, which agents and reference finishes use) takes
a new tab each time, so a suite run on one phone leaves about twenty, and nothing an attempt
does is wrong by it: no task counts them, and counting them before and after every Safari
attempt would cost about 5 s each on a real phone. But they pile up run after run, and a Safari
holding about 500 turns off its new-tab control (upstream's phone reached 502, and tasks failed
by it). So the run counts the tabs once per phone before its first attempt, whatever its tasks
(by the owner watch's read of their titles, which it takes in every run, and which opens the
run's own tab when a task uses Safari: `owner_tabs`; else by their count), and closes the newest
ones beyond that count after every `TIDY_EVERY` attempts on that phone (then puts a run tab in
front again) and when its attempts end: the phone's own tabs stay, as they were (Safari adds a
tab at the end of its overview, and the newest are closed first). An agent of a Clock or
Settings task that opens URLs leaves its tabs too (once only a run with a Safari task closed
any, and such a run's tabs stayed, run after run); but a run none of whose tasks uses Safari
opens a tab only by its agents, so it closes (and counts) them only when an attempt since the
last closing may have had Safari in front, by its log (`owner_tabs.OwnerTabs.reached`: a URL
opened in Safari brings it to the front), or was not followed to its end by the owner watch: a
run whose agents stayed out of Safari reads its tabs no more than before.

An alarm an agent saves in a task that does not count alarms (a wandering agent in any Clock
task does) stays too, and on a phone it rings, over whatever attempt runs then. When any task
uses Clock, the run lists the alarms before its first attempt (each row's label and switch),
and at the same times deletes every alarm not among them: the harness never makes an alarm, and
between the two only the run's agents act. The phone's own alarms stay; when one of them was
switched or edited since, which alarms are the agents' cannot be told, and none is deleted.
World Clock's cities are treated alike (listed by name: Clock lists a city once), so a city an
agent adds is deleted and the phone's own stay.

A timer or a stopwatch an agent leaves going where nothing fails it for it would make every
later run take it for the owner's and not score its tasks that start from none of it. The owner
watch fails the attempt and stops them after every attempt whose agent acted in Clock
(`owner_going`), whatever the run's tasks; when its attempts end, the run counts again what it
counted at none before its first attempt (`none_before`, and a `some_before` count the phone had
none of), and deletes all of it that is there; the timers and the stopwatch the watch found at
none and no task counts, too, unless it followed every attempt to its end and knows them at none.

What the owner watch knows without a read (`OwnerWatch.current`: it followed every attempt on
the phone to its end) is not read again: alarms and cities it knows as listed are left alone,
and the notes and reminders wholes are taken from it (`PhoneTidy.as_found`).

Ctrl-C tidies before the run stops (a second Ctrl-C leaves it all); a rig that went down leaves
what its agents made, and the next run counts it as the phone's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from phoneshell.apps import bundle_for
from phoneshell.checks import Need
from phoneshell.checks.effects import starts_at_none, starts_with_some
from phoneshell.device import ProbeError, run_probe, run_rows
from phoneshell.device.device_state import read_device_state, set_device_state
from phoneshell.device.probes import CLOCK
from phoneshell.errors import DeviceError, StepError
from phoneshell.runner.counts import Count, count_start
from phoneshell.runner.leftovers import (
    ALARMS,
    CITIES,
    TABS,
    close_tabs,
    delete_alarms_left,
    delete_cities_left,
    delete_left,
    delete_rows_left,
)
from phoneshell.runner.owner import OwnerWatch, watch_owner
from phoneshell.runner.owner_tabs import front
from phoneshell.runner.phone_start import keep_start
from phoneshell.runner.rig import Rig, RigDown
from phoneshell.runner.unwritten import mended, said
from phoneshell.runner.wda_state import reset_found
from phoneshell.tasks import Step, Task
from phoneshell.xcui import SAFARI

T = TypeVar("T")
TIDY_EVERY = 100
"""Attempts on one phone between closings: a run's tabs never near Safari's limit of about 500
(the suite opens about one tab every four attempts)."""


def _steps(task: Task) -> tuple[Step, ...]:
    return (*task.setup, *task.teardown, *(task.solution or ()))


def uses_app(task: Task, bundle_id: str) -> bool:
    """Whether the task's app is `bundle_id`, or any of its steps start or stop it."""
    return task.app == bundle_id or any(
        (step.kind in ("launch", "terminate") and step.arg == bundle_id)
        or (step.kind == "open_app" and (bundle_for(step.arg) or step.arg) == bundle_id)
        for step in _steps(task))


def uses_safari(task: Task) -> bool:
    """Whether the task uses Safari, or any of its steps open a URL."""
    return uses_app(task, SAFARI) or any(step.kind == "open_url" for step in _steps(task))


def _before_run(rig: Rig, run_id: str, used: bool, read: Callable[[], T], unread: str,
                ) -> tuple[T | None, str]:
    """Before the first attempt, when `used`: `read()` (logged under the run, phase `probe`),
    or None and a line for the user saying `unread` and why."""
    if not used:
        return None, ""
    with rig.under_run(run_id, "probe"):
        try:
            return read(), ""
        except ProbeError as exc:
            return None, f"{unread}: {exc.message}"


def count_tabs(rig: Rig, run_id: str) -> tuple[int | None, str]:
    """Before the first attempt: how many tabs the phone's Safari has (None when they cannot be
    counted), and a line for the user when they cannot."""
    return _before_run(rig, run_id, True, lambda: int(run_probe(rig.phone, TABS, "")),
                       "Safari's tabs could not be counted before the run, so the tabs it "
                       "opens will be left open")


def list_alarms(rig: Rig, run_id: str, tasks: Iterable[Task],
                ) -> tuple[tuple[str, ...] | None, str]:
    """Before the first attempt: the phone's alarms, as their rows show (None when no task uses
    Clock, or when they cannot be listed), and a line for the user when they cannot."""
    return _before_run(rig, run_id, any(uses_app(task, CLOCK) for task in tasks),
                       lambda: run_rows(rig.phone, ALARMS, ""),
                       "the alarms could not be listed before the run, so any its agents save "
                       "will stay")


def list_cities(rig: Rig, run_id: str, tasks: Iterable[Task],
                ) -> tuple[tuple[str, ...] | None, str]:
    """Before the first attempt: World Clock's cities (None when no task uses Clock, or when
    they cannot be listed), and a line for the user when they cannot."""
    return _before_run(rig, run_id, any(uses_app(task, CLOCK) for task in tasks),
                       lambda: run_rows(rig.phone, CITIES, ""),
                       "World Clock's cities could not be listed before the run, so any its "
                       "agents add will stay")


@dataclass
class PhoneTidy:
    """One phone's housekeeping for a run (or a swap): its tabs when the run began, and the
    attempts played on it since; each method returns a line for the user ("" when none)."""

    rig: Rig
    run_id: str
    tabs: int | None
    """Safari's tabs before the first attempt; None: not counted (nothing is closed)."""
    safari: bool = True
    """Whether a task of the run uses Safari (its setups and finishes open tabs): its tabs are
    then closed at every tidying; else only when an agent may have opened one since the last
    (`_agents_tabs`)."""
    alarms: tuple[str, ...] | None = None
    """The alarms before the first attempt; None: not listed (nothing is deleted)."""
    cities: tuple[str, ...] | None = None
    """World Clock's cities before the first attempt; None: not listed (nothing is deleted)."""
    none_at_start: frozenset[Need] = frozenset()
    """What the run's tasks start from none of, counted at none before the first attempt:
    whatever of it is there when the run ends, its agents left (`delete_left`)."""
    owner: OwnerWatch | None = None
    """The owner's collections as the run found them, compared after each attempt
    (`runner.owner`); None: none could be read."""
    held: str = ""
    """How the owner held the phone when the run began, when the run turned it upright for its
    attempts ("" when it was upright already): turned back so when the run ends."""
    played: int = 0
    fronted: bool = False
    """A tidying put a run tab in front again (`attempt_done`): the run's end closes it."""

    @property
    def tidies(self) -> str:
        """What the run puts back when it stops (`finish`), for the user ("" when nothing was
        counted)."""
        return " and ".join(what for what, counted in (
            ("deletes the alarms its agents saved", self.alarms is not None),
            ("deletes the World Clock cities they added", self.cities is not None),
            ("closes the Safari tabs this run opened", self.tabs is not None),
            ("deletes what its agents left where it counted none (a timer going, the "
             "stopwatch)", bool(self.none_at_start)),
        ) if counted)

    def attempt_done(self) -> str:
        """Count an attempt; every `TIDY_EVERY`, tidy what was left so far, and put a run tab
        in front again when the owner watch keeps one there (`owner_tabs.front`): closing the
        run's tabs leaves an owner's in front."""
        self.played += 1
        if self.played % TIDY_EVERY:
            return ""
        said = [self.close()]
        if self.tabs is not None and self.owner is not None and self.owner.tabs is not None \
                and self.owner.tabs.run_tab:
            with self.rig.under_run(self.run_id, "teardown"):
                said.append(front(self.rig))
            self.fronted = True
        return "; ".join(line for line in said if line)

    def stop(self) -> str:
        """When the run is stopped during an attempt: count it as played (its agent may have
        left something, and the owner watch did not follow it to the end), then `finish`."""
        self.played += 1
        try:
            return self.finish()
        except RigDown as exc:  # the run stops for the signal; the folder's error is said
            return f"{exc.message}; {exc.hint}"

    def finish(self) -> str:
        """After the last attempt (or when the run is stopped): tidy what was left since the
        last tidying, if any attempt was played since, and delete what the agents left of what
        the run started from none of. Not before: the next attempt that starts from none of it
        fails for it (`counts.start_state`), as it should; and the run tab a tidying put in
        front, even when the last attempt was a tidying's (its tab came after it).

        Raises:
            RigDown: the bridge refused a read or an action of it because the run's audit log
                could not be written: the run folder's fault, never the phone's (`_logged`).
        """
        unlogged = self.rig.bridge.writer.unwritten(self.run_id)[0]
        lines = (self.close() if self.played % TIDY_EVERY or self.fronted else "",
                 delete_left(self.rig, self.run_id, self.none_at_start | self._going_left()),
                 delete_rows_left(self.rig, self.run_id, self._wholes()) if self.played else "",
                 self.owner.summary(self.run_id) if self.owner is not None else "",
                 self._hold_back())
        _logged(self.rig, self.run_id, unlogged)
        return "; ".join(line for line in lines if line)

    def _hold_back(self) -> str:
        """Turn the phone back as its owner held it when the run began ("" when upright)."""
        if not self.held:
            return ""
        with self.rig.under_run(self.run_id, "teardown"):
            try:
                set_device_state(self.rig.phone, "orientation", self.held)
            except (DeviceError, StepError) as exc:
                return f"the phone could not be turned back to {self.held}: {exc}"
        return f"the phone is turned back to {self.held}, as it was held when the run began"

    def close(self) -> str:
        """Close the tabs opened since the run began (`close_tabs`), and delete the alarms
        saved since (`delete_alarms_left`) and the World Clock cities added since
        (`delete_cities_left`), unless the owner watch knows them as the run found them
        (`as_found`)."""
        said = (close_tabs(self.rig, self.run_id, self.tabs)
                if self.tabs is not None and self._agents_tabs() else "",
                delete_alarms_left(self.rig, self.run_id, self.alarms)
                if self.alarms is not None and not self.as_found(ALARMS, self.alarms) else "",
                delete_cities_left(self.rig, self.run_id, self.cities)
                if self.cities is not None and not self.as_found(CITIES, self.cities) else "")
        return "; ".join(line for line in said if line)

    def _agents_tabs(self) -> bool:
        """Whether tabs may have been opened since the run counted them or last closed them
        (and so are closed now: the watch's mark starts again): always when a task of the run
        uses Safari; else when an attempt since may have had Safari in front, by its log, or
        the owner watch did not follow every attempt on the phone to its end."""
        if self.tabs is None:
            return False
        owner = self.owner
        if self.safari or owner is None or owner.tabs is None or owner.vouched != self.played:
            return True
        reached, owner.tabs.reached = owner.tabs.reached, False
        return reached

    def as_found(self, name: str, rows: tuple[str, ...]) -> bool:
        """Whether the owner watch knows collection `name` now, without a read, to hold `rows`
        (what the run listed before its first attempt): nothing of it to delete or turn back.
        The watch reads a collection after every attempt whose agent may have changed it
        (`OwnerWatch.current`); the tabs it watches by their titles, not the count they are
        closed down to, so those are read whenever tabs may have been opened (`_agents_tabs`),
        as are the timers and the stopwatch a task of the run counts (`finish`; those only the
        watch counts: `_going_left`)."""
        now = self.owner.current(name, self.played) if self.owner is not None else None
        return now is not None and now.value == len(rows) and now.rows == rows

    def _going_left(self) -> frozenset[Need]:
        """The timers and the stopwatch the owner watch found at none before the first attempt
        and no task of the run counts (`none_at_start` has those): counted again at the end
        unless the watch knows them at none without a read (`OwnerWatch.current`)."""
        owner = self.owner
        if owner is None:
            return frozenset()
        return frozenset(need for need in owner.going.at_none - self.none_at_start
                         if (now := owner.current(need.name, self.played)) is None or now.value)

    def _wholes(self) -> dict[Need, Count]:
        """The wholes of the notes and reminders counts the watch knows now (`delete_rows_left`
        need not read them)."""
        known = {name: self.owner.current(name, self.played) for name in ("notes", "reminders")
                 } if self.owner is not None else {}
        return {Need("probe", name, ""): count for name, count in known.items()
                if count is not None}


UPRIGHT = "PORTRAIT"
"""How WDA names a phone held upright (`GET /wda/deviceOrientation`)."""
TURNED = ("LANDSCAPE", "UPSIDEDOWN")
"""What WDA's names of a phone held so its screens do not read upright hold ("LANDSCAPE",
"UIA_DEVICE_ORIENTATION_LANDSCAPERIGHT", "UIA_DEVICE_ORIENTATION_PORTRAIT_UPSIDEDOWN"); a phone
lying face up on a desk, as a tethered one often does, reads upright."""


def start_phone(rig: Rig, run_id: str, tasks: Iterable[Task]) -> tuple[PhoneTidy, list[str]]:
    """Before the first attempt on a phone: put back WDA's settings an earlier client left
    (`wda_state.reset_found`), count what the tasks start from none of (`counts.count_start`),
    Safari's tabs and the alarms, and start the owner watch (with the time left on the owner's
    timers, when one is going: `owner_countdown`); the phone's housekeeping, and lines for the
    user.

    Raises:
        DeviceError: the rig is down (a count that merely fails is said in the lines).
    """
    tasks = tuple(tasks)
    unlogged = rig.bridge.writer.unwritten(run_id)[0]
    safari = any(uses_safari(task) for task in tasks)
    wda = reset_found(rig, run_id)
    rig.device_start.update(read_device_state(rig.phone))
    held, upright = _upright(rig, run_id)
    there, counts = count_start(rig, run_id, tasks)
    # a resumed run starts from what the run counted when it began, kept in its folder
    first, kept = keep_start(rig, run_id, counts)
    there = kept or there if first else "; ".join(line for line in (there, kept) if line)
    # what the run counted at none when it began of what the tasks start from none or some of
    # (it also took the tasks' other counts, which no task starts from none of)
    none_at_start = frozenset(
        need for task in tasks
        for need in (*starts_at_none(task.checks), *starts_with_some(task.checks))
        if (start := rig.started.get(need)) is not None and start[0] == 0)
    listed = counts.get(Need("probe", ALARMS, ""))  # a task counts every alarm: listed already
    alarms, unlisted = ((listed.rows, "") if listed is not None and listed.rows is not None
                        else list_alarms(rig, run_id, tasks))
    cities, no_cities = list_cities(rig, run_id, tasks)
    listed_now = {Need("probe", name, ""): Count(len(rows), rows=rows)
                  for name, rows in ((ALARMS, alarms), (CITIES, cities)) if rows is not None}
    with rig.under_run(run_id, "probe"):  # what the tasks counted or listed is not read again
        owner, unwatched = watch_owner(rig, {**counts, **listed_now}, safari)
        untimed = owner.going.watch_owners(rig)  # only when the owner has a timer going
    # the owner watch read every tab (`owner_tabs`), whatever the tasks, and may have left one
    # of the run's beyond them: the count to close down to, with no read of its own
    tabs, uncounted = ((len(owner.tabs.start), "") if owner.tabs is not None
                       else count_tabs(rig, run_id))
    _logged(rig, run_id, unlogged)
    return (PhoneTidy(rig, run_id, tabs, safari, alarms, cities, none_at_start, owner, held),
            [line for line in (wda, upright, there, uncounted, unlisted, no_cities, unwatched,
                               untimed) if line])


def _logged(rig: Rig, run_id: str, before: int) -> None:
    """Raise when the bridge refused a read of the housekeeping because the run's audit log
    could not be written (`before`: how many lines it could not write when it began): the run
    folder's fault, said as an attempt's (`unwritten.said`), never the phone's ("could not be
    counted ... will be left open").

    Raises:
        RigDown: the run folder refused a line of the audit log.
    """
    count, error = rig.bridge.writer.unwritten(run_id)
    if count > before and error is not None:  # chained: the worker finds the folder's error
        raise RigDown(said(error), hint=mended(error)) from error


def _upright(rig: Rig, run_id: str) -> tuple[str, str]:
    """Turn a phone its owner left in landscape upright for the run: every probe and task
    reads a portrait screen (in landscape the keyboard covers the rows a count reads, and an
    honest agent's notes were left uncounted). How it was held ("" when upright), and a line
    for the user."""
    held = rig.device_start.get("orientation", UPRIGHT)
    if not any(way in held.upper() for way in TURNED):
        return "", ""  # upright, or lying flat on the desk (face up): screens read upright
    with rig.under_run(run_id, "setup"):
        try:
            set_device_state(rig.phone, "orientation", UPRIGHT)
        except (DeviceError, StepError) as exc:
            return "", f"the phone is held {held} and could not be turned upright: {exc}"
    rig.device_start["orientation"] = UPRIGHT  # what an agent's turn is set back to
    return held, (f"the phone was held {held}: turned upright for the run's attempts, and back "
                  "when it ends")
