"""Reading and deleting Clock's alarms, one per read, and nothing else: what the `clean_alarms`
step (`cleanup`) and the `alarms` count and deleter stand on.

Agents save alarms despite "do not save"; upstream collected 640 of them and every read of
Clock slowed from 154 ms to 2.6 s (notes/upstream-phoneshell.md §5.3, findings 18-20). An
alarm is a run's artifact only when its row says nothing but a time and "Alarm" (no name, no
repeat: "7:30 AM, Alarm") and its switch reads off (a one-off alarm that has rung switches
itself off). A switch that cannot be read counts as on, so that alarm stays; and an alarm the
attempt counted before its agent is never one (`cleanup.clean_alarms`): an agent can switch off
an owner's alarm, and it would read as an artifact.

Only what WDA offers is used, so the same procedure runs on a real phone's Clock: Clock is
restarted (no sheet or Edit mode left over from the agent), its Alarms tab selected, then per
read one artifact row is swiped left from 55% to 15% of its width (clear of the switch on the
right: upstream's swipes from 92% toggled nine alarms on) and its Delete tapped. Every delete
is checked against a fresh read (a list re-anchors its scroll after a delete, so a batch of
deletes once removed the owner's 7:00 AM alarm): the target's row is gone and every other row
is still there in the same order. A read is trusted only when it is complete and every alarm
row has its switch (truncated reads at scale lose switches first). At most `MAX_DELETES` go per
step; the phone is left on Clock's Alarms tab (teardown terminates Clock).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from phoneshell.device.phone import Phone
from phoneshell.device.steps import run_steps, screen_signature, still_left
from phoneshell.errors import StepError
from phoneshell.tasks import Step
from phoneshell.tree import Element, PageSource

CLOCK = "com.apple.mobiletimer"
ALARM_TABS = ("Alarms", "Alarm")
"""The tab's label: "Alarms" from iOS 17, "Alarm" before."""
ALARM_ROW = re.compile(r"^\d{1,2}:\d{2}(\s?(AM|PM))?(?=,|$)")
ARTIFACT = re.compile(r"^\d{1,2}:\d{2}(\s?(AM|PM))?, Alarm$")
"""A row with no name and no repeat: "7:30 AM, Alarm", or "07:30, Alarm" on a 24-hour phone (the
UK's default), which writes no AM or PM. `\\s` also takes iOS's narrow no-break space."""
LISTS = ("XCUIElementTypeTable", "XCUIElementTypeCollectionView")
MAX_DELETES = 40
MAX_SCROLLS = 100
TRUST_READS = 3
SWIPE_FROM, SWIPE_TO = 0.55, 0.15
"""Where the delete swipe starts and ends, as shares of the row's width (clear of a switch at
the row's end)."""


@dataclass(frozen=True)
class AlarmRow:
    """One alarm's cell on screen and its switch (None when it could not be found)."""

    cell: Element
    switch: Element | None

    @property
    def label(self) -> str:
        """The cell's label, e.g. "7:30 AM, Alarm"."""
        return self.cell.label

    @property
    def on(self) -> bool:
        """Whether its switch reads on (a switch that cannot be read counts as on)."""
        return self.switch is None or self.switch.value != "0"

    @property
    def is_artifact(self) -> bool:
        """Unnamed, one-off, and switched off (a switch that cannot be read counts as on)."""
        return bool(ARTIFACT.match(self.label)) and not self.on


@dataclass(frozen=True)
class AlarmList:
    """One trusted read of Clock's Alarms tab."""

    rows: tuple[AlarmRow, ...]
    top: int
    """Where the list starts (below the navigation bar)."""
    bottom: int
    """Where it ends (above the tab bar)."""
    ends: bool = False
    """Whether the list's last row is on screen: read off the source, which holds every row
    the list has loaded, so no drag is needed to find the end (see `_ends_on_screen`)."""

    def slots(self) -> list[tuple[str, int]]:
        """(label, y) of each row, top to bottom."""
        return [(r.label, r.cell.y) for r in self.rows]

    def target(self, wanted: Callable[[AlarmRow], bool]) -> AlarmRow | None:
        """The first row `wanted` takes whose whole row is on screen (only those can be
        swiped)."""
        for row in self.rows:
            c = row.cell
            if wanted(row) and c.height > 60 and c.y >= self.top and c.y + c.height <= \
                    self.bottom:
                return row
        return None


SWITCHED = " | "
"""Between an alarm's label and its switch in `alarm_text`."""


def alarm_text(row: AlarmRow) -> str:
    """An alarm as the `alarms` count lists it: its label and whether it is on ("7:30 AM,
    Alarm | on"). An owner's alarm switched off and one an agent saved at the same time share
    a label, and only the switch tells which to delete."""
    return f"{row.label}{SWITCHED}{'on' if row.on else 'off'}"


def alarm_label(text: str) -> str:
    """The label part of an `alarm_text`."""
    return text.rsplit(SWITCHED, 1)[0]


def alarm_on(text: str) -> bool:
    """Whether an `alarm_text` reads switched on."""
    return text.rsplit(SWITCHED, 1)[-1] == "on"


def _fail(step: Step, what: str) -> StepError:
    return StepError(f"{step.describe()}: {what}")


def tab_buttons(page: PageSource, labels: tuple[str, ...] | None = None) -> list[Element]:
    """The tab bar's buttons, those with one of `labels` when given (content named like a tab,
    an alarm's own button, is not one)."""
    return [e for e in page.on_screen() if e.type == "XCUIElementTypeButton"
            and (labels is None or e.label in labels) and page.inside(e, "TabBar")]


def _alarms_tab(page: PageSource) -> Element | None:
    return next(iter(tab_buttons(page, ALARM_TABS)), None)


def _on_alarms(page: PageSource) -> bool:
    """Whether Clock shows its Alarms tab: the tab button says it is selected (trait or value),
    or, where WDA reports neither, the navigation bar is the Alarms one."""
    tab = _alarms_tab(page)
    if tab is None:
        return False
    if "Selected" in tab.traits or tab.value == "1":
        return True
    tabs = [e for e in tab_buttons(page) if "Selected" in e.traits or e.value == "1"]
    return not tabs and any(e.type == "XCUIElementTypeNavigationBar"
                            and (e.name in ALARM_TABS or e.label in ALARM_TABS)
                            for e in page.on_screen())


def _rows(page: PageSource) -> tuple[list[AlarmRow], bool]:
    """The alarm rows on screen, and whether every one of them has its switch."""
    shown = page.on_screen()
    cells = [e for e in shown if e.type == "XCUIElementTypeCell" and ALARM_ROW.match(e.label)]
    switches = [e for e in shown if e.type == "XCUIElementTypeSwitch"]
    rows = []
    for cell in cells:
        # The switch inside the row: the one labelled like the row, else the one whose centre
        # is within the row's band (a switch scrolled off reports a placeholder frame).
        same = [s for s in switches if s.label == cell.label
                and cell.y <= s.y + s.height // 2 < cell.y + cell.height]
        inside = [s for s in switches if cell.y <= s.y + s.height // 2 < cell.y + cell.height]
        found = same or inside
        rows.append(AlarmRow(cell, found[0] if len(found) == 1 else None))
    rows.sort(key=lambda r: (r.cell.y, r.cell.x))
    return rows, all(r.switch is not None for r in rows)


def list_bottom(page: PageSource) -> int:
    """Where a Clock list ends on screen: the top of the tab bar."""
    return min((e.y for e in page.on_screen() if e.type == "XCUIElementTypeTabBar"),
               default=page.height - 83)


def read_alarms(phone: Phone, step: Step) -> AlarmList:
    """Read Clock's Alarms tab until a read can be trusted.

    Raises:
        StepError: Clock is not in front on its Alarms tab, or no read could be trusted.
    """
    for _ in range(TRUST_READS):
        page = phone.page()
        if page.bundle_id != CLOCK:
            raise _fail(step, f"Clock is not in front ({page.bundle_id or 'unknown'} is)")
        if not _on_alarms(page):
            raise _fail(step, "Clock is not on its Alarms tab")
        rows, complete = _rows(page)
        if page.complete and complete:
            shown = page.on_screen()
            navs = [e.y + e.height for e in shown if e.type == "XCUIElementTypeNavigationBar"]
            bottom = list_bottom(page)
            return AlarmList(tuple(rows), max(navs, default=110), bottom,
                             _ends_on_screen(page, bottom))
        phone.forget()  # not to be trusted: read again
    raise _fail(step, f"no trustworthy read of the alarm list in {TRUST_READS} tries (cut off, "
                      "or rows without their switches)")


def _ends_on_screen(page: PageSource, bottom: int) -> bool:
    return ends_on_screen(page, bottom, lambda cell: bool(ALARM_ROW.match(cell.label)))


def ends_on_screen(page: PageSource, bottom: float, is_row: Callable[[Element], bool]) -> bool:
    """Whether the list's last row (a cell `is_row` takes) is whole on screen above `bottom`
    and inside the list's own frame. A list loads (and its source shows) every row that reaches
    into its frame, so when the last row in the source ends inside the frame, no row follows
    it; a last row cut off, hidden, or ending just at the frame's edge leaves the question to a
    drag."""
    cells = [e for e in page.elements if e.type == "XCUIElementTypeCell" and is_row(e)]
    if not cells:
        return True
    last = max(cells, key=lambda e: e.y + e.height)
    frames = [e.y + e.height for e in page.elements if e.type in LISTS
              and e.y <= last.y and e.y + e.height >= last.y]
    return (last.visible and last.y + last.height <= bottom
            and last.y + last.height < max(frames, default=0))


ALARMS_LEFT = f"{CLOCK} alarms"
"""What the `alarms` count tells `Phone.leave` when it leaves the list up, unscrolled."""


def restart_clock(phone: Phone, step: Step) -> None:
    """Terminate and launch Clock: no sheet or Edit mode left over from the agent. Not when a
    count left Clock up on one of its tabs (`Phone.leave`) and nothing acted since, as a fresh
    read shows: that screen is the harness's own, and a run of counts in Clock (the timers,
    the stopwatch, the alarms, the cities) shares one launch, each selecting its tab from there.

    Raises:
        StepError: Clock did not come to the front again.
    """
    left = phone.left()
    if left.startswith(f"{CLOCK} ") and still_left(phone, left, CLOCK,
                                                   lambda page: bool(tab_buttons(page))):
        return
    try:
        run_steps(phone, [Step("terminate", CLOCK), Step("launch", CLOCK)])
    except StepError as exc:
        raise _fail(step, f"Clock would not restart: {exc.message}") from exc


def open_alarms(phone: Phone, step: Step) -> None:
    """Restart Clock and select its Alarms tab; or, when the `alarms` count left that tab up
    (`Phone.leave`) and nothing acted since, keep it, once a fresh read shows it is still so.

    Raises:
        StepError: Clock did not come to the front, or the tab could not be selected.
    """
    if still_left(phone, ALARMS_LEFT, CLOCK, _on_alarms) is not None:
        return
    restart_clock(phone, step)
    page = phone.page()
    tab = _alarms_tab(page)
    if tab is None:
        raise _fail(step, "Clock shows no Alarms tab")
    if not _on_alarms(page):
        phone.tap(*tab.centre)
    if not phone.poll(lambda: _on_alarms(phone.page()), phone.effect_timeout_s):
        raise _fail(step, "tapping Clock's Alarms tab did not select it")


def _gap_closed(before: list[tuple[str, int]], gone: int, after: list[tuple[str, int]]) -> bool:
    """Whether `after` is `before` without row `gone`, every other row kept in order.

    The list may have moved (a row slides in at an end, or the list re-anchors up or down),
    but no row other than the target may be missing from between the rows still shown.
    """
    if after == before:
        return False
    others = [label for i, (label, _) in enumerate(before) if i != gone]
    labels = [label for label, _ in after]
    for shift in (-1, 0, 1):
        pairs = [(others[i], labels[i + shift]) for i in range(len(others))
                 if 0 <= i + shift < len(labels)]
        if len(pairs) >= len(others) - 1 and all(a == b for a, b in pairs):
            return True
    return False


def swipe_to_delete(phone: Phone, step: Step, cell: Element) -> Callable[[], Element | None]:
    """Swipe a list row left and wait for the Delete button it reveals; return a finder of that
    button in the row (reading the screen as it stands when called).

    Raises:
        StepError: no Delete button showed in the row.
    """
    y = cell.y + cell.height / 2
    phone.drag((cell.x + cell.width * SWIPE_FROM, y), (cell.x + cell.width * SWIPE_TO, y), 0.1)

    def delete_button() -> Element | None:
        return next((e for e in phone.page().on_screen() if e.type == "XCUIElementTypeButton"
                     and e.label == "Delete" and cell.y <= e.y + e.height // 2
                     < cell.y + cell.height), None)

    if not phone.poll(lambda: delete_button() is not None, phone.effect_timeout_s):
        raise _fail(step, f"swiping {cell.label!r} left did not show its Delete button")
    return delete_button


def flip_switch(phone: Phone, step: Step, row: AlarmRow) -> None:
    """Tap an alarm's switch, and see it read the other way on the same row.

    Raises:
        StepError: the row has no switch, or the switch did not turn.
    """
    if row.switch is None:
        raise _fail(step, f"{row.label!r} shows no switch to turn")
    was = row.on
    phone.tap(*row.switch.centre)

    def turned() -> bool:
        now = read_alarms(phone, step)
        return any(r.label == row.label and r.cell.y == row.cell.y and r.on != was
                   for r in now.rows)

    if not phone.poll(turned, phone.effect_timeout_s):
        raise _fail(step, f"tapping the switch of {row.label!r} did not turn it")


def _delete(phone: Phone, step: Step, row: AlarmRow) -> None:
    cell = row.cell
    delete_button = swipe_to_delete(phone, step, cell)
    # Read again right before the tap (the list may still be moving after the swipe): the
    # row must still be the one that was swiped.
    phone.forget()
    now = read_alarms(phone, step)
    if (row.label, cell.y) not in now.slots():
        raise _fail(step, f"the list moved while deleting {row.label!r}; nothing was deleted")
    button = delete_button()
    if button is None:
        raise _fail(step, f"the Delete button of {row.label!r} went away")
    before = now.slots()
    gone = before.index((row.label, cell.y))
    phone.tap(*button.centre)
    if not phone.poll(lambda: _gap_closed(before, gone, read_alarms(phone, step).slots()),
                      phone.effect_timeout_s):
        after = read_alarms(phone, step).slots()
        lost = Counter(label for label, _ in before) - Counter(label for label, _ in after)
        raise _fail(step, f"deleting {row.label!r} did not take effect as it should (rows no "
                          f"longer shown: {sorted(lost.elements())})")


def delete_alarms(phone: Phone, step: Step, wanted: Callable[[AlarmRow], bool], limit: int,
                  took: Callable[[AlarmRow], None] | None = None,
                  act: Callable[[Phone, Step, AlarmRow], None] | None = None) -> int:
    """Delete the rows `wanted` takes (asked again for each read; `took` is told of each row
    deleted), one per read, top to bottom, scrolling down when none is shown, at most `limit`;
    return how many went. With `act`, do that to each instead (`flip_switch`)."""
    open_alarms(phone, step)
    deleted = scrolls = 0
    while deleted < limit:
        view = read_alarms(phone, step)
        row = view.target(wanted)
        if row is not None:
            (act or _delete)(phone, step, row)
            deleted += 1
            if took is not None:
                took(row)
            continue
        if scrolls >= MAX_SCROLLS or not view.rows or view.ends:
            break
        # Show the next half screen of the list (less than a screen, so no row that was cut
        # off at the bottom is skipped); a drag that changes nothing means the end.
        if not _scroll_on(phone, view):
            break
        scrolls += 1
    return deleted


def _scroll_on(phone: Phone, view: AlarmList) -> bool:
    before = screen_signature(phone)
    first = view.rows[0].cell
    x, middle = first.x + first.width * 0.4, (view.top + view.bottom) / 2
    height = view.bottom - view.top
    phone.drag((x, middle + height / 4), (x, middle - height / 4))
    return phone.poll(lambda: screen_signature(phone) != before, 1.0)
