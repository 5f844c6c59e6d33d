"""The iOS controls that take a rig away: what turns a phone off, restarts or erases it, stops WDA.

The bridge refuses by `takes_rig_down`, and the runner holds an agent to account by it (`audit`).
Pure: no I/O, imports nothing of phoneshell but `xcui` (WDA's vocabulary), so the bridge and
the harness read one rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from phoneshell.xcui import (
    POWER_OFF,
    SETTINGS,
    SIDE_BUTTON_HID,
    SPRINGBOARD,
    SWITCH,
    SWITCHER_WINDOW,
    TOUCH_KINDS,
    pressed,
    sideways,
    walk,
)

WDA_BUNDLE_MARKS = ("WebDriverAgent", ".xctrunner")
"""How a WDA runner's bundle id reads (com.facebook.WebDriverAgentRunner.xctrunner)."""


def is_wda(bundle_id: str) -> bool:
    """Whether a bundle id is WDA's runner (the XCTest host that answers every request)."""
    return any(mark in bundle_id for mark in WDA_BUNDLE_MARKS)


def ends_the_rig(bundle_id: str) -> str:
    """Why terminating `bundle_id` would take the rig away ("" when it would not): WDA's runner
    answers every request; SpringBoard terminated restarts (a respring), which leaves the phone
    locked and can end WDA's session."""
    if is_wda(bundle_id):
        return "it would stop WDA, which answers every request the harness and the agent send"
    if bundle_id.strip() == SPRINGBOARD:
        return ("it would restart SpringBoard (a respring), which locks the phone and can end "
                "WDA's session")
    return ""


STARTS = frozenset({"launch", "activate"})
"""The action kinds that start an app, or bring it in front (a launch unattached, a session
naming an app: a launch too)."""


def restarts_wda(kind: str, bundle_id: str) -> str:
    """Why launching or activating `bundle_id` would take the rig away ("" when it would not):
    WDA's runner is the XCTest host that answers every request, and XCUIApplication's launch
    terminates an app that is running before it starts it again (its activate launches one it
    does not take for running): WDA would stop, as terminating it stops it."""
    if kind not in STARTS or not is_wda(bundle_id):
        return ""
    return ("it would start WDA's runner again (XCTest's launch terminates a running app "
            "first, and its activate launches one it does not take for running), and "
            f"{ends_the_rig(bundle_id)}")


CARD_PREFIX = "card:"
"""How the App Switcher names a card: "card:<bundle id>:sceneID:<bundle id>-default"."""


def wda_card(app: str, name: str, label: str) -> bool:
    """Whether an element is WDA's runner's card in the App Switcher (its app: SpringBoard): on
    a phone under WDA the runner is an app running in the background, with a card of its own
    that a swipe up closes, as it closes any app. Named "card:<runner's bundle id>:..."; or, in
    SpringBoard, labelled with the runner's name ("WebDriverAgentRunner-Runner", its display
    name: what a card names it when its name is not read)."""
    if name.startswith(CARD_PREFIX):
        return is_wda(name[len(CARD_PREFIX):].split(":", 1)[0])
    return app == SPRINGBOARD and is_wda(label)


def switcher_shows(tree: object) -> bool:
    """Whether a SpringBoard page tree (a JSON source) shows the App Switcher: its window, or
    WDA's runner's card, not flagged hidden (a phone that does not say is taken to show it)."""
    return any(node.get("isVisible") != "0" and (
        node.get("name") == SWITCHER_WINDOW
        or wda_card(SPRINGBOARD, str(node.get("name") or ""), str(node.get("label") or "")))
        for _, node in walk(tree))


def unplaced_on_switcher(kind: str, params: Mapping[str, object]) -> str:
    """Why a swipe in the App Switcher whose drags cannot be placed on the screen is refused
    ("" for a sideways one, which only brings other cards in): it may go down on WDA's
    runner's card, and a swipe up there closes the runner."""
    if kind != "swipe" or sideways(params):
        return ""
    return ("it swipes in the App Switcher, which holds WDA's runner's card, by a gesture whose "
            "drags the bridge cannot place off that card (a swipe up on it closes the runner): "
            f"{ends_the_rig('WebDriverAgent')}; swipe by points on screen "
            "(/wda/dragfromtoforduration), or tap a card")


def may_close_wda(kind: str, app: str, params: Mapping[str, object]) -> str:
    """Why a swipe may have closed WDA's runner ("" when it cannot have): in SpringBoard, one
    not sideways, which in the App Switcher closes the card it goes down on. For the log's
    reader, which knows neither the screen nor always where the swipe went down (one by a
    direction names no point): what WDA's silence right after it blames on it."""
    if kind != "swipe" or app != SPRINGBOARD or sideways(params):
        return ""
    return ("in the App Switcher a swipe that is not sideways closes the card it goes down on, "
            "and WDA's runner's, closed, stops WDA, which answers every request the harness and "
            "the agent send")


SIDE_BUTTON = "hid:{}:{}".format(*SIDE_BUTTON_HID)
"""The side button as the bridge logs an IOHID press of it ("hid:12:48")."""
SETTINGS_RIG_TAPS = {
    "shut down": "it opens the power-off screen, whose slider turns the phone off",
    "erase all content and settings": "it would erase the phone, WDA with it",
    "erase iphone": "it would erase the phone, WDA with it",
    "reset all settings": "it would reset every setting and restart the phone",
    "iphone language": "it opens the language list: another language renames every control "
                       "the harness and its tasks read by, and restarts the phone's screens",
    "add language\u2026": "it opens the languages to add, whose choice asks to make it the "
                          "phone's language (\"Use ...\"): another language renames every "
                          "control the harness and its tasks read by",
    "reset network settings": "it would remove every saved Wi-Fi network and password and the "
                              "cellular and VPN settings, and restart the phone",
    "clear trusted computers": "it would make the phone forget the computers it trusts, the one "
                               "that starts WDA on it too, until a person trusts it again",
    "update now": "it would install an iOS update, which restarts the phone (and may leave "
                  "WDA's build unable to run on it)",
    "install now": "it would install an iOS update, which restarts the phone (and may leave "
                   "WDA's build unable to run on it)",
    "download and install": "it would install an iOS update, which restarts the phone (and may "
                            "leave WDA's build unable to run on it)",
}
"""Settings rows and buttons that take the rig away, by title (lower case; a row labelled
"Title, Detail" by its title; "..." for "\u2026"): Shut Down, the erase and reset options of
General > Transfer or Reset iPhone (and their confirming buttons), Language & Region's language
lists, Developer's trust reset, Software Update's installs."""
SPRINGBOARD_RIG_TAPS = {
    "restart": "it would restart the phone (AssistiveTouch's Device > More > Restart)",
    "lock screen": "it would lock the phone (AssistiveTouch's Device > Lock Screen), logged as a "
                   "tap rather than as the lock it is",
}
"""Controls of SpringBoard's menus that take the rig away, by label (lower case):
AssistiveTouch's, which float over any app."""
SETTINGS_RIG_SWITCHES = {
    "enable ui automation": "it would turn off UI Automation, which WDA drives the phone by",
    "developer mode": "turning Developer Mode off restarts the phone, and WDA does not come back",
}
"""Settings switches whose turning off takes the rig away, by label (lower case)."""
RESTARTING_CHOICES = {"display zoom": "changing Display Zoom restarts the phone"}
"""Settings lists of options, by page title (lower case), whose change restarts the phone."""


def takes_rig_down(kind: str, app: str, target_type: str, label: str, value: str = "",
                   page: str = "", chosen: str = "", params: Mapping[str, object] | None = None,
                   name: str = "", around: Sequence[tuple[str, str]] = ()) -> str:
    """Why an action on this element would take the rig away ("" when it would not): it powers
    the phone off, erases it, restarts it, or turns off the UI Automation WDA drives it by. No
    task needs any of them, and a phone off or restarting ends the run on a real phone (a person
    must turn it on, unlock it and start WDA), which would leave the attempt not scored: the
    bridge refuses them, and the runner holds an agent that got one through to account.

    Args:
        kind: the action's kind (tap, swipe, type, terminate...).
        app: the app in front (`SETTINGS` for the Settings rows and switches).
        target_type, label, value, page, chosen: the element aimed at, as the audit log's
            target names it (`chosen`: in a list of options, the option chosen before).
        params: the action's params (a swipe's ends, to tell a switch's slide from a scroll).
        name: the element's name (the App Switcher's card names its app's bundle id).
        around: (name, label) of the elements the touch went down inside, as far as they are
            known (a phone's App Switcher card may hold its app's snapshot).
    """
    text = label.strip().lower()
    bundle = str((params or {}).get("bundle_id", ""))
    why = ends_the_rig(bundle) if kind == "terminate" else restarts_wda(kind, bundle)
    if why:
        return why
    on_card = any(wda_card(app, *element) for element in ((name, label), *around))
    if kind == "swipe" and on_card and not sideways(params or {}):
        # up closes the runner; down does nothing, and a swipe whose way the log cannot tell
        # may have gone up: only sideways (older cards brought in) is surely harmless
        return ("it swipes WDA's runner's card in the App Switcher, and a swipe up there "
                f"closes the runner: {ends_the_rig('WebDriverAgent')}")
    if kind == "press" and (params or {}).get("button") == SIDE_BUTTON:
        return ("it presses the side button, which five times quickly calls emergency services "
                "(Emergency SOS) and held opens the power-off slider; `/wda/lock` locks the "
                "phone")
    if text == POWER_OFF and kind in TOUCH_KINDS:
        return "it would power the phone off"
    if app == SPRINGBOARD and kind == "tap":
        return SPRINGBOARD_RIG_TAPS.get(pressed(label, params), "")
    if app != SETTINGS:
        return ""
    title = pressed(label, params).split(", ", 1)[0]
    if kind == "tap" and title in SETTINGS_RIG_TAPS:
        return SETTINGS_RIG_TAPS[title]
    turns_off = kind == "tap" or (kind == "swipe" and sideways(params or {}))
    if target_type == SWITCH and text in SETTINGS_RIG_SWITCHES and value == "1" and turns_off:
        return SETTINGS_RIG_SWITCHES[text]
    restarts = RESTARTING_CHOICES.get(page.strip().lower(), "")
    if kind == "tap" and restarts and chosen and label != chosen:
        return restarts
    return ""
