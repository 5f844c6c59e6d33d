"""Setting a Settings value back to where it was, as a person would: open Settings, go to the
page it is on, and change it back if it is not where it should be, then see it there. A value is
a switch (Wi-Fi), the option chosen in a list of options (Auto-Lock's "Never"), a slider's
position (Text Size's "50%") or the Button chosen among others (Appearance's "Light").

The bridge logs what an agent changed: a switch by its label and whether it was on, a tap in a
list of options with the option chosen before, a slider by its label and value, each with the
title of the page it was on (`runner.aftermath.changed_settings`). Each setter here goes to that
page the way a person does: by its row on Settings' first page when it shows there (Wi-Fi,
General), else through Settings' search, which finds pages by title (Motion, Auto-Lock). A
switch on the first page (Airplane Mode) needs no going; when the log has no page for a switch
(an element named by id before any screen was read), it looks on the page named like it
(Wi-Fi's). A page or value not found is reported, and the value stays as the agent left it.

A switch row is the Motion dump's: a `Switch` spanning the row, labelled with its title, around
an unlabelled `Switch`, the knob. Tapping the row's centre lands on its title, which does
nothing on a phone, so the knob is tapped. An option is chosen by tapping its cell, and shows
chosen by the checkmark button inside the cell (iOS 26 reports nothing else), the only one of its
section (a row the agent checked beside it in a list that chooses several is unchecked: set back,
never found as it was). Rows of the section out of the tree (UIKit makes cells only near the
view) are not seen. A slider is set by
WDA's element value route, which moves it by XCTest's `adjust(toNormalizedSliderPosition:)`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from phoneshell.device.control_center import Put, set_toggle
from phoneshell.device.phone import Phone
from phoneshell.device.probes import fresh_app, stop_app
from phoneshell.device.steps import run_steps, screen_signature, scroll_points
from phoneshell.errors import StepError
from phoneshell.tasks import Step
from phoneshell.tree import Element, PageSource
from phoneshell.xcui import BUTTON, CELL, CHECKMARK, SETTINGS, SLIDER, SWITCH, section_rows

FIRST_PAGE = "Settings"
"""The title of Settings' first page."""
SCROLLS = 2
"""Drags down a page to find a value below its first screen (each costs a real phone 1.4 s)."""
ROW_TYPES = frozenset(f"XCUIElementType{t}" for t in ("Cell", "Button", "StaticText"))
"""What a row that opens a page is made of (not the search field, which may share its title)."""
PERCENT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*$")
SLIDER_SLACK = 1.0
"""How far (in percent) a slider may land from where it was set: XCTest's adjustment is "best
effort", and a slider of steps (Text Size's) lands on the nearest."""

Find = Callable[[PageSource], Element | None]


def _labelled(kind: str, label: str) -> Find:
    return lambda page: next((e for e in page.on_screen() if e.type == kind and e.label == label),
                             None)


def _knob(page: PageSource, switch: Element) -> Element:
    """The unlabelled switch inside the row's, or the row's own when it has none."""
    return next((e for e in page.on_screen()
                 if e.type == SWITCH and not e.label and _inside(e, switch)), switch)


def _inside(element: Element, row: Element) -> bool:
    x, y = element.centre
    return row.x <= x <= row.x + row.width and row.y <= y <= row.y + row.height


def checked(page: PageSource, cell: Element) -> bool:
    """Whether the cell of an option holds UIKit's checkmark: the option is the one chosen."""
    return any(e.label == CHECKMARK and e.type.endswith("Button") and _inside(e, cell)
               for e in page.on_screen())


def _row(page: PageSource, title: str) -> Element | None:
    return next((e for e in page.on_screen() if e.type in ROW_TYPES and e.label == title), None)


def page_title(page: PageSource) -> str:
    """The title of the page in front: its navigation bar's name ("" when none shows)."""
    bars = [e.name for e in page.on_screen() if e.short_type == "NavigationBar"]
    return bars[-1] if bars else ""


def _open_page(phone: Phone, root: PageSource, title: str) -> bool:
    """From Settings' first page, open the page `title`: by its row when it shows, else by
    searching for it and tapping the result of that title; True once the page is in front."""
    row = _row(root, title)
    if row is None:
        search = next((e for e in root.on_screen() if e.short_type == "SearchField"), None)
        if search is None:
            return False
        phone.tap(*search.centre)
        run_steps(phone, [Step("type", title)])
        row = _row(phone.page(), title)
        if row is None:
            return False
    phone.tap(*row.centre)
    return phone.poll(lambda: page_title(phone.page()) == title, phone.effect_timeout_s)


def _find_on_page(phone: Phone, find: Find) -> tuple[PageSource, Element] | None:
    """What `find` finds on the page in front, scrolling down a little for it."""
    page = phone.page()
    for tries in range(SCROLLS + 1):
        found = find(page)
        if found is not None:
            return page, found
        if tries == SCROLLS:
            break
        before = screen_signature(phone)
        phone.drag(*scroll_points(phone, "down"))
        if screen_signature(phone) == before:
            break  # the page's end: nothing moved
        page = phone.page()
    return None


def _on(phone: Phone, page: str, find: Find, on_first_page: bool = False,
        ) -> tuple[PageSource, Element] | None:
    """Open Settings afresh and go to the page titled `page` (staying on the first page when
    what `find` finds shows there and `on_first_page` allows it); what it finds there, or None
    (Settings stopped) when the page or the thing is not found."""
    root = fresh_app(phone, SETTINGS)
    found = find(root) if on_first_page else None
    if found is not None:
        return root, found
    if page != FIRST_PAGE and _open_page(phone, root, page):
        there = _find_on_page(phone, find)
        if there is not None:
            return there
    stop_app(phone, SETTINGS)
    return None


Shows = Callable[[PageSource, Element], bool]
"""Whether the element found, on the page read, shows the value wanted."""
Settle = Callable[[PageSource], bool]
"""A step after the element shows the value, given the page that showed it (before Settings is
stopped): True when it changed something there, which makes the value "set"."""


def _put(phone: Phone, page: str, find: Find, shows: Shows,
         act: Callable[[PageSource, Element], None], failed: str, on_first_page: bool = False,
         settle: Settle | None = None) -> Put:
    """Go to what `find` finds on the Settings page `page` (`_on`); unless it `shows` the value
    already, `act` on it and see it show it; then run `settle` on the page that showed it and
    stop Settings. `Put` ("" when the page or the element is not found).

    Raises:
        StepError: `failed`, when it did not show the value after `act` (or `settle`'s own).
    """
    found = _on(phone, page, find, on_first_page)
    if found is None:
        return ""
    shown, element = found
    put: Put = "as was" if shows(shown, element) else "set"
    if put == "set":
        act(shown, element)

        def now_shows() -> bool:
            nonlocal shown
            shown = phone.page()
            there = find(shown)
            return there is not None and shows(shown, there)

        if not phone.poll(now_shows, phone.effect_timeout_s):
            raise StepError(failed)
    if settle is not None and settle(shown):
        put = "set"
    stop_app(phone, SETTINGS)
    return put


def set_switch(phone: Phone, label: str, on: bool, page: str = "") -> Put:
    """Set the Settings switch `label` on or off on the page titled `page` (the switch's own
    page when "": Wi-Fi's is named like it); `Put` ("" when the page or the switch is not
    found).

    Raises:
        StepError: the knob was tapped and the switch did not move (the message names it).
    """
    want = "1" if on else "0"
    return _put(phone, page or label, _labelled(SWITCH, label),
                lambda _, switch: switch.value == want,
                lambda shown, switch: phone.tap(*_knob(shown, switch).centre),
                f"the Settings switch {label!r} did not turn {'on' if on else 'off'} when its "
                "knob was tapped", on_first_page=True)


def _choose(phone: Phone, page: str, option: str, kind: str, chosen: Shows,
            settle: Settle | None = None) -> Put:
    """Tap the element of type `kind` labelled `option` on the Settings page `page` unless it
    shows `chosen` already, see it chosen, then run `settle` on that page (`_put`).

    Raises:
        StepError: it was tapped and did not show chosen (or `settle`'s own).
    """
    return _put(phone, page, _labelled(kind, option), chosen,
                lambda _, element: phone.tap(*element.centre),
                f"{option!r} on the Settings page {page!r} was tapped and did not show chosen",
                settle=settle)


def set_choice(phone: Phone, page: str, option: str) -> Put:
    """Choose `option` in the list of options on the Settings page titled `page` (Auto-Lock's
    "Never"): chosen once its cell shows the checkmark and no other row of its section does
    (`xcui.section_rows`); `Put` ("" when the page or the option is not found).

    A list that chooses several (Dictionary's) with one row checked looks like a list of
    options to the bridge, which lets a tap there through: the row the agent checked besides
    `option` shows then, and is tapped again to take its checkmark off (a single-choice list
    never shows two), so the change is set back and said ("set"), never found "as was".

    Raises:
        StepError: a tap did not leave `option` the only row of its section checked.
    """

    def uncheck_besides(shown: PageSource) -> bool:
        extra = _checked_besides(shown, option)
        if not extra:
            return False
        for row in extra:  # a list that chooses several: each row the agent checked
            phone.tap(*row.centre)
        if not phone.poll(lambda: _chosen_alone(phone.page(), option), phone.effect_timeout_s):
            raise StepError(
                f"{option!r} on the Settings page {page!r} shows chosen beside "
                f"{', '.join(repr(r.label) for r in extra)} (a list that chooses several), "
                "which did not lose their checkmarks when tapped")
        return True

    return _choose(phone, page, option, CELL, checked, settle=uncheck_besides)


def _checked_besides(page: PageSource, option: str) -> list[Element]:
    """The other rows of `option`'s section that show the checkmark (none in a list of
    options, where one row does)."""
    cell = _labelled(CELL, option)(page)
    if cell is None:
        return []
    rows = [e for e in page.elements if e.type == CELL and e.parent == cell.parent]
    at = rows.index(cell)
    near = section_rows([(float(e.y), float(e.height)) for e in rows], at)
    return [rows[i] for i in near if i != at and checked(page, rows[i])]


def _chosen_alone(page: PageSource, option: str) -> bool:
    """Whether `option`'s cell shows the checkmark with no other row of its section checked."""
    cell = _labelled(CELL, option)(page)
    return cell is not None and checked(page, cell) and not _checked_besides(page, option)


def set_chosen_button(phone: Phone, page: str, option: str) -> Put:
    """Choose the Button `option` on the Settings page titled `page` (Display & Brightness's
    "Light"), chosen once WDA reads its value "1" (a selected Button); `Put` ("" when the page or
    the Button is not found).

    Raises:
        StepError: the Button was tapped and did not become the one chosen.
    """
    return _choose(phone, page, option, BUTTON, lambda _, button: button.value == "1")


def percent(value: str) -> float | None:
    """A slider's value as WDA reads it ("50%") in percent; None when it is not one."""
    match = PERCENT.match(value)
    return float(match.group(1)) if match else None


def set_slider(phone: Phone, label: str, value: str, page: str) -> Put:
    """Set the slider `label` on the Settings page titled `page` back to `value` (as WDA read
    it: "50%"); `Put` ("" when the page or the slider is not found, or `value` is not a
    percentage).

    Raises:
        StepError: the slider was set and did not land at `value`.
    """
    want = percent(value)
    if want is None:
        return ""
    at = want

    def there(_: PageSource, slider: Element) -> bool:
        got = percent(slider.value or "")
        return got is not None and abs(got - at) <= SLIDER_SLACK

    return _put(phone, page, _labelled(SLIDER, label), there,
                lambda *_: phone.set_slider(label, at / 100),
                f"the Settings slider {label!r} did not go back to {value} when set")


def set_back(phone: Phone, kind: str, label: str, page: str, was: str) -> Put:
    """Set one Settings value back to what it was: a switch (`was` "1" or "0"), the option
    chosen on the page `page` (`was` its title, `label` unused), a slider (`was` as WDA read
    it), a Control Center toggle (`label` its name, `was` "1" or "0"), or the Button chosen
    among others on the page `page` (`was` its label: Appearance's "Light"); `Put` ("" when its
    page or the value is not found).

    Raises:
        StepError: it was changed back and did not show so.
        ValueError: `kind` is none of switch, choice, slider, control, button.
    """
    if kind == "switch":
        return set_switch(phone, label, was == "1", page)
    if kind == "choice":
        return set_choice(phone, page, was)
    if kind == "slider":
        return set_slider(phone, label, was, page)
    if kind == "control":
        return set_toggle(phone, label, was == "1")
    if kind == "button":
        return set_chosen_button(phone, page, was)
    raise ValueError(f"no Settings value of kind {kind!r}")
