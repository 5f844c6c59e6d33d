"""An agent that changes a setting on its way (`test_owner_settings`): it does a Settings task
as asked, and turns a switch there through facebook-wda's element tap (WDA touches a switch row
at its knob). Which by its argument: `bluetooth` (opens Bluetooth, turns it off), `dt24` (opens
General > Date & Time, turns 24-Hour Time on), `airplane` (turns Airplane Mode on, then opens
Wi-Fi), `wifi` (opens Wi-Fi, turns it off: what a task may ask), `twice` (opens Bluetooth,
turns it off and on again), `label` (touches Airplane Mode's row at its label, away from the
knob, so nothing turns, then opens Wi-Fi, where Airplane Mode is out of sight). Needs only
facebook-wda."""

import json
import os
import sys

import wda

SWITCH, BUTTON = "XCUIElementTypeSwitch", "XCUIElementTypeButton"

what = sys.argv[1]
s = wda.Client(os.environ["PHONESHELL_WDA_URL"]).session("com.apple.Preferences")


def open_row(label: str) -> None:
    s(label=label, type=BUTTON).get().tap()


def turn(label: str) -> None:
    s(label=label, type=SWITCH).get().tap()


if what in ("airplane", "label"):
    if what == "label":  # the row's left end: its label, not its knob
        row = s(label="Airplane Mode", type=SWITCH).get()
        s.tap(row.bounds.x + 60, row.bounds.center.y)
    else:
        turn("Airplane Mode")
    open_row("Wi-Fi")
elif what == "dt24":
    open_row("General")
    s(label="Date & Time").get().tap()
    turn("24-Hour Time")
elif what == "wifi":
    open_row("Wi-Fi")
    turn("Wi-Fi")
else:
    open_row("Bluetooth")
    turn("Bluetooth")
    if what == "twice":
        turn("Bluetooth")
print(json.dumps({"status": "done"}))
