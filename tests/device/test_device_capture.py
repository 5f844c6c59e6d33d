"""Capture reads the end state without moving it, scrolls only when a check asks, flags doubts."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from phoneshell.checks import Check, decided_unscrolled, needs_of
from phoneshell.device import Phone, capture_evidence, run_steps
from phoneshell.device.capture import Position, scroll_area, scroll_position
from phoneshell.evidence import Claim, Evidence
from phoneshell.grade import grade
from phoneshell.sim import SimServer
from phoneshell.tasks import Step, Task
from phoneshell.tree import PageSource

ANYWHERE = Check.make("element_exists_anywhere", "Developer")


def open_settings(phone: Phone) -> None:
    run_steps(phone, [Step("open_app", "Settings")])


def test_capture_reads_foreground_settled_source_and_screenshot(phone: Phone) -> None:
    open_settings(phone)
    claim = Claim(status="done", answer="x")
    evidence = capture_evidence(phone, "t", (), claim)
    assert evidence.foreground is not None and evidence.foreground.bundle_id == \
        "com.apple.Preferences"
    assert [c.role for c in evidence.captures] == ["final"]
    assert evidence.final is not None and evidence.final.source.find("General")
    assert evidence.screenshot_png is not None and evidence.screenshot_png[:4] == b"\x89PNG"
    assert evidence.claim == claim and evidence.all_flags() == frozenset()


def test_needs_come_from_the_checks_without_repeats() -> None:
    checks = [Check.make("element_exists", "x"), ANYWHERE,
              Check.make("element_exists_anywhere", "y")]
    assert [n.what for n in needs_of(checks)] == ["scroll"]


def test_scroll_captures_find_a_row_below_the_fold(phone: Phone) -> None:
    open_settings(phone)
    task = Task("t", "T", "scroll", checks=(ANYWHERE,))
    plain = capture_evidence(phone, "t")
    assert not grade(task, plain).passed  # Developer is below the fold
    scrolled = capture_evidence(phone, "t", needs_of(task.checks))
    assert len(scrolled.captures) > 2 and scrolled.captures[0].role == "final"
    verdict = grade(task, scrolled)
    assert verdict.passed and "while scrolling" in verdict.results[0].detail
    # the final source was taken before anything moved: Developer is not in it
    assert scrolled.final is not None and not scrolled.final.source.find("Developer")


def capture_deciding(phone: Phone, *checks: Check) -> Evidence:
    return capture_evidence(phone, "t", needs_of(checks),
                            decided=functools.partial(decided_unscrolled, checks))


def test_a_row_the_final_screen_shows_is_not_scrolled_for(sim: SimServer, phone: Phone) -> None:
    open_settings(phone)
    shown = Check.make("element_exists_anywhere", "General")
    before = sim.request_counts()
    evidence = capture_deciding(phone, shown)
    assert [c.role for c in evidence.captures] == ["final"]
    assert "POST /wda/dragfromtoforduration" not in grew(sim, before)
    assert grade(Task("t", "T", "x", checks=(shown,)), evidence).passed


@pytest.mark.parametrize("checks", [
    (ANYWHERE,),  # below the fold: only scrolling finds it
    (Check.make("element_exists_anywhere", "General"), ANYWHERE),  # one shown is not enough
    (Check.make("element_exists_anywhere", "Nowhere at all", negate=True),),  # absence: look
], ids=["below-the-fold", "one-of-two-shown", "negated"])
def test_what_the_final_screen_does_not_decide_is_scrolled_for(
        sim: SimServer, phone: Phone, checks: tuple[Check, ...]) -> None:
    open_settings(phone)
    before = sim.request_counts()
    evidence = capture_deciding(phone, *checks)
    assert "scroll" in [c.role for c in evidence.captures]
    assert grew(sim, before).get("POST /wda/dragfromtoforduration", 0) >= 1
    assert grade(Task("t", "T", "x", checks=checks), evidence).passed


def test_a_screen_with_nothing_to_scroll_still_records_the_pass(phone: Phone) -> None:
    # an app's own screen with no list (the Home Screen is SpringBoard's: never scrolled, and
    # absence on it unproven: tests/device/test_device_capture_overlays.py)
    run_steps(phone, [Step("open_app", "Calculator")])
    evidence = capture_evidence(phone, "t", needs_of([ANYWHERE]))
    assert [c.role for c in evidence.captures] == ["final", "scroll"]
    negated = Task("t", "T", "x", checks=(Check.make("element_exists_anywhere", "Developer",
                                                negate=True),))
    assert grade(negated, evidence).passed


def test_a_cut_off_source_is_flagged_and_absence_fails_closed(sim: SimServer,
                                                              phone: Phone) -> None:
    open_settings(phone)
    sim.set_faults(["truncated-source"])
    evidence = capture_evidence(phone, "t")
    assert "source_truncated" in evidence.all_flags()
    task = Task("t", "T", "x", checks=(Check.make("element_exists", "Model Number", negate=True),))
    result = grade(task, evidence).results[0]
    assert not result.passed and "cut off" in result.detail


def grew(sim: SimServer, before: dict[str, int]) -> dict[str, int]:
    after = sim.request_counts()
    return {k: v - before.get(k, 0) for k, v in after.items()
            if k != "total" and v != before.get(k, 0)}


def test_a_screen_a_look_since_the_last_action_saw_takes_one_screenshot(
        sim: SimServer, phone: Phone) -> None:
    open_settings(phone)
    seen = phone.source()
    before = sim.request_counts()
    evidence = capture_evidence(phone, "t", (), None, held=lambda xml: xml == seen)
    assert grew(sim, before) == {"GET /source": 1, "GET /screenshot": 1}
    assert evidence.final is not None and evidence.final.xml == seen
    assert evidence.screenshot_png is not None and evidence.all_flags() == frozenset()


def test_a_screen_unlike_the_last_look_is_settled_between_two_screenshots(
        sim: SimServer, phone: Phone) -> None:
    open_settings(phone)
    before = sim.request_counts()
    evidence = capture_evidence(phone, "t", (), None, held=lambda xml: False)
    assert grew(sim, before) == {"GET /source": 2, "GET /screenshot": 2}
    assert evidence.all_flags() == frozenset()


def test_a_screenshot_since_the_last_action_stands_for_the_first(sim: SimServer,
                                                                  phone: Phone) -> None:
    open_settings(phone)
    seen = phone.screenshot_png()  # an agent that looks by pictures looked after its last tap
    before = sim.request_counts()
    evidence = capture_evidence(phone, "t", (), None, seen=seen)
    assert grew(sim, before) == {"GET /source": 1, "GET /screenshot": 1}
    assert evidence.final is not None and evidence.final.source.find("General")
    assert evidence.all_flags() == frozenset()


def test_a_screenshot_of_another_screen_proves_nothing(sim: SimServer, phone: Phone) -> None:
    seen = phone.screenshot_png()  # the home screen, before Settings opened
    open_settings(phone)
    before = sim.request_counts()
    evidence = capture_evidence(phone, "t", (), None, seen=seen)
    # its own screenshot disagrees: a second source and screenshot prove the screen settled
    assert grew(sim, before) == {"GET /source": 2, "GET /screenshot": 2}
    assert evidence.final is not None and evidence.final.source.find("General")
    assert evidence.all_flags() == frozenset()


def drags(sim: SimServer, before: dict[str, int]) -> int:
    return grew(sim, before).get("POST /wda/dragfromtoforduration", 0)


@pytest.mark.parametrize(("dump", "kind", "position"), [
    ("settings-root-ios26.2-sim.xml", "CollectionView", Position(pages=2, percent=0)),
    ("safari-start-page-ios26.2-sim.xml", "CollectionView", Position(pages=2, percent=0)),
    ("settings-general-about-ios26.2-sim.xml", "Table", Position(pages=2, percent=0)),
    ("settings-accessibility-motion-ios26.xml", "Table", Position(pages=1, percent=0)),
])
def test_real_dumps_give_the_scroll_view_and_where_it_stands(reference: Path, dump: str,
                                                             kind: str,
                                                             position: Position) -> None:
    xml = (reference / "ios-sources" / dump).read_text()
    page = PageSource.parse(xml)
    # iOS 26 marks Settings' collection view and Safari's start page visible="false" while
    # they fill the screen: a capture that asked would find nothing to scroll there
    area = scroll_area(page)
    assert area is not None and area.short_type == kind
    assert scroll_position(page, area) == position
    # a row an agent named like one (a reminder, a note) is not the indicator
    fake = ('<XCUIElementTypeCell type="XCUIElementTypeCell" value="0%" '
            'name="Vertical scroll bar, 1 page" label="Vertical scroll bar, 1 page" '
            'enabled="true" visible="true" accessible="true" x="0" y="200" width="402" '
            'height="44" index="0" traits=""/>')
    opened = re.search(rf'<XCUIElementType{kind} [^>]*>', xml)
    assert opened is not None
    posed = PageSource.parse(xml[:opened.end()] + fake + xml[opened.end():])
    posed_area = scroll_area(posed)
    assert posed_area is not None and scroll_position(posed, posed_area) == position
    # a source without indicators (an older iOS, a custom view) leaves it to dragging
    bare = PageSource.parse(re.sub(r'name="Vertical scroll bar[^"]*"', 'name=""', xml))
    bare_area = scroll_area(bare)
    assert bare_area is not None and scroll_position(bare, bare_area) is None


def test_a_list_that_fits_one_screen_is_read_not_dragged(sim: SimServer, phone: Phone) -> None:
    run_steps(phone, [Step("open_app", "Books")])
    before = sim.request_counts()
    evidence = capture_evidence(phone, "t", needs_of([ANYWHERE]))
    assert drags(sim, before) == 0
    assert [c.role for c in evidence.captures] == ["final", "scroll"]
    absent = Task("t", "T", "x", checks=(ANYWHERE,))  # Books holds no "Developer"
    assert not grade(absent, evidence).passed
    negated = Task("t", "T", "x", checks=(Check.make("element_exists_anywhere", "Developer",
                                                negate=True),))
    assert grade(negated, evidence).passed


def test_a_pass_stops_at_the_source_that_shows_the_end(sim: SimServer, phone: Phone) -> None:
    open_settings(phone)  # at the top of three screens
    before = sim.request_counts()
    evidence = capture_evidence(phone, "t", needs_of([ANYWHERE]))
    scrolled = [c for c in evidence.captures if c.role == "scroll"]
    # down to the end and no further: no drag to prove nothing moves, no pass back up; each
    # drag half of what the list shows between its bars (fixer AZ), not of its frame, which
    # spans the screen under them as on a phone (red team 124): a drag by the frame's may
    # pass over more than shows, and a row never read is absent from the evidence
    assert drags(sim, before) == len(scrolled) == 4
    last = scrolled[-1].source
    area = scroll_area(last)
    assert area is not None and scroll_position(last, area) == Position(pages=3, percent=100)
    assert grade(Task("t", "T", "x", checks=(ANYWHERE,)), evidence).passed


def test_a_list_left_at_its_end_is_scrolled_back_up_only(sim: SimServer, phone: Phone) -> None:
    open_settings(phone)
    for _ in range(8):  # the agent scrolled to the bottom
        phone.drag((200, 600), (200, 200))
    page = phone.page()
    area = scroll_area(page)
    assert area is not None and scroll_position(page, area) == Position(pages=3, percent=100)
    assert not page.find("General")
    before = sim.request_counts()
    evidence = capture_evidence(phone, "t", needs_of([Check.make("element_exists_anywhere",
                                                                 "General")]))
    assert drags(sim, before) == 4  # half of what the list shows between its bars a drag
    task = Task("t", "T", "x", checks=(Check.make("element_exists_anywhere", "General"),))
    verdict = grade(task, evidence)
    assert verdict.passed and "while scrolling" in verdict.results[0].detail
    missing = Task("t", "T", "x", checks=(Check.make("element_exists_anywhere", "Nowhere"),))
    assert not grade(missing, evidence).passed
