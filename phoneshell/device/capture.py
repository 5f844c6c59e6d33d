"""Capture an attempt's end state as evidence: foreground app, settled page source, screenshot, and
whatever extra the task's checks declared they need (sources while scrolling, for example).

Everything is read through session-free routes. Capture reads; the only thing it does to the
phone is scroll, and only when a check asked for it, after the final source is safely taken,
and only the front app's own screen (never SpringBoard's, nor what shows over the app:
`overlays`).
The screen counts as settled when the screenshots taken before and after the source agree: a
real phone takes as long for a screenshot whatever the screen holds, while a source grows with
it (1.27 s at depth 25), so settling is waited for on screenshots, not on repeated sources. Or
when the source shows what a read made since the last action showed (`held`, from the bridge),
or the screenshot after it agrees with one taken since the last action (`seen`: an agent that
looks by pictures): the screen held still from that look to this one.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import NamedTuple

from phoneshell.checks import Need
from phoneshell.device.input_probe import CHANGED_FRACTION, screen_difference
from phoneshell.device.phone import Phone, wait_until
from phoneshell.device.screen_part import (
    SCROLL_BAR,
    Part,
    clear_of_edges,
    drag_part,
    is_scroll_bar,
    shown_part,
)
from phoneshell.device.wda_link import WdaHiccup, bridge_refused
from phoneshell.errors import RIG_DOWN, DeviceError
from phoneshell.evidence import Capture, Claim, Evidence
from phoneshell.overlays import in_first_window, overlay
from phoneshell.patience import patiently
from phoneshell.records import Flag
from phoneshell.tree import Element, PageSource

SCROLL_LIMIT = 8
"""Drags per direction when capturing a list; long enough for a few screens of rows."""
SCROLLABLE = ("XCUIElementTypeTable", "XCUIElementTypeCollectionView",
              "XCUIElementTypeScrollView", "XCUIElementTypeWebView")


Held = Callable[[str], bool]
"""Whether a page source shows the screen a read made since the last action showed (the
bridge's `shows`, with the mark it took before capture)."""


def read_settled(phone: Phone, held: Held | None = None, seen: bytes | None = None,
                 ) -> tuple[str, bytes | None, bool]:
    """Read the page source between two screenshots until the screenshots agree (within the
    share of the screen a ticking clock may change) and the source is whole; return the last
    source, the last screenshot and whether they did. A source WDA cut off never counts, so a
    cut-off source is kept only when no whole one came before the deadline.

    A look since the last action can stand for the first screenshot: with `held`, a whole
    source that shows what a read since the last action showed is settled already (the screen
    held still from that read to this one), and one screenshot after it is the picture; with
    `seen` (a screenshot taken since the last action), a whole source followed by a screenshot
    that agrees with it is settled too (the screen held still from that look to this one).
    Anything else goes on as above.

    A screen WDA takes no screenshot of, asked with the phone's patience (`Phone._get`), is
    read without pictures (`_unpictured`): the screenshot is None. Whether the phone takes
    screenshots elsewhere is the caller's to ask (`runner.endstate.pictures_elsewhere`).
    """
    try:
        return _pictured(phone, held, seen)
    except _NoPicture:
        return _unpictured(phone, held)


class _NoPicture(Exception):
    """WDA took no screenshot, asked patiently; the cause says why."""


def _shot(phone: Phone) -> bytes:
    """A screenshot; `_NoPicture` where WDA refused it (a phone that does not answer at all is
    the rig's, raised as it is)."""
    try:
        return phone.screenshot_png()
    except RIG_DOWN:
        raise
    except DeviceError as exc:
        raise _NoPicture(str(exc)) from exc


def _pictured(phone: Phone, held: Held | None, seen: bytes | None,
              ) -> tuple[str, bytes, bool]:
    shots: list[bytes] = []
    if held is not None or seen is not None:
        phone.forget()
        source = phone.source()
        whole = phone.page().complete
        if whole and held is not None and held(source):
            return source, _shot(phone), True
        shot = _shot(phone)
        if whole and seen is not None and screen_difference(seen, shot) <= CHANGED_FRACTION:
            return source, shot, True
        shots.append(shot)
    else:
        shots.append(_shot(phone))
    sources: list[str] = []

    def agreed() -> bool:
        phone.forget()
        sources.append(phone.source())
        shots.append(_shot(phone))
        return (screen_difference(shots[-2], shots[-1]) <= CHANGED_FRACTION
                and phone.page().complete)

    # As long as a step's effect may take to show: the phone's animations, not ours.
    settled = wait_until(agreed, phone.effect_timeout_s, interval_s=0.1)
    return sources[-1], shots[-1], settled


def _unpictured(phone: Phone, held: Held | None) -> tuple[str, None, bool]:
    """The source alone, read until whole (for as long as a step's effect may take), where WDA
    takes no screenshot: settled only when it shows what a read since the last action showed
    (`held`). No pair of pictures says the screen held still, and two sources alike do not:
    a view's frame is reported as set while it still animates there (not verified on a
    phone), so the evidence is `unsettled` and a negated check cannot pass on it."""
    sources: list[str] = []

    def whole() -> bool:
        phone.forget()
        sources.append(phone.source())
        return phone.page().complete

    read = wait_until(whole, phone.effect_timeout_s, interval_s=0.1)
    return sources[-1], None, read and held is not None and held(sources[-1])


class Position(NamedTuple):
    """Where a scroll view stands, as its vertical scroll indicator tells VoiceOver."""

    pages: int
    percent: int


_PERCENT = re.compile(r"(-?\d+)%")


def _positions(page: PageSource) -> dict[int, Position]:
    """Each scroll view's position, by its `order`, from the indicator UIKit puts in every one
    ("Vertical scroll bar, 2 pages", value "100%"): an adjustable `Other`, which nothing an
    agent types or names (a note, a reminder: cells) can pass for."""
    found: dict[int, Position] = {}
    for element in page.elements:
        if not is_scroll_bar(element):
            continue
        bar, percent = SCROLL_BAR.fullmatch(element.name), _PERCENT.fullmatch(element.value)
        if bar and percent:
            found.setdefault(element.parent, Position(int(bar[1]), int(percent[1])))
    return found


def scroll_position(page: PageSource, area: Element) -> Position | None:
    """How many screens `area` holds and how far down it stands; None when the source shows no
    indicator for it (then only dragging tells where a list ends)."""
    return _positions(page).get(area.order)


def scroll_area(page: PageSource) -> Element | None:
    """The scroll view a capture drags: of those with a part on screen at least `MIN_DRAGGED_PT`
    tall, the one whose indicator says it holds the most screens, else the one with the most of
    it on screen. Its `visible` is not asked: iOS 26 marks collection, scroll and web views
    visible="false" while they fill the screen (Settings' root, Safari's start page), and only
    what is in them is marked truly."""
    return _standing(page)[0]


MIN_DRAGGED_PT = 100
"""The least height of a scroll view's part on screen that a capture drags: a drag over half of
a shorter part moves a list by a row or two at most."""


class _Standing(NamedTuple):
    """The page's scroll view (`scroll_area`), the part of it on screen, and where it stands."""

    area: Element | None
    part: Part | None
    position: Position | None


def _standing(page: PageSource) -> _Standing:
    """The page's scroll view, its part on screen and where it stands, reading the page once.
    Only the front app's own window is looked in (`overlays.in_first_window`): the keyboard's
    window (the emoji keyboard's list), a banner's and SpringBoard's are never the app's list.
    Ranked by the part that shows (`shown_part`: on the screen, between the bars drawn over it
    and above the keyboard), never the frame: the cover sheet's scroll view (behind the Lock
    Screen, Notification Centre, Control Center, the App Switcher and Spotlight) reaches 437 pt
    above the screen, and its frame would outrank the app's list behind it; a list spans the
    screen under its bars; a drag starting on a key types, or slides across the keys."""
    parts = [(e, part) for e in page.elements[1:] if e.type in SCROLLABLE
             and in_first_window(page, e)
             and (part := shown_part(page, e)) is not None
             and part.height > MIN_DRAGGED_PT]
    if not parts:
        return _Standing(None, None, None)
    positions = _positions(page)

    def rank(found: tuple[Element, Part]) -> tuple[int, float]:
        position = positions.get(found[0].order)
        pages = position.pages if position is not None and position.pages > 1 else 0
        return pages, found[1].width * found[1].height

    area, part = max(parts, key=rank)
    return _Standing(area, part, positions.get(area.order))


def _at_end(position: Position | None, downward: bool) -> bool:
    """Whether a scroll view standing at `position` is at the end a pass this way goes to."""
    if position is None:
        return False
    return position.pages <= 1 or (position.percent >= 100 if downward
                                   else position.percent <= 0)


def scroll_captures(phone: Phone, final_xml: str) -> list[Capture]:
    """Scroll the final screen down to its end, then up to its top, keeping each new source;
    none at all when something shows over the app's own screen (`overlays.overlay`: the App
    Switcher, where a card dragged up closes its app, the App Library, Notification Center,
    Control Center, Spotlight, a banner, an alert, sheet, popover or menu over the app): the
    capture acts only on the app's own content, and what shows is graded as it is, unscrolled
    (`element_exists_anywhere` then names what showed, and absence is unproven).

    Where a list ends is read from its scroll indicator when the source has one: a list that
    fits on one screen is not dragged at all, a pass stops at the source that shows its end,
    and a pass toward an end the final screen already shows is not made (each drag a real
    phone makes costs it 1.4 s, and proving "nothing moved" cost one more). Without an
    indicator, a pass goes on until a drag changes nothing.

    A screen with nothing to scroll gets one more read, so the evidence shows the pass was made.
    """
    page = PageSource.parse(final_xml)
    if overlay(page):
        return []
    area, part, position = _standing(page)
    if area is None or part is None or drag_part(page, area) is None \
            or (_at_end(position, True) and _at_end(position, False)):
        # the final source, kept: nothing has moved since
        return [Capture("scroll", phone.source(), time.time())]
    # inside the part of the view that shows: the bridge refuses a touch off the screen, and a
    # bar takes one on it (`shown_part`); and out of the system's edge zones, which would take
    # the drag home (`drag_part`)
    low, high = (clear_of_edges(part.at(0.5, down), page.width, page.height)
                 for down in (0.75, 0.25))
    captures: list[Capture] = []
    for downward, start, end in ((True, low, high), (False, high, low)):
        if _at_end(position, downward):
            continue  # the final screen shows that end: the other pass sees all of it
        previous = final_xml if not captures else captures[-1].xml
        for _ in range(SCROLL_LIMIT):
            _drag(phone, start, end)
            xml = phone.source()
            if xml == previous:
                break
            if overlay(now := phone.page()):
                # come up since (a banner, an alert): not the app's list, so neither kept nor
                # dragged again; what was read so far is graded
                return captures
            captures.append(Capture("scroll", xml, time.time()))
            previous = xml
            if _at_end(_standing(now).position, downward):
                break
    return captures or [Capture("scroll", phone.source(), time.time())]


class ScrollRefused(DeviceError):
    """The bridge or WDA refused a drag the capture made to scroll the end screen: the
    harness's own gesture was not taken, whatever the screen's reads gave.

    Args:
        by_bridge: the bridge's own refusal, for what the drag touches (`wda_link.
            bridge_refused`): what the agent left there; else WDA failed it (the rig's).
    """

    def __init__(self, message: str, hint: str = "", by_bridge: bool = False) -> None:
        super().__init__(message, hint=hint)
        self.by_bridge = by_bridge


def _drag(phone: Phone, start: tuple[float, float], end: tuple[float, float]) -> None:
    """The capture's drag, told apart from a read that failed (a phone that does not answer at
    all is the rig's, raised as it is). One WDA could not make (`WdaHiccup`: an event XCTest
    could not synthesize) is made again with a read's patience (`Phone._get`): a pass compares
    each source with the one before, so a drag that moved anyway loses nothing. One the bridge
    refuses is `ScrollRefused` `by_bridge`; one WDA still fails, or fails otherwise, is
    `ScrollRefused` not by it (red team 119: one hiccup on the drag failed an honest finish)."""
    try:
        patiently(lambda: phone.drag(start, end), phone.patience_s, (WdaHiccup,))
    except RIG_DOWN:
        raise
    except DeviceError as exc:
        drag = (f"the harness's own drag scrolling the end screen, from ({start[0]:g}, "
                f"{start[1]:g}) to ({end[0]:g}, {end[1]:g}),")
        if bridge_refused(exc):
            raise ScrollRefused(f"{drag} was refused: {exc}", hint=exc.hint,
                                by_bridge=True) from exc
        raise ScrollRefused(f"{drag} failed at WDA ({exc}, asked for {phone.patience_s:g} s): "
                            "a rig fault, not the screen the agent left", hint=exc.hint) from exc


def capture_evidence(phone: Phone, task_id: str, needs: Iterable[Need] = (),
                     claim: Claim | None = None, held: Held | None = None,
                     seen: bytes | None = None,
                     decided: Callable[[Evidence], bool] | None = None,
                     clock_runs: bool = True) -> Evidence:
    """Read the end state off the phone (`held`, `seen`: see `read_settled`).

    Args:
        decided: given the evidence of the final screen alone, whether scrolling could change
            no check's outcome (`checks.decided_unscrolled`): then a scroll need is not
            captured, and the list is not dragged (1.4 s a drag on a real phone).
        clock_runs: whether the phone's clock runs as a real phone's does (False: flagged
            `clock_still`, phoneshell's simulator).

    Raises:
        DeviceError: the phone stopped answering (a rig failure, not the agent's).
    """
    captured_at = time.time()
    with phone.keeping_reads():
        final_xml, screenshot, settled = read_settled(phone, held, seen)
        foreground = phone.foreground()  # after the screen settled: an app switch may be on
        flags: set[Flag] = set() if settled else {"unsettled"}
        if not clock_runs:
            flags.add("clock_still")
        evidence = Evidence(task_id=task_id, captured_at=captured_at, foreground=foreground,
                            captures=(Capture("final", final_xml, time.time()),), claim=claim,
                            flags=frozenset(flags), screenshot_png=screenshot)
        if not any(need.what == "scroll" for need in needs) or (
                decided is not None and decided(evidence)):
            return evidence
        scrolled = tuple(scroll_captures(phone, final_xml))
    return replace(evidence, captures=evidence.captures + scrolled)
