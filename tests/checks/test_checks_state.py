"""End-state check kinds: where each must pass, must fail, and fails closed when negated."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sources import El, evidence, source

from phoneshell.checks import Check, grade_check

CALC = "com.apple.calculator"


def run(kind: str, text: str, ev: object, negate: bool = False) -> tuple[bool, str]:
    result = grade_check(Check.make(kind, text, negate=negate), ev)  # type: ignore[arg-type]
    return result.passed, result.detail


# foreground_app ------------------------------------------------------------------------------

def test_foreground_app_passes_on_the_app_in_front() -> None:
    passed, detail = run("foreground_app", CALC, evidence(foreground=CALC))
    assert passed and CALC in detail


def test_foreground_app_fails_naming_both_apps() -> None:
    passed, detail = run("foreground_app", CALC, evidence(foreground="com.apple.springboard"))
    assert not passed
    assert detail == "in front: 'com.apple.springboard'; wanted 'com.apple.calculator'"


def test_foreground_app_is_exact_not_substring() -> None:
    passed, _ = run("foreground_app", "com.apple.calc", evidence(foreground=CALC))
    assert not passed


def test_negated_foreground_app() -> None:
    assert run("foreground_app", CALC, evidence(foreground="com.apple.Maps"), negate=True)[0]
    assert not run("foreground_app", CALC, evidence(foreground=CALC), negate=True)[0]


def test_negated_foreground_app_fails_closed_when_unread() -> None:
    passed, detail = run("foreground_app", CALC, evidence(foreground=None), negate=True)
    assert not passed and "could not be read" in detail
    assert not run("foreground_app", CALC, evidence(foreground=None))[0]


# element_exists ------------------------------------------------------------------------------

def test_element_exists_finds_on_screen_text() -> None:
    passed, detail = run("element_exists", "model number",
                         evidence(El(type="Cell", label="Model Number, MQ163LL/A")))
    assert passed and "Cell" in detail


def test_element_exists_fails_and_says_what_was_shown() -> None:
    passed, detail = run("element_exists", "Model Number",
                         evidence(El(label="General"), El(label="About")))
    assert not passed
    assert "'Model Number' not found" in detail and "'General'" in detail


def test_element_exists_ignores_off_screen_and_scroll_captures() -> None:
    below = El(label="Developer", frame=(0, 1200, 300, 44))
    scrolled = source(El(label="Developer"))
    passed, _ = run("element_exists", "Developer", evidence(below, scrolls=(scrolled,)))
    assert not passed


def test_negated_element_exists_passes_on_complete_settled_absence() -> None:
    passed, detail = run("element_exists", "Model Number", evidence(El(label="General")),
                         negate=True)
    assert passed and detail.startswith("correctly absent")


def test_negated_element_exists_fails_when_present() -> None:
    passed, detail = run("element_exists", "Model Number",
                         evidence(El(label="Model Number")), negate=True)
    assert not passed and detail.startswith("unexpectedly present")


@pytest.mark.parametrize("ev, reason", [
    (evidence(final=source(El(label="General"), El(label="Other"))[:-80]), "cut off"),
    (evidence(final=""), "unreadable"),
    (evidence(El(label="General"), flags=frozenset({"unsettled"})), "still changing"),
])
def test_negated_element_exists_fails_closed_on_partial_evidence(ev: object, reason: str) -> None:
    passed, detail = run("element_exists", "Model Number", ev, negate=True)
    assert not passed and detail.startswith("absence unproven") and reason in detail


# element_exists_anywhere --------------------------------------------------------------------

def test_anywhere_finds_text_in_a_scroll_capture() -> None:
    later = source(El(label="collect parcel"), bundle="com.apple.reminders")
    passed, detail = run("element_exists_anywhere", "Collect Parcel",
                         evidence(El(label="Groceries"), scrolls=(later,)))
    assert passed and "while scrolling" in detail


def test_anywhere_fails_when_no_capture_has_it() -> None:
    passed, detail = run("element_exists_anywhere", "collect parcel",
                         evidence(El(label="Groceries"), scrolls=(source(El(label="Milk")),)))
    assert not passed and "in 2 sources" in detail


def test_negated_anywhere_needs_scroll_captures() -> None:
    passed, detail = run("element_exists_anywhere", "parcel", evidence(El(label="Milk")),
                         negate=True)
    assert not passed and "not scrolled" in detail
    ok, _ = run("element_exists_anywhere", "parcel",
                evidence(El(label="Milk"), scrolls=(source(El(label="Eggs")),)), negate=True)
    assert ok


def test_negated_anywhere_fails_closed_on_a_cut_off_scroll_capture() -> None:
    cut = source(El(label="Eggs"), El(label="Bread"))[:-90]
    passed, detail = run("element_exists_anywhere", "parcel",
                         evidence(El(label="Milk"), scrolls=(cut,)), negate=True)
    assert not passed and "scroll page source was cut off" in detail


# regex_on_screen ----------------------------------------------------------------------------

def test_regex_matches_an_element_value() -> None:
    passed, detail = run("regex_on_screen", r"\b423\b",
                         evidence(El(label="Result", value="423"), foreground=CALC))
    assert passed and "'423'" in detail and "value" in detail


def test_regex_fails_without_a_match() -> None:
    passed, detail = run("regex_on_screen", r"\b423\b", evidence(El(label="Result", value="4230")))
    assert not passed and "matched nothing" in detail


def test_negated_regex_passes_on_complete_absence_and_fails_closed_otherwise() -> None:
    assert run("regex_on_screen", "Error", evidence(El(label="Fine")), negate=True)[0]
    assert not run("regex_on_screen", "Error", evidence(El(label="Error 3")), negate=True)[0]
    passed, detail = run("regex_on_screen", "Error", evidence(final="<broken"), negate=True)
    assert not passed and "absence unproven" in detail


def test_selected_counts_only_the_selected_element() -> None:
    """Calendar's week strip shows today's date beside the day shown: only the day shown is
    selected, so `selected` tells a screen showing today from one showing the day after."""
    today = El(type="Button", label="Today, Tuesday, January 9", name="9", traits="Button")
    shown = El(type="Button", label="10", traits="Button, Selected")
    check = Check.make("regex_on_screen", "^Today, ", type="Button", selected=True)
    away = grade_check(check, evidence(today, shown))
    assert not away.passed and "matched nothing in a selected Button" in away.detail
    assert grade_check(check, evidence(replace(today, traits="Button, Selected"),
                                       replace(shown, traits="Button"))).passed
    assert run("regex_on_screen", "^Today, ", evidence(today, shown))[0]  # without it


# a `type` restricts state checks to one kind of element ------------------------------------------

def test_type_tells_a_page_title_from_a_row_with_the_same_text() -> None:
    root = evidence(El(type="Cell", label="Bluetooth"), El(type="NavigationBar", name="Settings"))
    page = evidence(El(type="Cell", label="Devices"), El(type="NavigationBar", name="Bluetooth"))
    title = Check.make("element_exists", "Bluetooth", type="NavigationBar")
    assert not grade_check(title, root).passed
    assert "not found in a NavigationBar" in grade_check(title, root).detail
    assert grade_check(title, page).passed
    assert grade_check(Check.make("element_exists", "Bluetooth"), root).passed


def test_type_on_regex_and_negation() -> None:
    ev = evidence(El(type="Button", label="Stopwatch"), El(type="Button", label="Start"))
    assert not grade_check(Check.make("regex_on_screen", "^Stop$", type="Button"), ev).passed
    assert grade_check(Check.make("regex_on_screen", "^Start$", type="Button"), ev).passed
    assert not grade_check(Check.make("regex_on_screen", "^Start$", type="StaticText"), ev).passed
    absent = Check.make("element_exists", "Stopwatch", negate=True, type="StaticText")
    assert grade_check(absent, ev).passed  # only a Button says it


# what the agent typed is not what the app shows ------------------------------------------------

SEARCH = El(type="SearchField", label="Search", value="Model Number")
KEYBOARD = El(type="Keyboard", frame=(0, 583, 402, 291),
              children=(El(type="Key", label="Model", frame=(10, 600, 30, 40)),))


def test_words_typed_into_a_search_field_are_not_on_screen() -> None:
    passed, detail = run("element_exists", "Model Number",
                         evidence(SEARCH, El(label="No Results")))
    assert not passed and "only in what was typed (SearchField 'Search')" in detail
    assert not run("regex_on_screen", "Model Number", evidence(SEARCH))[0]
    assert run("element_exists", "Model Number",
               evidence(SEARCH, El(type="Cell", label="Model Number, MQ163LL/A")))[0]


def test_a_check_that_names_the_field_reads_what_was_typed() -> None:
    check = Check.make("element_exists", "Model Number", type="SearchField")
    assert grade_check(check, evidence(SEARCH)).passed
    assert grade_check(Check.make("element_exists", "Search"), evidence(SEARCH)).passed, \
        "a field's label is the app's word for it"


def test_the_keyboard_is_not_content() -> None:
    assert not run("element_exists", "Model", evidence(KEYBOARD))[0]
    assert grade_check(Check.make("element_exists", "Model", type="Key"),
                       evidence(KEYBOARD)).passed


def test_a_text_view_counts_once_editing_ends() -> None:
    note = El(type="TextView", label="Note", value="phoneshell benchmark")
    assert run("element_exists", "phoneshell benchmark", evidence(note))[0]
    assert not run("element_exists", "phoneshell benchmark", evidence(note, KEYBOARD))[0]


def test_within_reads_only_inside_the_container() -> None:
    page = El(type="WebView", frame=(0, 62, 402, 700), children=(
        El(type="Other", label="Example Domain", frame=(0, 62, 402, 700), children=(
            El(label="Example Domain", frame=(24, 86, 300, 41)),)),))
    suggestion = El(type="Cell", label="Example Domain, Google Search")
    check = Check.make("regex_on_screen", "^Example Domain$", within="WebView")
    assert grade_check(check, evidence(page)).passed
    failed = grade_check(check, evidence(suggestion, El(label="Example Domain")))
    assert not failed.passed and "inside a WebView" in failed.detail


# device_value -------------------------------------------------------------------------------

def note_read(value: str | None, error: str = "") -> object:
    from dataclasses import replace

    from phoneshell.evidence import DeviceRead
    read = DeviceRead(probe="newest_note", arg="", value=value, error=error)
    return replace(evidence(), reads=(read,))


@pytest.mark.parametrize(("value", "passes"), [
    ("benchmark-test (v2)", True), ("Benchmark-test (v2)\n", True),
    ("x benchmark-test (v2) y", False), ("benchmark-test", False), ("benchmark-test (v3)", False)])
def test_device_value_matches_the_whole_value(value: str, passes: bool) -> None:
    check = Check.make("device_value", r"[Bb]enchmark-test \(v2\)", probe="newest_note")
    result = grade_check(check, note_read(value))  # type: ignore[arg-type]
    assert result.passed is passes, result.detail


def test_device_value_fails_closed_when_unread() -> None:
    check = Check.make("device_value", "x", probe="newest_note", negate=True)
    result = grade_check(check, note_read(None, "Notes did not open"))  # type: ignore[arg-type]
    assert not result.passed and "Notes did not open" in result.detail
