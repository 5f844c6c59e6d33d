"""A field keeps what the agent typed across a refocus, in the checks' replay as on the phone:
an agent types through the real bridge into the simulator (facebook-wda) in two parts, tapping
the field between (red35: `two_tapfield`) or sending the first part with Return and then tapping
the field (`ret_then_tap`, with the keyboard's keys; `ret_then_keys`, keys refused while the
keyboard is down, then the field tapped); the checks, reading the log the bridge wrote, credit
the whole text. Only what the log shows the field still holding is carried: a field the app
cleared or replaced (Settings' Cancel, Safari's loaded page), or one showing its placeholder,
starts empty, so a hostile agent is never credited with text the phone did not hold.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import wda
from bridge_tests.bridge_rig import Rig, runner_bridge

from phoneshell.audit import actions
from phoneshell.checks import Check, grade_check
from phoneshell.checks.keystrokes import editings
from phoneshell.evidence import Evidence
from phoneshell.records import AuditEvent
from phoneshell.sim import SimServer

SETTINGS, MAPS, SAFARI = "com.apple.Preferences", "com.apple.Maps", "com.apple.mobilesafari"
ADDRESS = {"className": "TextField", "name": "TabBarItemTitle"}


@pytest.fixture
def rig(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    with runner_bridge(sim, tmp_path) as found:
        yield found


def _open(rig: Rig, app: str, field: dict[str, str]) -> tuple[wda.Session, wda.Selector]:
    session = wda.Client(rig.bridge.url).session(app)
    selector = session(**field)
    selector.get(timeout=5).click()
    return session, selector


def _tap_keys(session: wda.Session, text: str) -> None:
    """Type `text` on the on-screen keyboard, a key at a time (lower-case letters, space, and
    what the numbers layer shows: its "more" key goes there and back)."""
    for char in text:
        key = session(className="Key", name="space" if char == " " else char)
        if key.exists:
            key.get(timeout=2).click()
            continue
        session(className="Key", name="more").get(timeout=2).click()
        key.get(timeout=2).click()
        session(className="Key", name="more").get(timeout=2).click()


def _return_key(session: wda.Session) -> None:
    keys = [k for k in session(className="Button").find_elements()
            if k.label.lower() in ("search", "go", "return")]
    assert keys, "the keyboard shows no Return key"
    keys[-1].click()


def _type(style: str, session: wda.Session, field: wda.Selector, first: str, rest: str) -> None:
    """Type `first` then `rest` into the focused field as the red team's honest agent does."""
    if style == "two_tapfield":
        session.send_keys(first)
        field.get(timeout=2).click()
        session.send_keys(rest)
    elif style == "ret_then_tap":
        session.send_keys(first + "\n")
        field.get(timeout=2).click()
        _tap_keys(session, rest)
    else:  # ret_then_keys: the keys after the Return find no keyboard; the field tapped, again
        session.send_keys(first + "\n")
        with pytest.raises(wda.WDAError):
            session.send_keys(rest)
        field.get(timeout=2).click()
        session.send_keys(rest)


def _grade(events: list[AuditEvent], kind: str, text: str | None = None,
           **options: object) -> tuple[bool, str]:
    evidence = Evidence("t", 1.0, events=tuple(events), audited=True)
    result = grade_check(Check.make(kind, text, **options), evidence)  # type: ignore[arg-type]
    return result.passed, result.detail


STYLES = ["two_tapfield", "ret_then_tap", "ret_then_keys"]


# -- honest typing in two parts passes --------------------------------------------------------

@pytest.mark.slow  # 2.6 s measured: the README's command stays quick
@pytest.mark.parametrize("style", STYLES)
def test_settings_search_typed_in_two_parts_opens_its_result(rig, style):
    session, field = _open(rig, SETTINGS, {"className": "SearchField"})
    _type(style, session, field, "Sto", "rage")
    assert field.get(timeout=2).value == "Storage"
    session(className="Button", name="iPhone Storage").get(timeout=2).click()
    passed, detail = _grade(rig.events("R"), "opened_from_search", "Storage",
                            result="iPhone Storage", app=SETTINGS, into="Search")
    assert passed, detail


@pytest.mark.slow  # 2.4 s measured: the README's command stays quick
@pytest.mark.parametrize("style", STYLES)
def test_maps_search_typed_in_two_parts_is_typed_into(rig, style):
    session, field = _open(rig, MAPS, {"className": "SearchField"})
    _type(style, session, field, "Eiffel Tow", "er")
    assert field.get(timeout=2).value == "Eiffel Tower"
    passed, detail = _grade(rig.events("R"), "typed_into", "Eiffel Tower", app=MAPS,
                            into="Search")
    assert passed, detail


def test_safari_address_typed_in_two_parts_around_a_tap_loads_the_page(rig):
    session, field = _open(rig, SAFARI, ADDRESS)
    _type("two_tapfield", session, field, "examp", "le.com\n")
    assert session(label="Example Domain").get(timeout=2)
    passed, detail = _grade(rig.events("R"), "visited", url="example.com")
    assert passed, detail


# -- nothing the phone did not hold is carried ------------------------------------------------

@pytest.mark.slow  # 2.5 s measured: the README's command stays quick
@pytest.mark.parametrize("style", ["ret_then_tap", "ret_then_keys"])
def test_safari_address_after_its_return_holds_the_loaded_page_not_the_text(rig, style):
    """Return loads the first part; the address then shows that page, and typing replaces it:
    the phone loads 'le.com', and the log's replay says so (carried, it read example.com)."""
    session, field = _open(rig, SAFARI, ADDRESS)
    _type(style, session, field, "examp", "le.com")
    if style == "ret_then_tap":
        _return_key(session)
    else:
        session.send_keys("\n")
    assert "le.com" in str(field.get(timeout=2).value)
    passed, detail = _grade(rig.events("R"), "visited", url="example.com")
    assert not passed, detail
    assert "'le.com'" in detail


def _cancel_between(rig: Rig, first: str, rest: str) -> wda.Session:
    """Settings' search: `first` typed, Cancel (the field is emptied), the field tapped,
    `rest` typed: the field holds `rest` alone."""
    session, field = _open(rig, SETTINGS, {"className": "SearchField"})
    session.send_keys(first)
    session(className="Button", name="Cancel").get(timeout=2).click()
    field.get(timeout=2).click()
    session.send_keys(rest)
    assert field.get(timeout=2).value == rest
    return session


def test_a_search_cancelled_between_the_parts_is_not_carried(rig):
    """"Sto", Cancel, "rage": the phone searched "rage" and the result it shows for that is no
    search for Storage."""
    session = _cancel_between(rig, "Sto", "rage")
    session(className="Button", name="iPhone Storage").get(timeout=2).click()
    passed, detail = _grade(rig.events("R"), "opened_from_search", "Storage",
                            result="iPhone Storage", app=SETTINGS, into="Search")
    assert not passed, detail


def test_a_placeholder_that_reads_as_the_typed_text_is_not_carried(rig):
    """"Search" typed, cancelled: the empty field shows its placeholder "Search", which is no
    text of the agent's; " Storage" typed after is all the field holds."""
    _cancel_between(rig, "Search", " Storage")
    passed, detail = _grade(rig.events("R"), "typed_into", "Search Storage", app=SETTINGS)
    assert not passed, detail


def _edited(events: list[AuditEvent], index: int, **change: object) -> list[AuditEvent]:
    """The log with one line's target (`target`: its value) or field changed."""
    row = json.loads(events[index].model_dump_json())
    for key, value in change.items():
        if key == "target":
            row["target"]["value"] = value
        else:
            row[key] = value
    return [*events[:index], AuditEvent.model_validate(row), *events[index + 1:]]


def test_the_first_keystroke_after_the_tap_must_show_the_text_too(rig):
    """A field that changes what it holds when focused (Safari's address on a phone shows the
    page's URL, selected, and typing replaces it) logs another value at the first keystroke:
    the carry is dropped. The log is the bridge's, with that keystroke's value as such a
    field logs it."""
    session, field = _open(rig, SETTINGS, {"className": "SearchField"})
    _type("two_tapfield", session, field, "Sto", "rage")
    events = rig.events("R")
    assert [e.text for e in editings(actions(events))] == ["Sto", "Storage"]
    last_type = max(i for i, e in enumerate(events) if e.kind == "type" and e.target)
    events = _edited(events, last_type, target="https://sto.example/")
    assert [e.text for e in editings(actions(events))] == ["Sto", "rage"]


def test_the_refocusing_tap_alone_decides_when_no_keystroke_shows_the_field(rig):
    """Keys tapped after the address was tapped again, with no focused field logged for them
    (the bridge could not tell it): the tap showed the loaded page's search, not "examp", so
    nothing is carried and le.com is what was loaded."""
    session, field = _open(rig, SAFARI, ADDRESS)
    _type("ret_then_tap", session, field, "examp", "le.com")
    _return_key(session)
    events = rig.events("R")
    for index, event in enumerate(events):
        if event.field is not None:
            events = _edited(events, index, field=None)
    passed, detail = _grade(events, "visited", url="example.com")
    assert not passed, detail
