"""Capture an attempt's end state as evidence: foreground app, settled page source, screenshot, and
whatever extra the task's checks declared they need (sources while scrolling, for example).

Everything is read through session-free routes. Capture reads; the only thing it does to the
phone is scroll, and only when a check asked for it, after the final source is safely taken.
The screen counts as settled when the screenshots taken before and after the source agree: a
real phone takes as long for a screenshot whatever the screen holds, while a source grows with
it (1.27 s at depth 25), so settling is waited for on screenshots, not on repeated sources. Or
when the source shows what a read made since the last action showed (`held`, from the bridge):
the screen held still from that read to this one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from phoneshell.checks import CHECKS, Check, Need
from phoneshell.device.input_probe import CHANGED_FRACTION, screen_difference
from phoneshell.device.phone import Phone, wait_until
from phoneshell.evidence import Capture, Claim, Evidence
from phoneshell.records import Flag
from phoneshell.tree import PageSource

SCROLL_LIMIT = 8
"""Drags per direction when capturing a list; long enough for a few screens of rows."""
SCROLLABLE = ("XCUIElementTypeTable", "XCUIElementTypeCollectionView",
              "XCUIElementTypeScrollView", "XCUIElementTypeWebView")


def needs_of(checks: Iterable[Check]) -> tuple[Need, ...]:
    """Every extra capture the checks declared, without repeats, in check order."""
    found: list[Need] = []
    for check in checks:
        for need in CHECKS.lookup(check.kind).needs(check):
            if need not in found:
                found.append(need)
    return tuple(found)


Held = Callable[[str], bool]
"""Whether a page source shows the screen a read made since the last action showed (the
bridge's `shows`, with the mark it took before capture)."""


def read_settled(phone: Phone, held: Held | None = None) -> tuple[str, bytes, bool]:
    """Read the page source between two screenshots until the screenshots agree (within the
    share of the screen a ticking clock may change) and the source is whole; return the last
    source, the last screenshot and whether they did. A source WDA cut off never counts, so a
    cut-off source is kept only when no whole one came before the deadline.

    With `held`: a whole source that shows what a read since the last action showed is settled
    already (the screen held still from that read to this one), and one screenshot after it is
    the picture; any other goes on as above.
    """
    if held is not None:
        phone.forget()
        source = phone.source()
        if phone.page().complete and held(source):
            return source, phone.screenshot_png(), True
    shots = [phone.screenshot_png()]
    sources: list[str] = []

    def agreed() -> bool:
        phone.forget()
        sources.append(phone.source())
        shots.append(phone.screenshot_png())
        return (screen_difference(shots[-2], shots[-1]) <= CHANGED_FRACTION
                and phone.page().complete)

    # As long as a step's effect may take to show: the phone's animations, not ours.
    settled = wait_until(agreed, phone.effect_timeout_s, interval_s=0.1)
    return sources[-1], shots[-1], settled


def _scroll_area(page: PageSource) -> tuple[float, float, float, float] | None:
    """The largest on-screen scrollable container (x, y, width, height), if any."""
    areas = [e for e in page.on_screen() if e.type in SCROLLABLE and e.height > 100]
    if not areas:
        return None
    biggest = max(areas, key=lambda e: e.width * e.height)
    return biggest.x, biggest.y, biggest.width, biggest.height


def scroll_captures(phone: Phone, final_xml: str) -> list[Capture]:
    """Scroll the final screen down to its end, then up to its top, keeping each new source.

    A screen with nothing to scroll gets one more read, so the evidence shows the pass was made.
    """
    area = _scroll_area(PageSource.parse(final_xml))
    if area is None:  # the final source, kept: nothing has moved since
        return [Capture("scroll", phone.source(), time.time())]
    x, y, width, height = area
    middle = x + width / 2
    low, high = y + height * 0.75, y + height * 0.25
    captures: list[Capture] = []
    for start, end in (((middle, low), (middle, high)), ((middle, high), (middle, low))):
        previous = final_xml if not captures else captures[-1].xml
        for _ in range(SCROLL_LIMIT):
            phone.drag(start, end)
            xml = phone.source()
            if xml == previous:
                break
            captures.append(Capture("scroll", xml, time.time()))
            previous = xml
    return captures or [Capture("scroll", phone.source(), time.time())]


def capture_evidence(phone: Phone, task_id: str, needs: Iterable[Need] = (),
                     claim: Claim | None = None, held: Held | None = None) -> Evidence:
    """Read the end state off the phone (`held`: see `read_settled`).

    Raises:
        DeviceError: the phone stopped answering (a rig failure, not the agent's).
    """
    captured_at = time.time()
    with phone.keeping_reads():
        final_xml, screenshot, settled = read_settled(phone, held)
        foreground = phone.foreground()  # after the screen settled: an app switch may be on
        captures = [Capture("final", final_xml, time.time())]
        flags: set[Flag] = set() if settled else {"unsettled"}
        for need in needs:
            if need.what == "scroll":
                captures.extend(scroll_captures(phone, final_xml))
    return Evidence(task_id=task_id, captured_at=captured_at, foreground=foreground,
                    captures=tuple(captures), claim=claim, flags=frozenset(flags),
                    screenshot_png=screenshot)
