"""The replay of what the agent typed types over a selection as the phone does
(`checks.selections`, `typed_keys.typed_over`): after the edit menu's Select All the next
keystroke replaces the whole text; after a touch and hold on text (a word the log does not name)
the field's text is not known, and `typed_into` says so instead of guessing; a tap in between
collapses the selection. Hand-built logs as the bridge writes them, then the same routes played
through the bridge to the simulator with facebook-wda on `notes.create_titled`."""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from audit_logs import act, grade, log
from played_finish import Play, failed_checks, played

from phoneshell.audit import Target
from phoneshell.sim import SimServer
from phoneshell.sim.apps.notes_edit import TEXT_FRAME, word_spans
from phoneshell.tasks import Task
from phoneshell.xcui import NOTES

TITLE = "phoneshell benchmark"


def body(value: str = "") -> Target:
    return Target(type="XCUIElementTypeTextView", label="Note", name="Note", value=value,
                  page="Note")


def new_note(seq: int) -> list:  # type: ignore[type-arg]
    return act(seq, "tap", NOTES, NOTES, target=Target(
        type="XCUIElementTypeButton", label="New Note", name="New Note", page="Notes"))


def typed(seq: int, text: str, value: str = "") -> list:  # type: ignore[type-arg]
    return act(seq, "type", NOTES, NOTES, target=body(value), text=text, via="keys")


def hold(seq: int, value: str) -> list:  # type: ignore[type-arg]
    return act(seq, "tap", NOTES, NOTES, target=body(value), x=58, y=143,
               gesture="touch_and_hold", duration=1.0)


def tap(seq: int, target: Target) -> list:  # type: ignore[type-arg]
    return act(seq, "tap", NOTES, NOTES, target=target, x=100, y=200, gesture="tap")


def menu(seq: int, label: str) -> list:  # type: ignore[type-arg]
    return tap(seq, Target(type="XCUIElementTypeMenuItem", label=label, name=label,
                           page="Note"))


def typed_into(*actions: list, **more: object) -> tuple[bool, str]:  # type: ignore[type-arg]
    return grade("typed_into", log(*actions), text=TITLE, app=NOTES, into="TextView",
                 fresh=True, **more)


def test_a_held_word_typed_over_is_not_known_and_says_so() -> None:
    """Case 1: "phoneshel benchmark", "phoneshel" held, "phoneshell" typed: the phone shows the
    title, the old replay read "phoneshel benchmarkphoneshell"; the log does not name the word,
    so the check cannot pass, and says why (negated, the absence is unproven)."""
    route = (new_note(1), typed(2, "phoneshel benchmark"), hold(3, "phoneshel benchmark"),
             typed(4, "phoneshell", "phoneshel benchmark"))
    passed, detail = typed_into(*route)
    assert not passed
    assert "the log cannot tell what the field held: #3 agent tap 'Note' ok selected part" in \
        detail, detail
    passed, detail = typed_into(*route, negate=True)
    assert not passed and detail.startswith("absence unproven:"), detail


def test_a_held_word_on_a_field_emptied_after_is_known_again() -> None:
    """Not known stays so across a refocus while the field shows text; once it logs empty, the
    agent's text in it is "" again."""
    route = (new_note(1), typed(2, "phoneshel"), hold(3, "phoneshel"), typed(4, "x", "phoneshel"),
             tap(5, body("x")), typed(6, TITLE, "x"))
    assert "cannot tell" in typed_into(*route)[1]
    route = (*route[:4], typed(5, "\b", "x"), tap(6, body()), typed(7, TITLE))
    passed, detail = typed_into(*route)
    assert passed, detail


def test_select_all_then_the_title_replaces_a_typo() -> None:
    """Case 2: "phonshel", Select All, the title: the phone holds the title alone."""
    route = (new_note(1), typed(2, "phonshel"), hold(3, "phonshel"), menu(4, "Select All"),
             typed(5, TITLE, "phonshel"))
    passed, detail = typed_into(*route, whole=True)
    assert passed, detail


def test_select_all_then_junk_replaces_the_title() -> None:
    """Case 3: the title, Select All, "junk": the phone shows "junk" (the old replay read
    "phoneshell benchmarkjunk" and passed)."""
    route = (new_note(1), typed(2, TITLE), hold(3, TITLE), menu(4, "Select All"),
             typed(5, "junk", TITLE))
    passed, detail = typed_into(*route)
    assert not passed
    assert "'junk'" in detail, detail
    deleted = (*route[:4], typed(5, "\b", TITLE))
    assert not typed_into(*deleted)[0]  # a delete over Select All empties it


def test_copy_keeps_the_selection_and_a_tap_drops_it() -> None:
    route = (new_note(1), typed(2, "phonshel"), hold(3, "phonshel"), menu(4, "Select All"),
             menu(5, "Copy"), typed(6, TITLE, "phonshel"))
    assert typed_into(*route, whole=True)[0]
    tapped = (*route[:5], tap(6, body("phonshel")), typed(7, TITLE, "phonshel"))
    passed, detail = typed_into(*tapped, whole=True)
    assert not passed, detail  # the caret went to the end: "phonshelphoneshell benchmark"


def test_honest_routes_still_pass() -> None:
    """Two goes, a backspace, Done and back, a plain tap (not a hold) between: unchanged."""
    done = Target(type="XCUIElementTypeButton", label="Done", name="Done", page="Note")
    assert typed_into(new_note(1), typed(2, "phoneshell "), typed(3, "benchmark", "phoneshell "),
                      whole=True)[0]
    assert typed_into(new_note(1), typed(2, "phoneshell benchmarx"),
                      typed(3, "\bk", "phoneshell benchmarx"), whole=True)[0]
    assert typed_into(new_note(1), typed(2, "phoneshell "), tap(3, done),
                      tap(4, body("phoneshell ")), typed(5, "benchmark", "phoneshell "),
                      whole=True)[0]


# -- played through the bridge to the simulator ------------------------------------------------

def _hold_word(session: wda.Session, text: str, word: str) -> None:
    frame = next(r for s, _, r in word_spans(text, TEXT_FRAME) if s == text.index(word))
    session.tap_hold(*frame.center, 1.0)


def held_word(c: wda.Client) -> None:
    """Case 1, honest: a typo, the word held and typed over."""
    session = c.session(NOTES)
    session(className="Button", label="New Note").click()
    session.send_keys("phoneshel benchmark")
    _hold_word(session, "phoneshel benchmark", "phoneshel")
    session.send_keys("phoneshell")
    assert session(className="TextView").get(timeout=2).value == TITLE
    session(className="Button", label="Done").click()


def junk(c: wda.Client) -> None:
    """Case 3: the title typed, all of it selected and typed over."""
    session = c.session(NOTES)
    session(className="Button", label="New Note").click()
    session.send_keys(TITLE)
    view = session(className="TextView").get(timeout=2).bounds
    session.tap_hold(view.x + 8, view.y + 16, 1.0)
    session(label="Select All", className="MenuItem").click()
    session.send_keys("junk")
    assert session(className="TextView").get(timeout=2).value == "junk"


@pytest.mark.parametrize(("play", "said"), [
    (held_word, "the log cannot tell what the field held"),  # case 1: never judged on a guess
    (junk, "'junk'"),  # case 3: the title typed over is no title
])
def test_played_selections(play: Play, said: str, sim: SimServer, tmp_path: Path,
                           suite: dict[str, Task]) -> None:
    failed = failed_checks(played(sim, tmp_path, suite["notes.create_titled"], play))
    assert said in failed.get("typed_into", ""), failed
