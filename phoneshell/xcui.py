"""WDA's element vocabulary and its JSON page source, its settings, its alert routes, the phone's
buttons: facts the harness, the bridge and the simulated iPhone share, written down once.

XCUITest names element types `XCUIElementType<Short>`; the XML source uses the full name, the
JSON source (`GET /source?format=json`, notes/wda-stack.md §2.2) the short one, with flags such
as `isFocused` and `isVisible` as the strings "1"/"0". Which WDA settings change what the
harness reads (`HARMLESS_SETTINGS` are the others, `PINNED_SETTINGS` only at WDA's default).
Which controls power a phone off, restart, erase it or stop WDA is `rig_down`'s; what else
the bridge refuses (an app deleted, a call placed, what outlasts the run) is `lasting`'s. Pure:
no I/O, imports nothing else of phoneshell but `presses` (pure too), so the simulator (a
device) may use it too.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from phoneshell.presses import logged_heading

TYPE_PREFIX = "XCUIElementType"
_TYPE_NAMES = (
    "Any Other Application Group Window Sheet Drawer Alert Dialog Button RadioButton RadioGroup "
    "CheckBox DisclosureTriangle PopUpButton ComboBox MenuButton ToolbarButton Popover Keyboard "
    "Key NavigationBar TabBar TabGroup Toolbar StatusBar Table TableRow TableColumn Outline "
    "OutlineRow Browser CollectionView Slider PageIndicator ProgressIndicator "
    "ActivityIndicator SegmentedControl Picker PickerWheel Switch Toggle Link Image Icon "
    "SearchField ScrollView ScrollBar StaticText TextField SecureTextField DatePicker TextView "
    "Menu MenuItem MenuBar MenuBarItem Map WebView IncrementArrow DecrementArrow Timeline "
    "RatingIndicator ValueIndicator SplitGroup Splitter RelevanceIndicator ColorWell HelpTag "
    "Matte DockItem Ruler RulerMarker Grid LevelIndicator Cell LayoutArea LayoutItem Handle "
    "Stepper Tab TouchBar StatusItem")
SHORT_TYPES = tuple(_TYPE_NAMES.split())
"""XCTest's element types without the prefix, as WDA's `FBElementTypeTransformer` names them:
the simulator's class chains accept these, and task files name types by them."""
ELEMENT_TYPES = frozenset(TYPE_PREFIX + name for name in SHORT_TYPES)
"""The same, by full type name, as the XML source writes them."""
SPRINGBOARD = "com.apple.springboard"
"""The home screen's bundle id: in front when no app is."""
SWITCHER_WINDOW = "SBSwitcherWindow:Main"
"""The App Switcher's window in SpringBoard's tree (iOS 26 dumps: hidden until it shows)."""
APP_LIBRARY = "App Library"
"""The name of the App Library's search field, SpringBoard's other search beside Spotlight's
(the simulator's, inferred: its placeholder; no dump shows it)."""

BANNER_VIEW = "NotificationShortLookView"
"""The accessible view of a notification banner, which the phone's system shows over any app on
its own (the iOS 26 banner dump; the simulator's too): no agent's action made it. The name
alone proves nothing (`is_banner` says what does)."""
BANNER_HOLDER = "Notification"
"""The view a banner's `BANNER_VIEW` sits in, in its window (the iOS 26 banner dump)."""


def is_banner(kind: str, name: str, y: float, above: Sequence[tuple[str, str]], window: int,
              screen_height: float) -> bool:
    """Whether an element is a notification banner's view, told by what only the system's
    banner has, never by its name alone: an app names an element by its text, so a note titled
    "NotificationShortLookView" is a Cell named so (red team 110: it hid the Notes window's
    changes from the custody digest). The banner's view (`BANNER_VIEW`, an Other) sits in a
    "Notification" view (`BANNER_HOLDER`) in a top-level window of its own, never the tree's
    first (the front app's screen, where all of an app's content is, a web page's among it),
    at the top of the screen, where it comes down under the Dynamic Island (y 58 of 874 in
    the iOS 26 dump and on the simulated iPhone).

    Args:
        kind: its short type.
        name: its name.
        y: its top edge, in points.
        above: the (short type, name) of each element it sits in, its window first (the
            application node left out).
        window: its window's place among the application's windows (0: the first).
        screen_height: the application's (the screen's) height, in points.
    """
    return (kind == "Other" and name == BANNER_VIEW and window > 0 and len(above) > 1
            and above[0][0] == "Window" and ("Other", BANNER_HOLDER) in above[1:]
            and 0 <= y < screen_height / 4)
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
NOTES = "com.apple.mobilenotes"
"""Notes' bundle id."""
CONTACTS = "com.apple.MobileAddressBook"
"""Contacts' bundle id."""
APP_STORE = "com.apple.AppStore"
"""The App Store's bundle id."""
SAFARI = "com.apple.mobilesafari"
"""Safari's bundle id."""
TOUCH_KINDS = frozenset({"tap", "swipe", "type"})
"""The audit kinds of an action on an element of the screen: the only ones an element's
control can turn into a lasting change (a launch, a press or a URL opened names no element)."""
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
BUTTON = TYPE_PREFIX + "Button"
APPEARANCE = "Appearance"
APPEARANCE_PAGE = "Display & Brightness"
APPEARANCE_BUTTONS = {"Light": "Dark", "Dark": "Light"}
"""Display & Brightness's Appearance: two Buttons, the chosen one selected (WDA reports a
selected Button's value "1"), each with the other, which was chosen before a tap changed it."""
LISTS = frozenset({"Table", "CollectionView"})
"""Short types of the views that hold a list's cells."""
SECTION_GAP = 4.0
"""How far apart (in points) two rows of a list may lie and still be one section: a section's
rows touch (the iOS 26 About dump's overlap by a point), while a header, a footer or a band
(18 points at least) lies between two sections."""
SETTINGS_VALUES = ("switch", "button", "choice", "slider")
"""The kinds of Settings values the set-back knows (`settings_value`)."""


def settings_value(kind: str, target_type: str, label: str, page: str, chosen: str,
                   params: Mapping[str, object] | None = None) -> str:
    """Which kind of Settings value an action in Settings changes that the set-back knows
    (`changes.setting_of`, `device.settings_values`): "switch" (a labelled Switch tapped or
    slid sideways), "button" (Display & Brightness's Light or Dark tapped), "choice" (a row of
    a list of options tapped: `chosen` names the option chosen before), "slider" (a labelled
    Slider tapped, dragged or set); "" for any other. The bridge lets these through in
    Settings, and refuses what changes a value outside them (`lasting.outlasts_run`)."""
    if target_type == SWITCH and label and (
            kind == "tap" or kind == "swipe" and sideways(params or {})):
        return "switch"
    if kind == "tap" and target_type == BUTTON and label in APPEARANCE_BUTTONS \
            and page in ("", APPEARANCE_PAGE):
        return "button"
    if kind == "tap" and target_type == CELL and chosen and page:
        return "choice"
    return "slider" if (kind in ("tap", "swipe", "type") and target_type == SLIDER
                        and label) else ""

Node = Mapping[str, object]
"""One node of the decoded JSON source."""


def section_rows(spans: Sequence[tuple[float, float]], at: int) -> range:
    """The rows of a list in the same section as row `at`, given each row's (top, height) in
    the list's order: the run of rows around it each starting within `SECTION_GAP` of where
    the one before it ends. A list's tree holds its sections' rows side by side (the About
    dump's cells are siblings, the bands between sections beside them), so where a section
    ends is read off the frames."""
    start = at
    while start > 0 and _touch(spans[start - 1], spans[start]):
        start -= 1
    end = at
    while end + 1 < len(spans) and _touch(spans[end], spans[end + 1]):
        end += 1
    return range(start, end + 1)


def _touch(upper: tuple[float, float], lower: tuple[float, float]) -> bool:
    return abs(lower[0] - (upper[0] + upper[1])) <= SECTION_GAP


def section(holder: Node, cell: Node) -> list[Node]:
    """The Cells of `holder` (the list a cell is a row of) in `cell`'s section
    (`section_rows`), `cell` among them; [cell] alone when a frame is missing (nothing tells
    its section)."""
    children = holder.get("children")
    cells = [n for n in children if isinstance(n, Mapping)
             and short_type(str(n.get("type") or "")) == "Cell"] \
        if isinstance(children, list) else []
    spans = [_span(n) for n in cells]
    at = next((i for i, n in enumerate(cells) if n is cell), None)
    if at is None or spans[at] is None:
        return [cell]
    gapless = [span or (float("nan"), 0.0) for span in spans]  # no frame: a break
    return [cells[i] for i in section_rows(gapless, at)]


def _span(node: Node) -> tuple[float, float] | None:
    rect = node.get("rect")
    if not isinstance(rect, Mapping):
        return None
    top, height = rect.get("y"), rect.get("height")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (top, height)):
        return None
    return float(top), float(height)  # type: ignore[arg-type]


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


SWIPE_ENDS = ("from_x", "from_y", "to_x", "to_y")
"""The params of a swipe's points, as the audit log names them."""


def swipe_ends(params: Mapping[str, object]) -> tuple[float, float, float, float] | None:
    """A swipe's points (from_x, from_y, to_x, to_y), or None unless all four are numbers: a
    true or false is none (the bridge refuses one; WDA would read it as 1 or 0)."""
    ends = [params.get(k) for k in SWIPE_ENDS]
    points = [float(v) for v in ends if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if len(points) != len(SWIPE_ENDS):
        return None
    from_x, from_y, to_x, to_y = points
    return from_x, from_y, to_x, to_y


def sideways(params: Mapping[str, object]) -> bool:
    """Whether a swipe's params (`from_x`... or a `direction`) go sideways as the phone takes
    them, as a switch's thumb slides (a drag up or down a list scrolls it): by the first move
    past the slop (`presses.logged_heading`), not the ends."""
    return logged_heading(params) in ("left", "right")


SIDE_BUTTON_HID = (0x0C, 0x30)
"""The side (power) button as an IOHID event (page, usage): the consumer page, Power."""
HOME_BUTTON_HID = (0x0C, 0x40)
"""The Home button as an IOHID event: the consumer page, Menu (facebook-wda's `press_duration`
of home sends it)."""
POWER_OFF = "slide to power off"
"""The power-off screen's slider (Settings > General > Shut Down, or the side button held with a
volume button): slid to its end, the phone turns off."""

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


def pressed(label: str, params: Mapping[str, object] | None) -> str:
    """What a tap pressed, lower case, "..." as "\u2026": the alert button WDA's alert routes
    press by name (`params["button"]`), else the target's label."""
    params = params or {}
    pressed = params.get("button") if params.get("gesture") in ALERT_PRESSES else None
    text = pressed if isinstance(pressed, str) else label
    return text.strip().lower().replace("...", "\u2026")
