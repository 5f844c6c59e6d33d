"""What a tap or a URL opened would do beyond the phone: someone called, messaged or charged.

A call placed, a message or an email sent in the owner's name, an app or a book got with the
owner's account, something sent by AirDrop, a shortcut run, the owner's other devices or home
worked (`reaches_out`, `reaches_out_by_url`): no set-back undoes any of them, so the bridge
refuses them (`lasting.outlasts_run` for a touch, `bridge.opened_urls` for `POST /url`). Each
answers why in words the refusal gives the agent ("" when the action does none of these).
Pure: no I/O, imports nothing of phoneshell but `xcui`.
"""

from __future__ import annotations

import re

from phoneshell.xcui import APP_STORE, CONTACTS, SETTINGS, SPRINGBOARD

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


def reaches_out(app: str, text: str, field: bool = False) -> str:
    """Why tapping what is labelled `text` (lower case) in `app` would reach someone beyond the
    phone ("" when it would not): a call, a message or an email sent in the owner's name, an
    app or a book got or bought with the owner's account, something sent by AirDrop, any tap in
    an app that acts on other devices (`ELSEWHERE_APPS`). A text input (`field`) named as a
    contact's phone row (a new card's "Phone") only takes focus; every other rule holds for it
    (no tap in a calling app is forwarded, whatever it lands on)."""
    if app in CALLING_APPS or text in CALL_BUTTONS:
        return CALLS
    if app in ELSEWHERE_APPS:
        return ELSEWHERE_APPS[app]
    if _calls_by_name(app, text):
        return CALLS
    if app == CONTACTS and not field and (
            text in CONTACT_CALLS or text.split(", ", 1)[0] in PHONE_LABELS
            or _PHONE_NUMBER.search(text)):
        return CALLS
    if app in SENDING and text in SENDS:
        return SENDING[app]
    if app in STORES and (text in STORE_TAPS or _PRICE.match(text)):
        return (f"it would {STORES[app]} with the owner's account, which stays on the phone "
                "and on the bill")
    if text == "airdrop" and app != SETTINGS:
        # the share sheet's AirDrop (Control Center's is Control Center's rule): Settings has
        # no share sheet, and its General > AirDrop row only opens a page
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
