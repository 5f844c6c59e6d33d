"""What an action would change that outlasts the run or reaches beyond the phone: the rules the
bridge refuses an agent's action by, written down once.

An app deleted, offloaded or taken off the Home Screen (`removes_app`); a call placed, a message
sent, an app bought, a shortcut run (`outreach.reaches_out`, `outreach.reaches_out_by_url`);
the owner's pasteboard read or replaced (`pasteboard.uses_pasteboard`); the owner's browsing
data written (`safari_lasting`: the Reading List, Bookmarks, Passwords, History...), their
start page changed (`START_PAGE_LASTING`); a reset, a forgotten network, a signed-out account, a
note deleted for good, a Control Center control the set-back does not know, and in Settings
anything but navigation, what only shows and the values the set-back knows (an allow-list,
`settings_lasting`): `outlasts_run`. Each answers why in words
the bridge's refusal gives the agent ("" when the action is none of these). Pure: no I/O,
imports only `xcui`, `outreach`, `pasteboard`, `presses` and `scroll_drags` (as pure), so the
simulator may use it too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from phoneshell.outreach import reaches_out
from phoneshell.pasteboard import uses_pasteboard
from phoneshell.presses import heading, logged_heading
from phoneshell.scroll_drags import scroll_drags
from phoneshell.xcui import (
    CONTROL_CENTER_SPACE,
    CONTROL_TOGGLES,
    NOTES,
    SAFARI,
    SETTINGS,
    SPRINGBOARD,
    SWITCH,
    TEXT_INPUTS,
    TOUCH_KINDS,
    pressed,
    settings_value,
    short_type,
)

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
    text = pressed(label, params)
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

NO_SIDEWAYS = frozenset({"scroll_to", "picker_select", "pinch", "rotate"})
"""Logged swipes with no way of their own that slide no row sideways: WDA's scroll to an
element (it drags its list up or down), a picker's select, two fingers' pinch or rotate."""
FRAME = (0.0, 0.0, 1000.0, 1000.0)
"""A frame to play a scroll's drags on (`scroll_drags`): which way they go does not hang on
its size, and it is large enough that any distance WDA moves by makes one."""


def _leftward(params: Mapping[str, object] | None) -> bool:
    """Whether a swipe goes left as the phone takes it (on a row: its actions shown, or, all
    the way, its Delete done): by its first move past the slop, not its ends
    (`presses.logged_heading`: a swipe left that then goes down is still the row's). WDA's
    `scroll` (`/wda/element/:id/scroll`, `/wda/scroll`) is judged by the drags WDA makes for it
    (`_scrolls_left`), never taken for a swipe. Fails closed: one whose way the log cannot tell
    (a drag to an element) counts as left."""
    params = params or {}
    if params.get("gesture") == "scroll":
        return _scrolls_left(params)
    way = logged_heading(params)
    if way is None:
        return params.get("gesture") not in NO_SIDEWAYS
    return way == "left"


def _scrolls_left(params: Mapping[str, object]) -> bool:
    """Whether WDA's scroll logged with `params` drags a finger left: by direction, the drags
    WDA computes (`scroll_drags`, with the `distance` logged: a negative one drags the other
    way, 0 none); with no direction it may drag (`toVisible`, `name`, `predicateString`: WDA's
    fb_scrollToVisible), it scrolls the element's list along its axis until the element
    shows, sliding no row sideways; a direction WDA does not know does nothing (red team 95,
    RT95-1: `el.scroll()` on a Settings row was refused as a swipe left)."""
    distance = params.get("distance", 1.0)
    if not isinstance(distance, int | float):
        return True  # the bridge logs WDA's number: anything else it could not read
    drags = scroll_drags(FRAME, str(params.get("direction")), float(distance))
    return any(heading((x0, y0), (x1, y1)) == "left" for x0, y0, x1, y1 in drags)


RECENTLY_DELETED = "Recently Deleted"
FOR_GOOD = "it would delete a note for good from Notes' Recently Deleted, where its owner can " \
           "still recover it for 30 days (no log could tell the owner's from the run's)"
PURGES = frozenset({"delete", "delete all", "delete note", "delete notes"})
"""Recently Deleted's buttons that delete for good (lower case)."""


CLOSES_TABS = ("it would close Safari tabs, and the run cannot tell the owner's from those its "
               "agents opened (it counts them, and closes the newest beyond its count when it "
               "ends): an owner's tab closed is gone, with its history")
TAB_CLOSERS = frozenset({"closeTabButton"})
"""The names of a tab card's Close in Safari's tab overview (the simulator's; a phone's is
inferred: docs/simulator.md)."""
TAB_CARDS = frozenset({"TabOverviewItem"})
"""The names of a tab's card in the overview, which a swipe left closes."""
_CLOSING = re.compile(r"close (?:this tab|tab|other tabs|all(?: \d+)? tabs?)")


def closes_tabs(kind: str, text: str, name: str,
                params: Mapping[str, object] | None = None) -> bool:
    """Whether an action in Safari closes tabs: a card's Close, a menu's Close This Tab, Close
    Other Tabs or Close All N Tabs (`text`: what was pressed, lower case), a swipe left on a
    card. The run keeps the owner's tabs by count alone (`runner.tidy`), and no task closes
    one."""
    if kind == "tap":
        return name in TAB_CLOSERS or bool(_CLOSING.fullmatch(text))
    return kind == "swipe" and name in TAB_CARDS and _leftward(params)


START_PAGE_LASTING = {
    "close": "it would close the start page's Customize Start Page card, which Safari keeps "
             "closed for good",
    "onboardingButton-CustomizeStartPage": "it opens the start page's customisation, whose "
                                           "sections and background Safari keeps",
    "customizationsSheetButton": "it opens the start page's customisation, whose sections and "
                                 "background Safari keeps",
}
"""Safari's start-page controls that change the owner's start page for good, by the name the
simulator gives them (a phone's are inferred: docs/simulator.md): no probe reads the start page
and nothing sets it back (red team 109, RT109-1: the card's close lasted after the run)."""
SAFARI_LASTING = {
    "add to reading list": "it would add a page to the owner's Reading List",
    "add bookmark": "it would add a bookmark to the owner's Bookmarks",
    "add to bookmarks": "it would add a bookmark to the owner's Bookmarks",
    "add to favorites": "it would add a page to the owner's Favorites (their start page's)",
    "add to home screen": "it would put a web page's icon on the owner's Home Screen",
    "add to quick note": "it would write the page into one of the owner's notes",
    "save to files": "it would save the page as a file in the owner's Files (iCloud Drive)",
    "download linked file": "it would save a file in the owner's Downloads (iCloud Drive)",
    "save image": "it would save an image to the owner's photo library",
    "add to photos": "it would save an image to the owner's photo library",
    "save to photos": "it would save an image to the owner's photo library",
    "save password": "it would save a password to the owner's Passwords (iCloud Keychain)",
    "use strong password": "it would save a new password to the owner's Passwords (iCloud "
                           "Keychain)",
    "update password": "it would change a password in the owner's Passwords (iCloud Keychain)",
    "clear history": "it would erase the owner's browsing history",
    "clear history and website data": "it would erase the owner's browsing history, cookies "
                                      "and sign-ins",
}
"""Controls that write the owner's browsing data, by label (lower case): Safari's More menu and
link menu, its Bookmarks button's menu, the share sheet's actions, an image's menu, AutoFill's
password offers, History's Clear. Reading List, Bookmarks, Favorites, Tab Groups, Passwords and
History are iCloud data a phone syncs to the owner's other devices; the Home Screen, Files and
Photos keep what is saved. The run reads none of them and no task needs them, so nothing could
take back what an agent added. Refused in every app but Settings (whose allow-list judges its
own rows, `settings_lasting`): a share sheet elsewhere adds to the same Reading List."""
SAFARI_ONLY_LASTING = {
    "private": "it would switch Safari to private browsing, which Safari keeps for the owner "
               "after the run",
    "new private tab": "it would switch Safari to private browsing, which Safari keeps for "
                       "the owner after the run",
    "clear": "it would erase the owner's browsing history (History's Clear)",
}
"""Safari's controls of that kind whose words other apps use for other things (lower case)."""
_SAFARI_COUNTED = re.compile(r"add bookmarks? for \d+ tabs?|(?:new|add to|move to) "
                             r"(?:empty )?tab group(?: with \d+ tabs?)?|new tab group from "
                             r"\d+ tabs?|add \d+ tabs? to (?:bookmarks|tab group)")
"""Labels with a count or a group (Add Bookmarks for 3 Tabs, New Tab Group with 3 Tabs, Move
to Tab Group): bookmarks and Tab Groups, which sync like the rest."""
SAFARI_WHY = ("{what}, which outlasts the run and reaches the owner's other devices (iCloud): "
              "the run reads none of Safari's data but its tabs")


def safari_lasting(app: str, text: str) -> str:
    """Why a tap on what is labelled `text` (lower case) in `app` would write the owner's
    browsing data ("" when it would not): `SAFARI_LASTING` in every app but Settings,
    `SAFARI_ONLY_LASTING` in Safari, and the counted labels of bookmarks and Tab Groups."""
    if app == SETTINGS:
        return ""
    text = text.rstrip("\u2026").strip()
    why = SAFARI_LASTING.get(text) or (SAFARI_ONLY_LASTING.get(text, "") if app == SAFARI
                                       else "")
    if not why and _SAFARI_COUNTED.fullmatch(text):
        why = "it would add to the owner's bookmarks or Tab Groups"
    return SAFARI_WHY.format(what=why) if why else ""


def control_center_lasting(kind: str, app: str, target_type: str, label: str, name: str,
                           under: str) -> str:
    """Why a touch in Control Center would change what outlasts the run ("" when it would
    not): anything but a connectivity toggle (a SpringBoard Switch named in `CONTROL_TOGGLES`,
    set back after the attempt) and Control Center's own views (the space around its modules,
    which closes it). Fails closed: an element with neither name nor label (a view laid over
    the screen) passes only where Control Center has nothing but its own views under the
    touch (`under`, from `control_center_at`)."""
    if kind not in TOUCH_KINDS:
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


def _unset_in_settings(target_type: str, text: str) -> str:
    """Why an action on a Settings control would change a value no set-back knows ("")."""
    if short_type(target_type) in SETTINGS_UNSET_TYPES or (
            short_type(target_type) == "Button" and text in STEPPER_BUTTONS):
        return (f"it would change a Settings value by a {short_type(target_type)}, which the "
                "harness cannot set back (it sets back switches, options, sliders and the "
                "appearance)")
    return ""


SETTINGS_LINK = "a row that opens a page"
SETTINGS_BACK = "the back button"
SETTINGS_SEARCH = "the search field"
SETTINGS_CANCEL = "a Cancel button"
SETTINGS_KEYBOARD = "the keyboard"
SETTINGS_SHOWN = "what only shows"
SETTINGS_ACTS = "a row with a control of its own"
"""A row holding a control of its own (a Wi-Fi network's or a Bluetooth device's More Info): a
tap on the row joins or connects, even in a list that shows a checkmark (a phone's connected
network), so it is never taken for an option of a list of options."""
SETTINGS_OPTION = "an option of a list of options"
"""A row of a single-choice list, by its own shape and its section's: in the section of the one
row that shows the checkmark, it and every row there with no chevron and no control of its own
(Auto-Lock's). The only place a tap is the "choice" value the set-back knows
(`xcui.settings_value`): a row of another section, a row that acts, or one the tree cannot
place is none, whatever checkmark the page shows."""
SETTINGS_NAVIGATES = frozenset({SETTINGS_LINK, SETTINGS_BACK})
"""The touches that only navigate (a row with a chevron, the back button): judged before the
labels of controls of other surfaces (the share sheet's AirDrop, the edit menu's Paste), which
a Settings row may share (General > AirDrop, Paste from Other Apps)."""
SETTINGS_PASSES = frozenset({SETTINGS_LINK, SETTINGS_BACK, SETTINGS_SEARCH, SETTINGS_CANCEL,
                             SETTINGS_KEYBOARD, SETTINGS_SHOWN})
"""What a touch in Settings may land on besides a value the set-back knows (words of
`bridge.settings_controls.settings_at`, which reads them off the screen): navigation (a row
with a chevron, the back button, the search field and its Cancel, the keyboard) and what only
shows (a row of a title and a value, text, images, empty space). Every other Settings control
is refused (`settings_lasting`): an allow-list, as Control Center's."""
SETTINGS_WHY = ("it would press {what} in Settings, which neither opens a page nor only shows "
                "a value, and is no value the harness sets back (switches, options, sliders, "
                "the appearance): a button or a row that acts (a passcode turned on, a network "
                "joined, a device connected, a card or a keyboard added, an account signed "
                "out) outlasts the run")
SETTINGS_FIELD_WHY = ("it would type into {what} in Settings, which keeps what is typed (the "
                      "phone's name, a network's password, a text replacement): only the "
                      "search field takes typing there")
SETTINGS_SWIPE_WHY = ("it would swipe {what} left in Settings, which shows a row's Delete and, "
                      "all the way, deletes it (a keyboard, a network, a device): only a "
                      "switch or a slider is slid sideways there")
SEARCH_FIELD = "XCUIElementTypeSearchField"


def settings_lasting(kind: str, target_type: str, label: str, name: str, page: str,
                     chosen: str, params: Mapping[str, object] | None, under: str) -> str:
    """Why a touch in Settings would change what outlasts the run ("" when it would not): an
    allow-list. Passes a value the set-back knows (`xcui.settings_value`), a swipe up or down
    (a scroll) or to the right (back), typing into the search field, and a tap on what
    `under` (from `bridge.settings_controls.settings_at`) names as navigation or as showing
    only (`SETTINGS_PASSES`); refuses the rest, a touch the screen cannot place too."""
    value = settings_value(kind, target_type, label, page, chosen, params)
    if value and (value != "choice" or under == SETTINGS_OPTION):
        return ""  # a choice only on an option's own row: else judged as the row it is
    what = (f"{short_type(target_type) or 'an element'} {label or name!r}"
            + (f" named {name!r}" if label and name and name != label else "")
            if label or name else "an element with neither name nor label")
    if kind == "type":
        # with no target, what the screen lets the keys reach (`settings_at`)
        searches = target_type == SEARCH_FIELD or not target_type and under == SETTINGS_SEARCH
        return "" if searches else SETTINGS_FIELD_WHY.format(
            what=what if target_type else "a field the bridge cannot name")
    if kind == "swipe":
        return SETTINGS_SWIPE_WHY.format(what=what) if _leftward(params) else ""
    return "" if under in SETTINGS_PASSES else SETTINGS_WHY.format(what=what)


def outlasts_run(kind: str, app: str, label: str, params: Mapping[str, object] | None = None,
                 page: str = "", name: str = "", target_type: str = "",
                 control_center: str | None = None, agent: bool = True,
                 settings: str | None = None, chosen: str = "") -> str:
    """Why an action would change what outlasts the run ("" when it would not): the keyboard's
    dictionary, the Home Screen's layout, every app's permissions, a saved network, the owner's
    account, an emergency call, any call, message or email (`reaches_out`), the owner's
    pasteboard read or replaced in any app (`pasteboard.uses_pasteboard`: Copy, Cut, Paste,
    Copy Link...), an agent's closing of Safari's tabs (`closes_tabs`), the owner's browsing
    data written (`safari_lasting`: the Reading List, Bookmarks, Passwords...). Nothing after
    the run sets them back, and no task needs them.

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
        agent: whether an agent acts (the harness closes the tabs its agents opened).
        settings: in Settings, what the touch lands on (`bridge.settings_controls.
            settings_at`): only navigation, what only shows and the values the set-back knows
            are let through (`settings_lasting`); None: not judged so (the harness's own
            steps, or no screen to judge by).
        chosen: in a list of options, the option chosen before (the target's).
    """
    if kind not in TOUCH_KINDS:
        return ""  # every rule below is a touch's: a launch or a URL opened names no control
    if control_center is not None:
        return control_center_lasting(kind, app, target_type, label, name, control_center)
    text = pressed(label, params)
    if agent and app == SAFARI and closes_tabs(kind, text, name, params):
        return CLOSES_TABS
    if app == SAFARI and kind == "tap" and name in START_PAGE_LASTING:
        return START_PAGE_LASTING[name]
    if app == NOTES and page == RECENTLY_DELETED and (
            kind == "tap" and text in PURGES or kind == "swipe" and _leftward(params)):
        return FOR_GOOD  # a row's Delete, or a full swipe left on it, which iOS deletes at
    if app == SETTINGS and kind == "tap" and settings in SETTINGS_NAVIGATES:
        return ""  # Settings' own navigation, before the other surfaces' labels
    reach = (reaches_out(app, text, field=target_type in TEXT_INPUTS) or uses_pasteboard(text)
             or safari_lasting(app, text)) if kind == "tap" else ""
    if reach:
        return reach
    unset = _unset_in_settings(target_type, text) if app == SETTINGS else ""
    if unset:
        return unset
    if app == SETTINGS and kind == "tap" and (title := text.split(", ", 1)[0]) \
            in SETTINGS_LASTING_TAPS:  # a row's title, before the value it shows
        return SETTINGS_LASTING_TAPS[title]
    if app == SETTINGS and settings is not None:
        return settings_lasting(kind, target_type, label, name, page, chosen, params, settings)
    if app == SPRINGBOARD:
        return SPRINGBOARD_LASTING.get(text, "")
    return ""
