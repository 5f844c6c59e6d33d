"""The checks replay typing from the audit log exactly as the field took it: an agent types
through the real bridge into the simulator (facebook-wda, raw W3C posts), and the text replayed
from the log the bridge wrote (`keystrokes.editings`) is the text the field shows, with the
red team's attacks (red33) failing their checks:

* two W3C key sources play side by side by time, and the bridge logs them in that order (the
  simulator's own planner, `typed_keys.key_source` / `in_time_order`), Returns included;
* a Return in a field of one line sends its text and ends its focus: what follows in the same
  keystrokes is not that field's (the simulator drops it unless a submit focused another field);
* a delete removes a whole composed character (an emoji of several joined, a flag, a skin tone).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
import wda
from bridge_tests.bridge_rig import Rig, runner_bridge

from phoneshell.audit import actions
from phoneshell.checks import Check, grade_check
from phoneshell.checks.keystrokes import editings
from phoneshell.evidence import Evidence
from phoneshell.sim import SimServer
from phoneshell.typed_keys import composed, first_composed, typed

SETTINGS = "com.apple.Preferences"
FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"  # five code points, one character
FLAG = "\U0001F1EB\U0001F1F7"
THUMB = "\U0001F44D\U0001F3FD"  # a thumb with a skin tone


@pytest.fixture
def rig(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    with runner_bridge(sim, tmp_path) as found:
        yield found


def _search(rig: Rig) -> wda.Session:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    session(className="SearchField").get(timeout=5).click()
    return session


def _shown(session: wda.Session) -> str:
    """The search field's text ("" when it shows its placeholder, as WDA reads an empty one)."""
    value = str(session(className="SearchField").get(timeout=2).value)
    return "" if value == "Search" else value


def _replayed(rig: Rig) -> tuple[str, list[str]]:
    """What the log says Settings' search field holds, and every text it sent."""
    found = editings(actions(rig.events("R")))
    assert found, "the log holds no editing"
    return found[-1].text, [s.text for e in found for s in e.states if s.sent]


def _grade(rig: Rig, text: str, **options: object) -> tuple[bool, str]:
    evidence = Evidence("t", 1.0, events=tuple(rig.events("R")), audited=True)
    result = grade_check(Check.make("typed_into", text=text, app=SETTINGS,  # type: ignore[arg-type]
                                    into="Search", **options), evidence)
    return result.passed, result.detail


def _keys(text: str, pause_ms: float = 0) -> list[dict[str, object]]:
    steps: list[dict[str, object]] = [{"type": "pause", "duration": pause_ms}] if pause_ms else []
    for char in text:
        steps += [{"type": "keyDown", "value": char}, {"type": "keyUp", "value": char}]
    return steps


def _post(session: wda.Session, *sources: list[dict[str, object]]) -> None:
    body = {"actions": [{"type": "key", "id": f"keys{n}", "actions": steps}
                        for n, steps in enumerate(sources)]}
    session.http.post(f"/session/{session.session_id}/actions", data=body)


# -- F1: two W3C key sources ------------------------------------------------------------------

def test_w3c_sources_are_logged_in_the_order_the_phone_types_them(rig):
    """The source listed first waits, then deletes what the second typed meanwhile: the field
    is empty and the log says so (in list order it read 'General')."""
    session = _search(rig)
    _post(session, _keys("\ue003" * 7, pause_ms=100), _keys("General"))
    assert _shown(session) == ""
    assert _replayed(rig)[0] == ""
    passed, detail = _grade(rig, "General")
    assert not passed, detail


def test_a_w3c_return_from_another_source_sends_what_was_typed_by_then(rig):
    """"Wi" at 0 ms, Return at 50 ms from a second source, "Fi" at 100 ms: the phone sends
    "Wi" and the field, no longer focused, never gets "Fi"."""
    session = _search(rig)
    _post(session, _keys("Wi") + _keys("Fi", pause_ms=100), _keys("\ue006", pause_ms=50))
    assert _shown(session) == "Wi"
    assert _replayed(rig) == ("Wi", ["Wi"])
    passed, detail = _grade(rig, "WiFi")
    assert not passed, detail


# -- F2, F3: typing past a Return -------------------------------------------------------------

@pytest.mark.parametrize(("keys", "submitted"), [
    ("zq\nGeneral", False),  # red33 F2: the words after the Return never reach the field
    ("zq\nGeneral\n", True),  # red33 F3: only "zq" was sent
])
def test_text_after_a_return_is_not_the_fields(rig, keys, submitted):
    session = _search(rig)
    session.send_keys(keys)
    assert _shown(session) == "zq"
    assert _replayed(rig) == ("zq", ["zq"])
    passed, detail = _grade(rig, "General", submitted=submitted)
    assert not passed, detail


def test_an_honest_search_sent_with_return_passes_and_typing_on_in_a_new_focus_counts(rig):
    """Return sends the query; the agent taps the field again and types on: both count, the
    second send with the text the field kept (test_checks_typing_refocus.py)."""
    session = _search(rig)
    session.send_keys("Wi-Fi\n")
    assert _grade(rig, "Wi-Fi", submitted=True)[0]
    session(className="SearchField").get(timeout=2).click()
    session.send_keys(" Calling\n")
    assert _shown(session) == "Wi-Fi Calling"
    assert _replayed(rig)[1] == ["Wi-Fi", "Wi-Fi Calling"]
    assert _grade(rig, "Calling", submitted=True)[0]


def test_the_keyboards_return_ends_the_focus_too(rig):
    """The keyboard's own Return key sends as a typed one does: the field holds what it sent,
    with no Return in it (a field of one line never holds one)."""
    session = _search(rig)
    session.send_keys("zq")
    keyboard = session(className="Keyboard").get(timeout=2)
    returns = [k for k in session(className="Button").find_elements()
               if k.label.lower() in ("search", "return")]
    assert keyboard and returns, "the keyboard shows no Return key"
    returns[0].click()
    assert _replayed(rig) == ("zq", ["zq"])
    assert _shown(session) == "zq"


# -- F4: delete removes a composed character --------------------------------------------------

@pytest.mark.parametrize("char", [FAMILY, FLAG, THUMB, "e\u0301"])
def test_delete_removes_a_whole_composed_character(rig, char):
    session = _search(rig)
    session.send_keys("Generalxx" + char + "\b\x7f\b")  # the character, then "xx"
    assert _shown(session) == "General"
    assert _replayed(rig)[0] == "General"


def test_the_composed_delete_attack_fails(rig):
    """Five deletes after a family emoji take it and four letters, on a phone as here."""
    session = _search(rig)
    session.send_keys("General" + FAMILY + "\b" * 5)
    assert _shown(session) == "Gen"
    passed, detail = _grade(rig, "General")
    assert not passed, detail


def test_a_w3c_delete_after_an_emoji_key_removes_it_whole(rig):
    session = _search(rig)
    _post(session, _keys("Wi") + [{"type": "keyDown", "value": FAMILY},
                                  {"type": "keyUp", "value": FAMILY}] + _keys("\ue003"))
    assert _shown(session) == _replayed(rig)[0] == "Wi"


# -- the one segmentation ---------------------------------------------------------------------

def test_typing_a_character_at_a_time_composes_as_reading_the_whole_text():
    """`typed` (which both the simulator and the replay apply) deletes what cutting the whole
    text into composed characters (`first_composed`, one after another) says is the last one,
    whether the text came at once or piece by piece, and however long the field was before."""
    alphabet = ["a", "b", "\u0301", "\u200d", "\U0001F1EB", "\U0001F1F7", "\U0001F3FD", "\r",
                "\n", "\U0001F468", "\ufe0f", "\U000E0067", "\b", "\x7f"]
    rng = random.Random(7)
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        whole, rest = [], text
        while rest:
            whole.append(first_composed(rest))
            rest = rest[len(whole[-1]):]
        assert composed(text) == whole
        expected = ""
        for char in text:  # one key at a time, a delete taking the last of `composed`
            expected = "".join(composed(expected)[:-1]) if char in "\b\x7f" else \
                expected + ("\n" if char == "\r" else char)
        cut = rng.randint(0, len(text))
        assert typed(typed("", text[:cut]), text[cut:]) == expected, repr(text)
