"""A count that grew by an item the agent brought back or moved in is not grown by one made
(red team 72): Notes' Recover (in a row's menu, Recover All, a deleted note's alert), its Move,
and Safari's Recently Closed Tabs fail `count_increased`, by the audit log alone; an honest
making of the note passes, and without a whole log a count of notes cannot pass."""

from __future__ import annotations

from dataclasses import replace

import pytest
from audit_logs import SAFARI, act, log

from phoneshell.audit import Target
from phoneshell.checks import Check, grade_check
from phoneshell.evidence import Evidence, ProbeReading

NOTES = "com.apple.mobilenotes"
TITLE = "phoneshell benchmark"
BACK = "a note brought back from Recently Deleted counts as one made: the count cannot tell " \
       "them apart"


def on(kind: str, label: str, page: str, name: str = "") -> Target:
    return Target(type=f"XCUIElementType{kind}", label=label, name=name or label, page=page)


def honest(seq: int = 1) -> list:  # type: ignore[type-arg]
    """Folders > Recently Deleted looked at and left, then a new note typed: no way back."""
    return [act(seq, "tap", NOTES, NOTES, target=on("Cell", "Recently Deleted, 1", "Folders",
                                                    "Recently Deleted")),
            act(seq + 1, "tap", NOTES, NOTES, target=on("Button", "Folders", "Recently Deleted",
                                                        "BackButton")),
            act(seq + 2, "tap", NOTES, NOTES, target=on("Button", "New Note", "Notes")),
            act(seq + 3, "type", NOTES, NOTES, target=on("TextView", "Note", "Note"),
                text=TITLE, via="keys")]


def counted(evidence: Evidence, probe: str = "notes_titled", text: str = TITLE,
            whole: str = "notes") -> tuple[bool, str]:
    reading = ProbeReading(name=probe, arg=text, before=1, after=2, whole=whole)
    wholes = (ProbeReading(name=whole, before=4, after=5),) if whole else ()
    result = grade_check(Check.make("count_increased", text, probe=probe),
                         replace(evidence, probes=(reading, *wholes)))
    return result.passed, result.detail


def test_a_note_made_passes() -> None:
    passed, detail = counted(log(*honest()))
    assert passed, detail


def test_a_note_recovered_from_its_menu_fails() -> None:
    evidence = log(act(1, "tap", NOTES, NOTES, target=on("Cell", TITLE, "Recently Deleted"),
                       gesture="touch_and_hold", duration=1.0),
                   act(2, "tap", NOTES, NOTES, target=on("Button", "Recover", "Recently Deleted")),
                   *honest(3))
    passed, detail = counted(evidence)
    assert not passed
    assert detail == (f"notes_titled({TITLE!r}): 1 before the agent, 2 after (change +1, wanted "
                      f"+1); but the agent tapped 'Recover' (#2): {BACK}")


@pytest.mark.parametrize("label", ["Recover All", "Recover Note", "Recover 2 Notes"])
def test_every_recover_fails(label: str) -> None:
    evidence = log(act(1, "tap", NOTES, NOTES, target=on("Button", label, "Recently Deleted")))
    passed, detail = counted(evidence)
    assert not passed and detail.endswith(f"tapped {label!r} (#1): {BACK}"), detail


def test_the_alert_of_a_deleted_note_opened_fails() -> None:
    # WDA's alert route presses a button by name: the log names it in params, no target
    evidence = log(act(1, "tap", NOTES, NOTES, gesture="alert_accept", button="Recover"))
    passed, detail = counted(evidence)
    assert not passed and BACK in detail, detail


@pytest.mark.parametrize("label", ["Move", "Move All", "Move Note"])
def test_a_note_moved_in_fails(label: str) -> None:
    evidence = log(act(1, "tap", NOTES, NOTES, target=on("Button", label, "Notes")))
    passed, detail = counted(evidence)
    assert not passed and "a note moved in from another folder" in detail, detail


def test_every_count_of_notes_is_guarded() -> None:
    evidence = log(act(1, "tap", NOTES, NOTES, target=on("Button", "Recover", "Recently Deleted")))
    assert not counted(evidence, "notes_containing", "quick brown fox")[0]
    assert not counted(evidence, "notes", "", whole="")[0]


def test_a_recover_wda_failed_before_acting_is_not_one() -> None:
    (intent, outcome) = act(1, "tap", NOTES, NOTES,
                            target=on("Button", "Recover", "Recently Deleted"))
    failed = replace(log(), events=(intent, outcome.model_copy(update={"ok": False,
                                                                        "error": "no such"})))
    passed, detail = counted(failed)
    assert passed, detail


def test_a_recover_in_another_app_is_not_one() -> None:
    evidence = log(act(1, "tap", SAFARI, SAFARI, target=on("Button", "Recover", "Tabs")))
    assert counted(evidence)[0]


def test_a_tap_in_notes_the_bridge_could_not_name_fails_closed() -> None:
    passed, detail = counted(log(act(1, "tap", NOTES, NOTES, x=100, y=200), *honest(2)))
    assert not passed
    assert detail.endswith("#1 tap in com.apple.mobilenotes has no element resolved, so whether "
                           "it brought one back (Recover, Move) cannot be told"), detail


@pytest.mark.parametrize("audited, flags, why", [
    (False, frozenset(), "no audit log was recorded"),
    (True, frozenset({"audit_torn"}), "the audit log ends in a torn line"),
])
def test_a_count_of_notes_needs_a_whole_log(audited: bool, flags: frozenset[str],
                                            why: str) -> None:
    passed, detail = counted(log(*honest(), audited=audited, flags=flags))
    assert not passed and "whether the agent brought one back cannot be told" in detail
    assert why in detail


def test_a_count_with_no_way_back_needs_no_log() -> None:
    # alarms have no bin: what is deleted is gone, so the numbers alone decide, as before
    passed, detail = counted(log(audited=False), "alarms", "7:30", whole="alarms")
    assert passed, detail


def test_a_tab_reopened_from_recently_closed_fails() -> None:
    evidence = log(act(1, "tap", SAFARI, SAFARI,
                       target=on("Button", "Example Domain", "Recently Closed Tabs")))
    passed, detail = counted(evidence, "safari_tabs", "", whole="")
    assert not passed and "a tab reopened from Recently Closed Tabs" in detail, detail


def test_only_growth_is_judged() -> None:
    # a search's count that stayed is not spoiled by a Recover (the rows judge that)
    evidence = log(act(1, "tap", NOTES, NOTES, target=on("Button", "Recover", "Recently Deleted")))
    reading = ProbeReading(name="notes_titled", arg=TITLE, before=1, after=1)
    result = grade_check(Check.make("count_unchanged", TITLE, probe="notes_titled"),
                         replace(evidence, probes=(reading,)))
    assert result.passed, result.detail


# -- red team 83: what the log says pressed nothing, and what it cannot name --------------------

def test_a_keyboard_dismiss_that_pressed_nothing_is_no_unknown_touch() -> None:
    # the bridge logs a dismiss whose names press no key (none up) with `taps` 0
    nothing = act(5, "tap", NOTES, NOTES, gesture="keyboard_dismiss", taps=0)
    passed, detail = counted(log(*honest(), nothing))
    assert passed, detail


def test_a_keyboard_dismiss_logged_without_saying_so_fails_closed() -> None:
    # a log written before the bridge said so: it may have pressed a key it could not name
    passed, detail = counted(log(*honest(), act(5, "tap", NOTES, NOTES,
                                                gesture="keyboard_dismiss")))
    assert not passed and detail.endswith(
        "#5 tap in com.apple.mobilenotes has no element resolved, so whether it brought one "
        "back (Recover, Move) cannot be told"), detail


ROW = on("Cell", TITLE, "Recently Deleted")
SLIDE = dict(from_x=201, from_y=217.5, to_x=185, to_y=322, gesture="actions")


@pytest.mark.parametrize("held", [
    dict(SLIDE, hold=0.928, duration=1.2),  # a touch chain held 928 ms before it moved
    dict(SLIDE, duration=1.2),  # a log from before `hold`: its whole time, at most
    dict(SLIDE, gesture="drag", duration=0.9),  # dragfromtoforduration presses first
    {"x": 201, "y": 217.5, "gesture": "slide", "via": "drag", "duration": 0.9},  # pressed too
], ids=["chain", "old_chain", "drag", "slide"])
def test_a_slide_held_until_a_menu_opened_fails_closed(held: dict[str, object]) -> None:
    kind = "tap" if held["gesture"] == "slide" else "swipe"
    passed, detail = counted(log(act(1, kind, NOTES, NOTES, target=ROW, **held), *honest(2)))
    assert not passed and "#1 " in detail and " s before it slid (a context menu opens" in detail
    assert detail.endswith("so whether it brought one back (Recover, Move) cannot be told"), \
        detail


@pytest.mark.parametrize("quick", [
    dict(SLIDE, hold=0.028, duration=0.3),  # moved at once
    dict(SLIDE, duration=0.3),  # a whole touch shorter than a long press
    dict(SLIDE, gesture="scroll", direction="down"),  # WDA's scroll: XCTest's quick drags
], ids=["chain", "short", "scroll"])
def test_a_quick_slide_is_no_press(quick: dict[str, object]) -> None:
    passed, detail = counted(log(act(1, "swipe", NOTES, NOTES, target=ROW, **quick), *honest(2)))
    assert passed, detail


def test_a_held_slide_on_what_takes_slides_is_no_press() -> None:
    # a held text view moves its caret: no menu opens under the finger
    text = on("TextView", "Note", "Note")
    passed, detail = counted(log(*honest(), act(5, "swipe", NOTES, NOTES, target=text,
                                                **dict(SLIDE, hold=0.9))))
    assert passed, detail
