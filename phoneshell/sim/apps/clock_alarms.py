"""Clock's Alarms tab: the alarm list from Clock's store, and the Add/Edit Alarm sheet.

Alarms live in Clock's persistent store (`alarms`: records with id, hour 0-23, minute, label,
repeat, enabled, snooze), so a saved alarm is still there after a terminate and in the next
task, as on a phone. A row is a Cell labelled as iOS labels it ("7:30 AM, Alarm"; "6:00 AM,
Wake Up, every weekday" for a named, repeating one; "07:30, Alarm" on a 24-hour phone) with a
Switch of the same label whose value is "1" or "0"; tapping the row edits the alarm. "Add"
(drawn as "+") opens a page sheet whose navigation bar, "Add Alarm" ("Edit Alarm" for a row
tapped), holds Cancel and Save, over a time picker of three wheels ("7 o’clock", "05 minutes",
"AM"; minutes as drawn, two digits; the hour and minute wheels wrap, AM/PM does not; a 24-hour
phone has two, hours "00 o’clock" to "23 o’clock" and minutes), set to the phone's wall time as
iOS does, and rows for Repeat, Label (a text field), Sound and Snooze. Save stores the alarm
switched on. The list behind the sheet stays in the page source, as a real phone's tree keeps
it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from phoneshell.sim import layout, lists
from phoneshell.sim.apps import Drag, Host
from phoneshell.sim.apps.clock_lists import ListRow, ListState, place, swipe, table
from phoneshell.sim.apps.confirm import edit_bar
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.store import JSON, Store
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Wheel

BUNDLE_ID = "com.apple.mobiletimer"
STORE_KEY = "alarms"
HOURS = tuple(f"{h} o\u2019clock" for h in range(1, 13))
"""The hour wheel's values; iOS writes o’clock with a typographic apostrophe."""
HOURS_24 = tuple(f"{h:02d} o\u2019clock" for h in range(24))
"""A 24-hour phone's hour wheel: the hours as it draws them ("07"), spoken as o’clock (inferred:
no 24-hour dump yet)."""
MINUTES = tuple(f"{m:02d} minutes" for m in range(60))
"""The minute wheel's values: the number as the wheel draws it ("05"), then "minutes". A
phone's UIDatePicker says "00 minutes" (an iOS 18.5 capture beside "9 o’clock" and "AM", and
an app's page object asserting "10 o’clock", "00 minutes", "AM"), so the value carries the
drawn padding; set by "5 minutes", the wheel refuses it as WDA refuses a value a wheel lacks.
Minute 1 as "01 minutes" is inferred (no capture shows it): the padded number is the drawn
text, not a count, so nothing makes it singular."""
PERIODS = ("AM", "PM")


@dataclass(frozen=True)
class Alarm:
    """One stored alarm."""

    id: int
    hour: int
    """0-23."""
    minute: int
    label: str = ""
    """The name; empty shows as "Alarm"."""
    repeat: str = ""
    """How it repeats, as the list shows it ("every weekday"); empty: once."""
    enabled: bool = True
    snooze: bool = True

    @property
    def title(self) -> str:
        """The name, or "Alarm" when it has none."""
        return self.label or "Alarm"

    def accessibility_label(self, facts: DeviceFacts) -> str:
        """The row's label: time ("7:30 AM", 24-hour "07:30"), name, and the repeat if any."""
        parts = [facts.time_of_day(self.hour, self.minute), self.title]
        return ", ".join(parts + ([self.repeat] if self.repeat else []))


def _int(record: dict[str, JSON], key: str, default: int) -> int:
    value = record.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def alarms(store: Store) -> list[Alarm]:
    """The stored alarms in time order (bad records are skipped, not fatal; nothing is written,
    so drawing the list leaves the store as it was)."""
    stored = store.data.get(STORE_KEY)
    found = []
    for r in stored if isinstance(stored, list) else []:
        if not isinstance(r, dict):
            continue
        hour, minute = _int(r, "hour", -1), _int(r, "minute", -1)
        if not (0 <= hour < 24 and 0 <= minute < 60):
            continue
        label, repeat = r.get("label"), r.get("repeat")
        found.append(Alarm(_int(r, "id", 0), hour, minute,
                           label if isinstance(label, str) else "",
                           repeat if isinstance(repeat, str) else "",
                           r.get("enabled") is not False, r.get("snooze") is not False))
    return sorted(found, key=lambda a: (a.hour, a.minute, a.id))


def wall_time(facts: DeviceFacts) -> tuple[int, int]:
    """The phone's (frozen) wall time as (hour 0-23, minute); 9:41 if unreadable."""
    hour, _, minute = facts.time.partition(":")
    try:
        h, m = int(hour), int(minute[:2])
    except ValueError:
        return 9, 41
    return (h, m) if 0 <= h < 24 and 0 <= m < 60 else (9, 41)


@dataclass
class AlarmEditor:
    """The Add/Edit Alarm sheet: three wheels, the label field, snooze, and which alarm."""

    hour: Wheel
    minute: Wheel
    period: Wheel | None
    """AM/PM; None on a 24-hour phone, whose hour wheel runs 00 to 23."""
    label: EditText = field(default_factory=lambda: EditText("Alarm"))
    snooze: bool = True
    alarm_id: int | None = None
    """None: a new alarm."""

    @classmethod
    def at(cls, hour: int, minute: int, hour_24: bool,
           alarm: Alarm | None = None) -> AlarmEditor:
        """An editor with its wheels at `hour`:`minute`, 24-hour or with AM/PM (and an
        existing alarm's details)."""
        minutes = Wheel(MINUTES, minute, wrap=True)
        if hour_24:
            editor = cls(Wheel(HOURS_24, hour, wrap=True), minutes, None)
        else:
            editor = cls(Wheel(HOURS, (hour % 12 or 12) - 1, wrap=True), minutes,
                         Wheel(PERIODS, int(hour >= 12)))
        if alarm is not None:
            editor.label.text, editor.snooze, editor.alarm_id = (alarm.label, alarm.snooze,
                                                                 alarm.id)
        return editor

    def time(self) -> tuple[int, int]:
        """The wheels' time as (hour 0-23, minute)."""
        if self.period is None:
            return self.hour.index, self.minute.index
        return (self.hour.index + 1) % 12 + 12 * self.period.index, self.minute.index

    def wheels(self) -> list[Wheel]:
        """The picker's wheels, left to right."""
        return [self.hour, self.minute] + ([self.period] if self.period is not None else [])


@dataclass
class AlarmsState:
    """The list's UI state and the open sheet, if any."""

    rows: ListState = field(default_factory=ListState)
    editor: AlarmEditor | None = None


def _save(store: Store, editor: AlarmEditor) -> None:
    hour, minute = editor.time()
    records = store.records(STORE_KEY)
    entry: dict[str, JSON] = {"hour": hour, "minute": minute, "label": editor.label.text.strip(),
                              "enabled": True, "snooze": editor.snooze}
    for record in records:
        if editor.alarm_id is not None and record.get("id") == editor.alarm_id:
            record.update(entry)
            return
    next_id = max((_int(r, "id", 0) for r in records), default=0) + 1
    records.append({"id": next_id, "repeat": "", **entry})


def _delete(store: Store, alarm_id: int) -> Handler:
    def delete() -> None:
        records = store.records(STORE_KEY)
        records[:] = [r for r in records if r.get("id") != alarm_id]
    return delete


def _toggle(store: Store, alarm_id: int) -> Handler:
    def toggle() -> None:
        for record in store.records(STORE_KEY):
            if record.get("id") == alarm_id:
                record["enabled"] = record.get("enabled") is False
    return toggle


def _viewport(facts: DeviceFacts) -> Rect:
    top = layout.LARGE_NAV_BOTTOM
    return Rect(0, top, facts.width, facts.height - layout.TAB_BAR_HEIGHT - top)


def _rows(state: AlarmsState, host: Host) -> list[ListRow]:
    store, f = host.store(BUNDLE_ID), host.facts
    rows = []
    for alarm in alarms(store):
        def content(frame: Rect, alarm: Alarm = alarm) -> Sequence[Node]:
            clock, period = f.time_parts(alarm.hour, alarm.minute)
            width = layout.text_width(clock, 52)
            x, y = frame.x + 16, frame.y
            shown = [layout.text(clock, Rect(x, y + 8, width, 58))]
            if period:
                shown.append(layout.text(period, Rect(x + width + 4, y + 34, 34, 26)))
            return [*shown,
                    layout.text(alarm.title + (f", {alarm.repeat}" if alarm.repeat else ""),
                                Rect(x, y + 68, frame.width - 120, 20)),
                    layout.switch(alarm.accessibility_label(f), alarm.enabled,
                                  Rect(frame.x + frame.width - 79, y + (frame.height - 31) // 2,
                                       63, 31), _toggle(store, alarm.id))]

        def edit(alarm: Alarm = alarm) -> None:
            state.editor = AlarmEditor.at(alarm.hour, alarm.minute, f.hour_24, alarm)

        rows.append(ListRow(f"alarm:{alarm.id}", alarm.accessibility_label(f), content,
                            _delete(store, alarm.id), edit))
    return rows


def screen(state: AlarmsState, host: Host) -> list[Node]:
    """The Alarms tab under its navigation bar (Edit on the left, Add on the right)."""
    f = host.facts

    def add() -> None:
        state.rows.revealed = None
        state.editor = AlarmEditor.at(*wall_time(f), f.hour_24)

    edit = layout.button("Done" if state.rows.editing else "Edit", Rect(16, layout.NAV_TOP, 60,
                                                                        44),
                         state.rows.toggle_editing)
    plus = Node("Button", Rect(f.width - 60, layout.NAV_TOP, 44, 44), label="Add", name="Add",
                on_tap=add, pixels_text="+")
    nav = layout.nav_bar(f, "Alarms", large=True, trailing=[edit, plus])
    return [nav, table(state.rows, _viewport(f), _rows(state, host), key="alarms",
                  frame=lists.under_bars(f))]


def swipe_row(state: AlarmsState, host: Host, drag: Drag) -> bool:
    """Swipe-to-delete on the list (not while the sheet is up)."""
    if state.editor is not None:
        return False
    viewport = _viewport(host.facts)
    return swipe(state.rows, place(state.rows, viewport, _rows(state, host)), viewport, drag)


def sheet(state: AlarmsState, host: Host) -> Node | None:
    """The Add/Edit Alarm page sheet, when open."""
    editor = state.editor
    if editor is None:
        return None
    f, store = host.facts, host.store(BUNDLE_ID)

    def close() -> None:
        host.focus(None)
        state.editor = None

    def save() -> None:
        _save(store, editor)
        close()

    def delete() -> None:
        if editor.alarm_id is not None:
            _delete(store, editor.alarm_id)()
        close()

    def snooze() -> None:
        editor.snooze = not editor.snooze

    # iOS titles the sheet by what Save will do, in a navigation bar with Cancel and Save
    title = "Add Alarm" if editor.alarm_id is None else "Edit Alarm"
    bar = edit_bar(f, title, close, "Save", save)
    kids = [layout.picker(Rect(16, 130, 370, 216), _columns(editor.wheels()))]
    x, w, h = lists.ROW_X, lists.ROW_WIDTH, lists.ROW_HEIGHT
    label_cell = Node("Cell", Rect(x, 422, w, h), label="Label", name="Label", children=(
        layout.text("Label", Rect(x + 16, 437, 60, 22)),
        layout.text_field(editor.label, Rect(x + 110, 430, w - 126, 36), name="Label")))
    kids += [lists.cell(lists.Row("Repeat", detail="Never", chevron=True, on_tap=_nothing),
                         Rect(x, 370, w, h)),
             label_cell,
             lists.cell(lists.Row("Sound", detail="Radial", chevron=True, on_tap=_nothing),
                         Rect(x, 474, w, h)),
             lists.cell(lists.Row("Snooze", switch=editor.snooze, on_switch=snooze),
                         Rect(x, 526, w, h))]
    if editor.alarm_id is not None:
        kids.append(layout.button("Delete Alarm", Rect(x, 598, w, h), delete))
    return layout.page_sheet(f, bar, kids, dismiss=close, key=f"alarm-sheet:{title}")


def _columns(wheels: list[Wheel]) -> list[tuple[Wheel, Rect]]:
    """The wheels side by side, 100 points wide, centred in the picker as iOS centres them."""
    left = 201 - (105 * len(wheels) - 5) // 2
    return [(wheel, Rect(left + 105 * i, 130, 100, 216)) for i, wheel in enumerate(wheels)]


def _nothing() -> None:
    """Repeat and Sound open pages the simulator does not model."""
