"""WDA's element vocabulary and its JSON page source, its settings, and the iOS controls that
take a rig away: facts the harness, the bridge and the simulated iPhone share, written down once.

XCUITest names element types `XCUIElementType<Short>`; the XML source uses the full name, the
JSON source (`GET /source?format=json`, notes/wda-stack.md §2.2) the short one, with flags such
as `isFocused` and `isVisible` as the strings "1"/"0". Which WDA settings change what the
harness reads (`HARMLESS_SETTINGS` are the others, `PINNED_SETTINGS` only at WDA's default),
which controls power a phone off, restart, erase it or stop WDA (`takes_rig_down`), delete an
app (`removes_app`) or change what outlasts the run or reaches beyond the phone (`outlasts_run`:
a call placed, a message sent, the owner's pasteboard read or replaced; `reaches_out_by_url`):
the bridge refuses by them, and the runner holds an agent to account by the first. Pure: no
I/O, imports nothing else of phoneshell but `pasteboard` (as pure), so the simulator (a device)
may use it too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence

from phoneshell.pasteboard import uses_pasteboard

TYPE_PREFIX = "XCUIElementType"
SPRINGBOARD = "com.apple.springboard"
"""The home screen's bundle id: in front when no app is."""
TEXT_INPUT_TYPES = frozenset({"TextField", "SecureTextField", "SearchField", "TextView"})
"""Short types that take keystrokes; WDA writes `placeholderValue` only on these."""
TEXT_INPUTS = frozenset(TYPE_PREFIX + t for t in TEXT_INPUT_TYPES)
"""The same, by full type name (as the XML source and the audit log name them)."""
SECURE_TYPE = "SecureTextField"
"""A password field: its value reads as bullets, and what is typed into it is never logged."""
KEY_TYPE = "Key"
"""A key of the on-screen keyboard (its label is the character it types)."""
RETURN_KEYS = frozenset({"return", "go", "search", "done", "send", "join", "next", "route",
                         "continue"})
"""Labels of the keyboard's Return key (lower-cased), which the field that has focus chooses:
tapping it sends what was typed, as typing "\n" does. iOS draws it as a Button inside the
Keyboard, beside the keys; a Button so labelled elsewhere on the screen (the tab overview's
Done) is not it."""
SWITCH = TYPE_PREFIX + "Switch"
"""A switch; in a Settings row, one labelled with the row's title around an unlabelled knob."""
SETTINGS = "com.apple.Preferences"
"""Settings' bundle id."""
CELL = TYPE_PREFIX + "Cell"
"""A row of a list (a table's or a collection view's)."""
SLIDER = TYPE_PREFIX + "Slider"
"""A slider: its value reads as a percentage ("50%"); WDA sets it by a position from 0 to 1."""
CHECKMARK = "checkmark"
"""The label of UIKit's checkmark accessory: a Button inside the cell of the option chosen in a
list of options (Auto-Lock's). iOS 26 reports no other sign of the choice: the cell has no
Selected trait and no value (upstream phoneshell proved its choices by this button)."""
CONTROL_TOGGLES = {"airplane-mode-button": "Airplane Mode",
                   "cellular-data-button": "Cellular Data", "wifi-button": "Wi-Fi",
                   "bluetooth-button": "Bluetooth"}
"""Control Center's connectivity toggles (SpringBoard Switches valued "1"/"0") by the name real
iPhones give them, with what each switches; their labels vary ("Wi-Fi, HomeNet"). The only
controls of Control Center the harness sets back (`device.control_center`)."""
CONTROL_CENTER = "ControlCenterView"
"""The name of Control Center's view: a screen whose source holds it shows Control Center."""
CONTROL_CENTER_SPACE = frozenset({CONTROL_CENTER, "ControlCenterLayoutView"})
"""Control Center's own views: a touch on them (the empty space around its modules, a drag up)
closes it or scrolls it, and changes nothing."""
CONTROL_CENTER_LASTING = {
    "orientation-lock-button": "it would lock the screen upright, so later tasks could not "
                               "turn an app sideways (Calculator's scientific keypad)",
    "focus-button": "it would turn on a Focus (Do Not Disturb), and the owner would miss calls "
                    "and notifications after the run",
    "flashlight-button": "it would turn the flashlight on or off, and the owner's light stays "
                         "as left",
    "silent-mode-button": "it would switch the phone to silent or back, and the owner would "
                          "miss calls after the run",
    "brightness-slider": "it would change the screen's brightness",
    "volume-slider": "it would change the phone's volume",
    "screen-mirroring-button": "it would mirror the screen to a TV or a Mac nearby",
    "now-playing-button": "it would play or pause the owner's media",
    "power-off-button": "it opens the power-off screen, whose slider turns the phone off",
    "edit-button": "it opens Control Center's editing, which adds, moves and removes the "
                   "owner's controls",
}
"""Control Center's controls beyond the connectivity toggles, by the name the simulator gives
them (real iPhones' names are inferred: docs/simulator.md), with what each would change: none
is set back after the run. Any other control of Control Center is refused too
(`control_center_lasting`); this says why in its own words."""
CONTROL_CENTER_WHY = ("it would change {what} in Control Center, which outlasts the run: the "
                      "harness sets back only the connectivity toggles (Airplane Mode, "
                      "Cellular Data, Wi-Fi, Bluetooth)")
BUTTON = TYPE_PREFIX + "Button"
APPEARANCE = "Appearance"
APPEARANCE_PAGE = "Display & Brightness"
APPEARANCE_BUTTONS = {"Light": "Dark", "Dark": "Light"}
"""Display & Brightness's Appearance: two Buttons, the chosen one selected (WDA reports a
selected Button's value "1"), each with the other, which was chosen before a tap changed it."""
LISTS = frozenset({"Table", "CollectionView"})
"""Short types of the views that hold a list's cells."""

Node = Mapping[str, object]
"""One node of the decoded JSON source."""

WDA_SETTINGS = frozenset({
    "shouldUseCompactResponses", "elementResponseAttributes", "mjpegServerScreenshotQuality",
    "mjpegServerFramerate", "mjpegScalingFactor", "mjpegFixOrientation", "screenshotQuality",
    "keyboardAutocorrection", "keyboardPrediction", "snapshotMaxDepth", "snapshotMaxChildren",
    "useFirstMatch", "waitForIdleTimeout", "animationCoolOffTimeout", "boundElementsByIndex",
    "reduceMotion", "defaultActiveApplication", "activeAppDetectionPoint",
    "acceptAlertButtonSelector", "dismissAlertButtonSelector", "autoClickAlertSelector",
    "defaultAlertAction", "maxTypingFrequency", "respectSystemAlerts", "useClearTextShortcut",
    "includeHittableInPageSource", "includeNativeFrameInPageSource",
    "includeNativeAccessibilityElementInPageSource", "includeMinMaxValueInPageSource",
    "includeCustomActionsInPageSource", "enforceCustomSnapshots", "limitXpathContextScope",
    "screenshotOrientation"})
"""WDA 16.x's settings (`/appium/settings`; several may also be given as a new session's
capabilities)."""
HARMLESS_SETTINGS = frozenset({
    "mjpegServerScreenshotQuality", "mjpegServerFramerate", "mjpegScalingFactor",
    "mjpegFixOrientation", "shouldUseCompactResponses", "elementResponseAttributes",
    "useClearTextShortcut"})
"""WDA settings a client may change through the bridge: how WDA shapes its element replies
(which the simulator answers as WDA does), types and streams. The others change what the
harness reads off the phone and logs by (`snapshotMaxDepth` cuts every page source short, so an
absence passes and a tapped switch logs as its container; `defaultActiveApplication`,
`activeAppDetectionPoint` and `respectSystemAlerts` which app is in front; the
`include...InPageSource` ones every screen digest), how long WDA waits before it answers
(`waitForIdleTimeout`: a harness that times out takes the phone for down), whether it answers
alerts by itself, how screenshots turn, or the phone's own settings (`reduceMotion`, the
keyboard's autocorrection and prediction, which stay after the run). `screenshotQuality` (1 or
2: JPEG instead of PNG, for the harness's own screenshots too, for the rest of the run: WDA's
settings are global), and `useFirstMatch`, `boundElementsByIndex` and `limitXpathContextScope`
(how WDA binds and scopes what a find answers, which the simulator does not model, so a run on
it would not say what a phone does) are refused too. Keys WDA does not know may mean any of
that in a newer WDA."""
PINNED_SETTINGS: Mapping[str, object] = {"maxTypingFrequency": 60}
"""WDA settings a client may send only at WDA's default value (Appium sends
`maxTypingFrequency: 60` with every new session). WDA's settings are global and the harness
adopts the session it finds, so another typing speed would last into the harness's own steps:
slower, a step that types times out and the phone is taken for down; faster, a real phone drops
keys."""
SESSION_DELAYS = frozenset({"eventloopIdleDelaySec"})
"""Capabilities of a new session that delay every later command while above 0 (WDA waits that
long for each app's event loop to idle, globally and after the session): the harness's reads
would time out. Appium sends them as 0, which is let through."""


def full_type(kind: str) -> str:
    """The full type name of a short or full one ("Button" -> "XCUIElementTypeButton")."""
    return kind if kind.startswith(TYPE_PREFIX) else TYPE_PREFIX + kind


def short_type(kind: str) -> str:
    """The short type name of a full or short one ("XCUIElementTypeButton" -> "Button")."""
    return kind.removeprefix(TYPE_PREFIX)


def flag(node: Node, key: str) -> bool:
    """A boolean flag of a JSON node: WDA writes "1"/"0"; other writers use true/1."""
    return node.get(key) in ("1", 1, True, "true", "True")


def walk(tree: object, depth: int = 0) -> Iterator[tuple[int, Node]]:
    """Every node of a JSON source in document order, with its depth (iterative: real sources
    nest deep, and a hostile one deeper still)."""
    stack: list[tuple[int, object]] = [(depth, tree)]
    while stack:
        level, node = stack.pop()
        if not isinstance(node, Mapping):
            continue
        yield level, node
        children = node.get("children")
        if isinstance(children, list):
            stack.extend((level + 1, child) for child in reversed(children))


def focused(tree: object) -> Node | None:
    """The deepest node flagged `isFocused` (the field the keyboard types into), if any."""
    best: tuple[int, Node] | None = None
    for depth, node in walk(tree):
        if flag(node, "isFocused") and (best is None or depth >= best[0]):
            best = (depth, node)
    return best[1] if best else None


def text_inputs(tree: object) -> Iterator[Node]:
    """The text inputs of a JSON source, in document order."""
    return (node for _, node in walk(tree) if short_type(str(node.get("type", "")))
            in TEXT_INPUT_TYPES)


def sideways(params: Mapping[str, object]) -> bool:
    """Whether a swipe's params (`from_x`... or a `direction`) go more sideways than up or
    down, as a switch's thumb slides (a drag up or down a list scrolls it)."""
    if params.get("direction") in ("left", "right"):
        return True
    ends = [params.get(k) for k in ("from_x", "from_y", "to_x", "to_y")]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in ends):
        return False
    from_x, from_y, to_x, to_y = (float(v) for v in ends)  # type: ignore[arg-type]
    return abs(to_x - from_x) > abs(to_y - from_y)


WDA_BUNDLE_MARKS = ("WebDriverAgent", ".xctrunner")
"""How a WDA runner's bundle id reads (com.facebook.WebDriverAgentRunner.xctrunner)."""


def is_wda(bundle_id: str) -> bool:
    """Whether a bundle id is WDA's runner (the XCTest host that answers every request)."""
    return any(mark in bundle_id for mark in WDA_BUNDLE_MARKS)


SIDE_BUTTON_HID = (0x0C, 0x30)
"""The side (power) button as an IOHID event (page, usage): the consumer page, Power."""
HOME_BUTTON_HID = (0x0C, 0x40)
"""The Home button as an IOHID event: the consumer page, Menu (facebook-wda's `press_duration`
of home sends it)."""
SIDE_BUTTON = "hid:{}:{}".format(*SIDE_BUTTON_HID)
"""The side button as the bridge logs an IOHID press of it ("hid:12:48")."""
POWER_OFF = "slide to power off"
"""The power-off screen's slider (Settings > General > Shut Down, or the side button held with a
volume button): slid to its end, the phone turns off."""
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
                   ) -> str:
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
    """
    text = label.strip().lower()
    if kind == "terminate" and is_wda(str((params or {}).get("bundle_id", ""))):
        return "it would stop WDA, which answers every request the harness and the agent send"
    if kind == "press" and (params or {}).get("button") == SIDE_BUTTON:
        return ("it presses the side button, which five times quickly calls emergency services "
                "(Emergency SOS) and held opens the power-off slider; `/wda/lock` locks the "
                "phone")
    if text == POWER_OFF and kind in ("tap", "swipe", "type"):
        return "it would power the phone off"
    if app == SPRINGBOARD and kind == "tap":
        return SPRINGBOARD_RIG_TAPS.get(_pressed(label, params), "")
    if app != SETTINGS:
        return ""
    title = _pressed(label, params).split(", ", 1)[0]
    if kind == "tap" and title in SETTINGS_RIG_TAPS:
        return SETTINGS_RIG_TAPS[title]
    turns_off = kind == "tap" or (kind == "swipe" and sideways(params or {}))
    if target_type == SWITCH and text in SETTINGS_RIG_SWITCHES and value == "1" and turns_off:
        return SETTINGS_RIG_SWITCHES[text]
    restarts = RESTARTING_CHOICES.get(page.strip().lower(), "")
    if kind == "tap" and restarts and chosen and label != chosen:
        return restarts
    return ""


REMOVAL_TAPS = {
    "remove app": "it opens the choice to delete the app or take it off the Home Screen",
    "delete app": "it would delete the app and everything it keeps",
    "remove from home screen": "it would take the app's icon off the Home Screen",
    "edit home screen": "it opens the Home Screen's edit mode, where icons are deleted and "
                        "moved",
    "offload app": "it would uninstall the app (iOS keeps its documents)",
}
"""Controls that delete an app, uninstall it or change the owner's Home Screen, by label (lower
case): SpringBoard's icon menu ("Remove App", then "Delete App" or "Remove from Home Screen"),
its App Library menu ("Delete App"), its edit mode, and Settings > General > iPhone Storage's
app pages ("Offload App", "Delete App")."""
REMOVAL_BADGE = "DeleteButton"
"""The identifier of the badge each icon wears in the Home Screen's edit mode (a tap on it asks
to delete the app or take it off the Home Screen)."""
ALERT_PRESSES = frozenset({"alert_accept", "alert_dismiss"})
"""The bridge's gestures for WDA's alert routes, which press an alert's button by its label."""
ALERT_TYPES = ("Alert", "Sheet")
"""The short types WDA's alert routes answer, in the order it looks for them (FBAlert's
`fb_alertElement`: the app's alert, else its action sheet)."""


def alert_press(alert_type: str, labels: Sequence[str], gesture: str, name: str | None,
                ) -> int | None:
    """Which of an alert's buttons (their labels, every Button inside it in document order)
    WDA's `alert/accept` (`gesture` "alert_accept") or `alert/dismiss` presses; None: none, and
    WDA answers an error.

    Named (`name`), both routes press the first button labelled exactly so (FBAlert's
    `clickAlertButton`). Unnamed, FBAlert's `acceptWithError` presses an Alert's last button and
    an action Sheet's first; `dismissWithError` an Alert's first and a Sheet's last: so an
    Alert's "Cancel" on the left is what dismiss presses, and a sheet's "Cancel" (or "Keep
    Editing") at the bottom too, whatever the buttons say.
    """
    if name is not None:
        return next((i for i, label in enumerate(labels) if label == name), None)
    if not labels:
        return None
    first = (short_type(alert_type) == "Alert") == (gesture == "alert_dismiss")
    return 0 if first else len(labels) - 1


def _pressed(label: str, params: Mapping[str, object] | None) -> str:
    """What a tap pressed, lower case, "..." as "\u2026": the alert button WDA's alert routes
    press by name (`params["button"]`), else the target's label."""
    params = params or {}
    pressed = params.get("button") if params.get("gesture") in ALERT_PRESSES else None
    text = pressed if isinstance(pressed, str) else label
    return text.strip().lower().replace("...", "\u2026")


def removes_app(kind: str, app: str, label: str, name: str = "",
                params: Mapping[str, object] | None = None) -> str:
    """Why an action would delete an app, uninstall it or rearrange the owner's Home Screen (""
    when it would not). Nothing a run does brings an app back: the owner's app and data would be
    gone, and every later task on it could not be played (a skip the agent would have made).

    Args:
        kind: the action's kind (tap, swipe, type...).
        app: the app in front.
        label, name: the element aimed at, as the audit log's target names it.
        params: the action's params: an alert's button pressed through WDA's alert routes is
            named there (`button`), not by a target.
    """
    if kind != "tap" or app not in (SPRINGBOARD, SETTINGS):
        return ""
    text = _pressed(label, params)
    if app == SPRINGBOARD and name == REMOVAL_BADGE:
        return "it asks to delete the app or take it off the Home Screen"
    if app == SPRINGBOARD and text == "delete":
        # SpringBoard's only Delete button is the one that confirms deleting an app.
        return REMOVAL_TAPS["delete app"]
    return REMOVAL_TAPS.get(text, "")


SETTINGS_LASTING_TAPS = {
    "reset keyboard dictionary": "it would erase every word the owner's keyboard has learnt",
    "reset home screen layout": "it would put the owner's Home Screen back to Apple's layout, "
                                "moving every icon and undoing its folders",
    "reset location & privacy": "it would reset every app's location and privacy permissions: "
                                "later attempts would meet their prompts",
    "forget this network": "it would forget a Wi-Fi network and its password",
    "forget this device": "it would forget a paired Bluetooth device",
    "sign out": "it would sign the owner out of their account, taking its data off the phone",
}
"""Settings buttons whose change outlasts the run and that no set-back undoes, by title (lower
case): the other options of General > Transfer or Reset iPhone > Reset (and their confirming
buttons), forgetting a network or a device, signing out."""
SPRINGBOARD_LASTING = {
    "sos": "it would call emergency services",
    "emergency sos": "it would call emergency services",
    "emergency call": "it would call emergency services",
}
"""Controls on SpringBoard that reach beyond the phone, by label (lower case): AssistiveTouch's
SOS and the power-off screen's emergency slider (slid or tapped)."""

CALLS = "it would call someone from the owner's phone"
CALLING_APPS = frozenset({"com.apple.mobilephone", "com.apple.facetime"})
"""Apps where a tap can place a call (a recent, a favourite, the keypad's call button, a
FaceTime contact): no tap in them is forwarded."""
CALL_BUTTONS = frozenset({"call", "facetime audio", "video call"})
"""Buttons that call in any app (lower case): a place's Call in Maps, the Call that confirms a
`tel:` link tapped in Safari, a contact's."""
FACETIME_BUTTONS = frozenset({"facetime", "audio call", "facetime video"})
"""FaceTime's buttons in a conversation or a card, outside SpringBoard (where "FaceTime" is
its icon), lower case."""
CONTACTS = "com.apple.MobileAddressBook"
CONTACT_CALLS = frozenset({"call", "video", "facetime", "facetime audio", "audio"})
"""A contact card's buttons that call (lower case)."""
PHONE_LABELS = frozenset({"mobile", "iphone", "home", "work", "school", "main", "phone", "pager",
                          "other", "home fax", "work fax", "other fax"})
"""The labels iOS gives a contact's phone numbers (lower case): a card's phone row, named by its
label or by its number, calls that number when tapped (an address or email row named alike only
opens Maps or a draft: refused with them, as no task needs either)."""
SENDING = {"com.apple.MobileSMS": "it would send a message from the owner's phone",
           "com.apple.mobilemail": "it would send an email from the owner's account"}
SENDS = frozenset({"send", "sendbutton"})
"""What a send button is called in Messages and Mail (lower case)."""
APP_STORE = "com.apple.AppStore"
STORES = {APP_STORE: "install, update or buy an app",
          "com.apple.iBooks": "get or buy a book"}
"""Apps whose buttons take something with the owner's account (`STORE_TAPS`, or a price)."""
STORE_TAPS = frozenset({"get", "install", "reinstall", "redownload", "download", "buy",
                        "purchase", "subscribe", "update", "update all", "try it free"})
"""The stores' buttons that install, update, get or buy (lower case); a price buys too."""
_PRICE = re.compile(r"^(?:[$€£¥₹]\s?\d|\d[\d.,]*\s?[$€£¥₹])")
CALLING_SCHEMES = frozenset({"tel", "telprompt", "facetime", "facetime-audio", "facetime-prompt",
                             "facetime-audio-prompt"})
"""URL schemes that place a call when opened."""
SHORTCUTS = "com.apple.shortcuts"
RUNS_SHORTCUT = ("it would run one of the owner's shortcuts, which may call, message, pay or "
                 "change settings, none of which the log could name")
ELSEWHERE_APPS = {
    SHORTCUTS: RUNS_SHORTCUT,
    "com.apple.Home": "it would work the owner's home accessories (a door lock, a garage door, "
                      "the lights), beyond the phone",
    "com.apple.findmy": "it would act on the owner's other devices or on the people who share "
                        "a location with them (a sound played, a device marked lost or erased, "
                        "a location shared)",
    "com.apple.Bridge": "it would change or unpair the owner's Apple Watch",
}
"""Apps where a tap acts beyond the phone (a shortcut tile runs at a tap, an accessory tile
switches): no tap in them is forwarded, as in Phone and FaceTime. Each opens."""
SHORTCUT_SCHEMES = frozenset({"shortcuts", "workflow"})
"""URL schemes that open Shortcuts, where `run-shortcut` runs one at once (`workflow:` is its
old name)."""
_PHONE_NUMBER = re.compile(r"\+?\d[\d\s().\u2011\u2012\u2013-]{5,}\d")


def _calls_by_name(app: str, text: str) -> bool:
    """Whether a control labelled "Call ..." or "FaceTime ..." (lower case) places a call: on
    SpringBoard any such (Spotlight's and Siri's suggestions: "Call 911", "FaceTime, Kate
    Bell"; not FaceTime's icon), elsewhere FaceTime's own buttons (a conversation's
    "FaceTime", "Audio Call") and any that names a number, however short (the sheet a number
    tapped in Safari, Mail, Messages or an event opens: "Call 911", "Call (555) 564-8583").
    The owner's own words in a note, a reminder or an event ("Call the dentist") only open
    them, and Settings' rows ("Call Forwarding") only open pages."""
    if app == SETTINGS:
        return False
    if app != SPRINGBOARD and text in FACETIME_BUTTONS:
        return True
    if not re.match(r"(?:call|facetime)\b.", text):
        return False
    return app == SPRINGBOARD or any(c.isdigit() for c in text)


def reaches_out(app: str, text: str) -> str:
    """Why tapping what is labelled `text` (lower case) in `app` would reach someone beyond the
    phone ("" when it would not): a call, a message or an email sent in the owner's name, an
    app or a book got or bought with the owner's account, something sent by AirDrop, any tap in
    an app that acts on other devices (`ELSEWHERE_APPS`)."""
    if app in CALLING_APPS or text in CALL_BUTTONS:
        return CALLS
    if app in ELSEWHERE_APPS:
        return ELSEWHERE_APPS[app]
    if _calls_by_name(app, text):
        return CALLS
    if app == CONTACTS and (text in CONTACT_CALLS or text.split(", ", 1)[0] in PHONE_LABELS
                            or _PHONE_NUMBER.search(text)):
        return CALLS
    if app in SENDING and text in SENDS:
        return SENDING[app]
    if app in STORES and (text in STORE_TAPS or _PRICE.match(text)):
        return (f"it would {STORES[app]} with the owner's account, which stays on the phone "
                "and on the bill")
    if text == "airdrop":
        return "it would send what is shared to someone's device nearby"
    return ""


def reaches_out_by_url(url: str) -> str:
    """Why opening `url` would reach beyond the phone ("" when it would not): a call placed
    (`tel:`, `facetime:`...), a shortcut run (`shortcuts:`, `workflow:`)."""
    scheme, colon, _ = url.strip().partition(":")
    scheme = scheme.lower() if colon else ""
    if scheme in CALLING_SCHEMES:
        return CALLS
    return RUNS_SHORTCUT if scheme in SHORTCUT_SCHEMES else ""


def _leftward(params: Mapping[str, object] | None) -> bool:
    """Whether a swipe's logged points go more left than up or down (on a row: its actions
    shown, or, all the way, its Delete done)."""
    ends = [(params or {}).get(k) for k in ("from_x", "from_y", "to_x", "to_y")]
    if not all(isinstance(e, int | float) for e in ends):
        return (params or {}).get("direction") == "left"
    from_x, from_y, to_x, to_y = (float(e) for e in ends)  # type: ignore[arg-type]
    return to_x < from_x and abs(to_x - from_x) > abs(to_y - from_y)


NOTES = "com.apple.mobilenotes"
RECENTLY_DELETED = "Recently Deleted"
FOR_GOOD = "it would delete a note for good from Notes' Recently Deleted, where its owner can " \
           "still recover it for 30 days (no log could tell the owner's from the run's)"
PURGES = frozenset({"delete", "delete all", "delete note", "delete notes"})
"""Recently Deleted's buttons that delete for good (lower case)."""


def _rect_holds(node: Node, x: float, y: float) -> bool:
    rect = node.get("rect")
    if not isinstance(rect, Mapping):
        return False
    try:
        left, top = float(rect["x"]), float(rect["y"])
        return left <= x <= left + float(rect["width"]) and top <= y <= top + float(rect["height"])
    except (KeyError, TypeError, ValueError):
        return False


def control_center_at(tree: object, point: tuple[float, float] | None) -> str | None:
    """What lies at `point` in Control Center, when a JSON-shaped source shows it (a node named
    `CONTROL_CENTER`): the name of the innermost element of its view there ("" when that has
    none, or no point is known); None when the source does not show Control Center."""
    view = next((node for _, node in walk(tree) if node.get("name") == CONTROL_CENTER), None)
    if view is None:
        return None
    if point is None:
        return ""
    inner: Node = view
    for _, node in walk(view):
        if _rect_holds(node, *point):
            inner = node  # document order: a later (deeper or drawn-over) one wins
    name = inner.get("name")
    return name if isinstance(name, str) else ""


def control_center_lasting(kind: str, app: str, target_type: str, label: str, name: str,
                           under: str) -> str:
    """Why a touch in Control Center would change what outlasts the run ("" when it would
    not): anything but a connectivity toggle (a SpringBoard Switch named in `CONTROL_TOGGLES`,
    set back after the attempt) and Control Center's own views (the space around its modules,
    which closes it). Fails closed: an element with neither name nor label (a view laid over
    the screen) passes only where Control Center has nothing but its own views under the
    touch (`under`, from `control_center_at`)."""
    if kind not in ("tap", "swipe", "type"):
        return ""
    if name in CONTROL_TOGGLES and target_type == SWITCH and app == SPRINGBOARD:
        return ""
    if name in CONTROL_CENTER_LASTING:
        return CONTROL_CENTER_LASTING[name]
    if (name in CONTROL_CENTER_SPACE or not (name or label).strip()) \
            and under in CONTROL_CENTER_SPACE:
        return ""
    if not (name or label).strip():
        return ("it touches an element of Control Center with neither name nor label, which "
                "the log cannot tell from a control the harness cannot set back (Focus, "
                "Orientation Lock, the flashlight...)")
    return CONTROL_CENTER_WHY.format(what=repr(label or name))


SETTINGS_UNSET_TYPES = frozenset({"PickerWheel", "Picker", "DatePicker", "Stepper",
                                  "SegmentedControl"})
"""Short types of Settings controls that change a value no set-back knows (a date picked, a
stepper's count, a segment chosen): refused in Settings, as the set-back knows only switches,
options, sliders and the appearance's Buttons (`changes.setting_of`)."""
STEPPER_BUTTONS = frozenset({"increment", "decrement"})
"""The labels of a stepper's two Buttons (lower case)."""


def _unset_in_settings(kind: str, target_type: str, text: str) -> str:
    """Why an action on a Settings control would change a value no set-back knows ("")."""
    if kind not in ("tap", "swipe", "type"):
        return ""
    if short_type(target_type) in SETTINGS_UNSET_TYPES or (
            short_type(target_type) == "Button" and text in STEPPER_BUTTONS):
        return (f"it would change a Settings value by a {short_type(target_type)}, which the "
                "harness cannot set back (it sets back switches, options, sliders and the "
                "appearance)")
    return ""


def outlasts_run(kind: str, app: str, label: str, params: Mapping[str, object] | None = None,
                 page: str = "", name: str = "", target_type: str = "",
                 control_center: str | None = None) -> str:
    """Why an action would change what outlasts the run ("" when it would not): the keyboard's
    dictionary, the Home Screen's layout, every app's permissions, a saved network, the owner's
    account, an emergency call, any call, message or email (`reaches_out`), the owner's
    pasteboard read or replaced in any app (`pasteboard.uses_pasteboard`: Copy, Cut, Paste,
    Copy Link...). Nothing after the run sets them back, and no task needs them.

    Args:
        kind: the action's kind (tap, swipe, type...).
        app: the app in front.
        label: the element aimed at, as the audit log's target names it.
        params: the action's params: an alert's button pressed through WDA's alert routes is
            named there (`button`), not by a target.
        page: the title of the page the element was on (its navigation bar's).
        name, target_type: the element's name and full type.
        control_center: when the screen shows Control Center, what lies under the touch there
            (`control_center_at`): only its connectivity toggles and empty space are let
            through (`control_center_lasting`); None when it does not show.
    """
    if control_center is not None:
        return control_center_lasting(kind, app, target_type, label, name, control_center)
    text = _pressed(label, params)
    if app == NOTES and page == RECENTLY_DELETED and (
            kind == "tap" and text in PURGES or kind == "swipe" and _leftward(params)):
        return FOR_GOOD  # a row's Delete, or a full swipe left on it, which iOS deletes at
    reach = (reaches_out(app, text) or uses_pasteboard(text)) if kind == "tap" else ""
    if reach:
        return reach
    unset = _unset_in_settings(kind, target_type, text) if app == SETTINGS else ""
    if unset:
        return unset
    if app == SETTINGS and kind == "tap":
        return SETTINGS_LASTING_TAPS.get(text.split(", ", 1)[0], "")
    if app == SPRINGBOARD and kind in ("tap", "swipe", "type"):
        return SPRINGBOARD_LASTING.get(text, "")
    return ""
