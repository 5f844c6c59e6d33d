"""Capture reads the end state without moving it, scrolls only when a check asks, flags doubts."""

from __future__ import annotations

from phoneshell.checks import Check
from phoneshell.device import Phone, capture_evidence, needs_of, run_steps
from phoneshell.evidence import Claim
from phoneshell.grade import grade
from phoneshell.sim import SimServer
from phoneshell.tasks import Step, Task

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


def test_a_screen_with_nothing_to_scroll_still_records_the_pass(phone: Phone) -> None:
    evidence = capture_evidence(phone, "t", needs_of([ANYWHERE]))  # the home screen
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
