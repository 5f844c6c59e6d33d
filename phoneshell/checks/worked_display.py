"""Where Calculator's keys and display are on a screen, for the `tapped_keys` check. Pure.

A key is a Button (a Key on iOS 26) by its name or label; the display is the area above the
keypad (`keypad.DisplayArea`), placed by the end-state source's keys: the log gives a swipe's
start point and the element under it, never the display's frame (red team 115: a swipe that
went down beside the digits, not on their StaticText, deleted on the phone but not in the check).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from phoneshell.audit import Action, actions
from phoneshell.evidence import Evidence
from phoneshell.keypad import CLOSE, KEYS, OPEN, DisplayArea, display_area
from phoneshell.records import AuditEvent, Target
from phoneshell.tree import Element
from phoneshell.wda_routes import DEVICE_STATES

ALIASES = {"backspace": "Delete", "point": "Decimal", "(": OPEN, ")": CLOSE,
           "open parenthesis": OPEN, "close parenthesis": CLOSE, "left paren": OPEN,
           "right paren": CLOSE, "open paren": OPEN, "close paren": CLOSE}
"""Other names a key may go by on a phone, lower case: iOS 18's backspace is "Delete" as best
known (docs/simulator.md), and a backspace by its other name deletes all the same; iOS 26's
point is labelled "Point" (a normalized capture, RadishSoftware/mobster); the parentheses'
names are not known (docs/simulator.md), so their symbols and usual names all count."""


def key_named(element: Target | Element) -> str | None:
    """The keypad key an element is, by its type, name or label (`ALIASES` too), or None."""
    # the keys are Buttons (Keys on iOS 26, as captured); the display (a StaticText) may read
    # "7" and is no key
    if "Button" not in element.type and not element.type.endswith("Key"):
        return None
    for text in (element.name, element.label):
        said = text.strip().lower()
        found = ALIASES.get(said) or next((k for k in KEYS if k.lower() == said), None)
        if found:
            return found
    return None


@dataclass(frozen=True)
class Display:
    """Where Calculator's display was, as the evidence's end-state source lays it out
    (`keypad.DisplayArea`), and for which of the agent's swipes: the log gives a swipe's start
    point and the element under it, never the display's frame, and the keypad (where the display
    ends) stays where it was while the phone is held the same way."""

    area: DisplayArea
    app: str
    """The bundle id of the app the source was read from."""
    turned_seq: int
    """The seq of the last turn of the phone sent before the source was read (-1: none): the
    source places only the swipes after it."""

    def places(self, action: Action) -> bool:
        """Whether the source's layout was the one `action` was aimed at."""
        return action.app_before == self.app and action.seq > self.turned_seq


def display_of(evidence: Evidence) -> Display | None:
    """Calculator's display as the end-state source shows it, or None: no complete source, or
    no keypad key on it (another app in front at the end)."""
    capture = evidence.final
    if capture is None or not capture.source.complete:
        return None
    source = capture.source
    area = display_area(source.width, (e.y for e in source.on_screen() if key_named(e)))
    # an evidence folder written before sources kept their time reads 0: the capture began
    read_at = capture.taken_at or evidence.captured_at
    turns = [a.seq for a in _sent_before(evidence.events, read_at) if a.kind == "other"
             and DEVICE_STATES.get(str(a.params.get("route", ""))) == "orientation"]
    return Display(area, source.bundle_id, max(turns, default=-1)) if area else None


def _sent_before(events: Iterable[AuditEvent], read_at: float) -> list[Action]:
    """The logged actions sent before the end-state source was read (`read_at`, Unix time),
    whoever sent them (a setup may turn the phone too), never the teardown's: the source shows
    the phone as they left it. The runner sets back how the agent left the phone held after
    the capture (red team 119: its turn back to portrait made an honest landscape swipe on the
    display look aimed at the portrait layout), and reads its counts after that (phase `probe`
    again)."""
    return [a for a in actions(events) if a.phase != "teardown" and a.t <= read_at]
