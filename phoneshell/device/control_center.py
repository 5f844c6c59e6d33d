"""Setting a Control Center toggle back, as a person would: pull Control Center down from the
top edge's right part (where the battery and signal show, on a Face ID iPhone), tap the toggle
if it is not where it was, see it move, and go home.

The toggles are SpringBoard Switches valued "1"/"0" and named as real iPhones name them
(`xcui.CONTROL_TOGGLES`: `wifi-button`...), which is how UI-testing tools find them; their
labels vary with the state and the network ("Wi-Fi, HomeNet"). A toggle is set back where the
agent flipped it: on a phone, Control Center's Wi-Fi and Bluetooth only disconnect until
tomorrow, and Settings' own switch stays on, so Settings cannot undo them.
"""

from __future__ import annotations

from typing import Literal

from phoneshell.device.phone import Phone
from phoneshell.device.steps import run_steps
from phoneshell.errors import StepError
from phoneshell.tasks import Step
from phoneshell.tree import Element, PageSource
from phoneshell.xcui import CONTROL_TOGGLES, SWITCH

Put = Literal["set", "as was", ""]
"""What setting a value back did: "set" (it was changed back), "as was" (it was found at the
value already: nothing was touched), "" (its control was not found: nothing was changed)."""

PULL_FROM, PULL_TO = (0.9, 0.002), (0.9, 0.3)
"""Where the drag that opens Control Center starts and ends, as shares of the screen."""


def _toggle(page: PageSource, name: str) -> Element | None:
    return next((e for e in page.on_screen() if e.type == SWITCH and e.name == name), None)


def open_control_center(phone: Phone) -> PageSource:
    """Pull Control Center down over what is in front; the screen once its toggles show.

    Raises:
        StepError: the drag did not bring Control Center's toggles on screen.
    """
    width, height = phone.screen_size()
    phone.drag((width * PULL_FROM[0], height * PULL_FROM[1]),
               (width * PULL_TO[0], height * PULL_TO[1]))
    shown: list[PageSource] = []

    def up() -> bool:
        shown[:] = [phone.page()]
        return any(_toggle(shown[0], name) for name in CONTROL_TOGGLES)

    if not phone.poll(up, phone.effect_timeout_s):
        raise StepError("Control Center did not come down (no connectivity toggles on "
                        f"screen: it shows {shown[0].summary() if shown else 'nothing'})")
    return shown[0]


def set_toggle(phone: Phone, name: str, on: bool) -> Put:
    """Set Control Center's toggle `name` on or off, then go home (`Put`: "" when Control
    Center shows no toggle of that name).

    Raises:
        StepError: Control Center did not come down, or the toggle did not move when tapped.
    """
    page = open_control_center(phone)
    toggle = _toggle(page, name)
    want = "1" if on else "0"
    put: Put = "" if toggle is None else "as was" if toggle.value == want else "set"
    if put == "set" and toggle is not None:
        phone.tap(*toggle.centre)
        if not phone.poll(lambda: getattr(_toggle(phone.page(), name), "value", "") == want,
                          phone.effect_timeout_s):
            raise StepError(f"Control Center's {CONTROL_TOGGLES.get(name, name)} did not turn "
                            f"{'on' if on else 'off'} when tapped")
    run_steps(phone, [Step("home")])  # Control Center closes, and the phone is at home
    return put
