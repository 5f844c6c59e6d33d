"""Setting a Settings switch back to where it was, as a person would: open Settings, find the
switch, tap its knob if it is not where it should be, and see it move.

The bridge logs which switch an agent flipped, by its label, and whether it was on
(`runner.aftermath.flipped_switches`), but not the page it is on. `set_switch` looks where the
switches that matter to other tasks live: on Settings' first page (Airplane Mode), or on the
page its first-page row of the same name opens (Wi-Fi, Bluetooth). A switch anywhere else is
reported as not found, and stays as the agent left it.

A switch row is the Motion dump's: a `Switch` spanning the row, labelled with its title, around
an unlabelled `Switch`, the knob. Tapping the row's centre lands on its title, which does
nothing on a phone, so the knob is tapped.
"""

from __future__ import annotations

from phoneshell.device.phone import Phone
from phoneshell.device.probes import fresh_app, stop_app
from phoneshell.device.steps import run_steps
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


def set_switch(phone: Phone, label: str, on: bool) -> bool:
    """Set the Settings switch `label` on or off, where Settings shows it on its first page or
    on the page of the same name; return False (having changed nothing) when neither does.

    Raises:
        StepError: the knob was tapped and the switch did not move (the message names it).
    """
    page = fresh_app(phone, SETTINGS)
    switch = _switch(page, label)
    if switch is None and any(e.label == label and e.type != SWITCH for e in page.on_screen()):
        run_steps(phone, [Step("tap", label)])
        page = phone.page()
        switch = _switch(page, label)
    if switch is None:
        stop_app(phone, SETTINGS)
        return False
    want = "1" if on else "0"
    if switch.value != want:
        phone.tap(*_knob(page, switch).centre)
        if not phone.poll(lambda: getattr(_switch(phone.page(), label), "value", "") == want,
                          phone.effect_timeout_s):
            raise StepError(f"the Settings switch {label!r} did not turn "
                            f"{'on' if on else 'off'} when its knob was tapped")
    stop_app(phone, SETTINGS)
    return True
