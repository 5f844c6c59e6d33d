"""Setting a Settings switch back to where it was, as a person would: open Settings, go to the
page the switch is on, tap its knob if it is not where it should be, and see it move.

The bridge logs which switch an agent flipped, by its label, whether it was on, and the title
of the page it was on (`runner.aftermath.flipped_switches`). `set_switch` goes to that page the
way a person does: by its row on Settings' first page when it shows there (Wi-Fi, General),
else through Settings' search, which finds pages by title (Motion, VoiceOver). A switch on the
first page (Airplane Mode) needs no going. When the log has no page (an element named by id),
it looks on the page named like the switch (Wi-Fi's). A page or switch not found is reported,
and the switch stays as the agent left it.

A switch row is the Motion dump's: a `Switch` spanning the row, labelled with its title, around
an unlabelled `Switch`, the knob. Tapping the row's centre lands on its title, which does
nothing on a phone, so the knob is tapped.
"""

from __future__ import annotations

from phoneshell.device.phone import Phone
from phoneshell.device.probes import fresh_app, stop_app
from phoneshell.device.steps import run_steps, screen_signature
from phoneshell.errors import StepError
from phoneshell.tasks import Step
from phoneshell.tree import Element, PageSource
from phoneshell.xcui import SETTINGS, SWITCH


def _switch(page: PageSource, label: str) -> Element | None:
    return next((e for e in page.on_screen() if e.type == SWITCH and e.label == label), None)


def _knob(page: PageSource, switch: Element) -> Element:
    """The unlabelled switch inside the row's, or the row's own when it has none."""
    def inside(e: Element) -> bool:
        x, y = e.centre
        return (switch.x <= x <= switch.x + switch.width
                and switch.y <= y <= switch.y + switch.height)

    return next((e for e in page.on_screen()
                 if e.type == SWITCH and not e.label and inside(e)), switch)


FIRST_PAGE = "Settings"
"""The title of Settings' first page."""
SCROLLS = 2
"""Drags down a page to find a switch below its first screen (each costs a real phone 1.4 s)."""


ROW_TYPES = frozenset(f"XCUIElementType{t}" for t in ("Cell", "Button", "StaticText"))
"""What a row that opens a page is made of (not the search field, which may share its title)."""


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


def _find_switch(phone: Phone, label: str) -> tuple[PageSource, Element] | None:
    """The switch `label` on the page in front, scrolling down a little for it."""
    page = phone.page()
    for tries in range(SCROLLS + 1):
        switch = _switch(page, label)
        if switch is not None:
            return page, switch
        if tries == SCROLLS:
            break
        before = screen_signature(phone)
        width, height = phone.screen_size()
        phone.drag((width / 2, height * 0.7), (width / 2, height * 0.3))
        if screen_signature(phone) == before:
            break  # the page's end: nothing moved
        page = phone.page()
    return None


def set_switch(phone: Phone, label: str, on: bool, page: str = "") -> bool:
    """Set the Settings switch `label` on or off on the page titled `page` (the switch's own
    page when "": Wi-Fi's is named like it); return False (having changed nothing) when the
    page or the switch is not found.

    Raises:
        StepError: the knob was tapped and the switch did not move (the message names it).
    """
    root = fresh_app(phone, SETTINGS)
    found = (root, switch) if (switch := _switch(root, label)) is not None else None
    if found is None and (page or label) != FIRST_PAGE and _open_page(phone, root, page or label):
        found = _find_switch(phone, label)
    if found is None:
        stop_app(phone, SETTINGS)
        return False
    shown, switch = found
    want = "1" if on else "0"
    if switch.value != want:
        phone.tap(*_knob(shown, switch).centre)
        if not phone.poll(lambda: getattr(_switch(phone.page(), label), "value", "") == want,
                          phone.effect_timeout_s):
            raise StepError(f"the Settings switch {label!r} did not turn "
                            f"{'on' if on else 'off'} when its knob was tapped")
    stop_app(phone, SETTINGS)
    return True
