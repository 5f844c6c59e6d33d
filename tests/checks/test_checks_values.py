"""How answers name values, as an honest agent writes them: the notations people use for units,
a bare number where the question fixes the unit, a heading by its number; and every
one of them still a hedge when it names a second value of the kind."""

from __future__ import annotations

import pytest

from phoneshell.checks import Check, grade_check
from phoneshell.evidence import Claim, DeviceRead, Evidence


def graded(probe: str, shown: str, answer: str) -> tuple[bool, str]:
    """The answer graded by the reading tasks' own check against what the device showed."""
    check = Check.make("answer_matches_device", probe=probe)
    read = DeviceRead(probe=probe, arg="", value=shown)
    result = grade_check(check, Evidence("t", 1.0, claim=Claim(status="done", answer=answer),
                                         reads=(read,)))
    return result.passed, result.detail


@pytest.mark.parametrize("answer", [
    "57F", "57 F", "57°F", "57 ºF", "57º", "57˚", "57˚F", "57⁰F", "57℉", "57℃", "57 deg F",
    "57 deg", "57 degrees", "57 degrees Fahrenheit", "57 Fahrenheit", "57 °C", "57C", "57",
    "It's 57 and sunny", "57 right now, updated 5 minutes ago"])
def test_a_temperature_in_any_common_notation_names_it(answer: str) -> None:
    passed, detail = graded("weather_temperature", "57°", answer)
    assert passed, detail


@pytest.mark.parametrize("answer", ["87", "87%", "87 %", "87％", "87 pct", "87 percent",
                                    "87 per cent", "87%, about 5 hours left"])
def test_a_battery_level_in_any_common_notation_names_it(answer: str) -> None:
    passed, detail = graded("battery_level", "87%", answer)
    assert passed, detail


@pytest.mark.parametrize("shown,answer", [
    ("57°", "57 or 58"), ("57°", "57F or 58F"), ("57°", "57, 58, 59"), ("57°", "57℉ / 58℉"),
    ("57°", "57°F, feels like 55°"), ("57°", "57 (low 50, high 63)"), ("87%", "87 or 88"),
    ("87%", "87％, 88％"), ("87%", "87 pct or 86 pct"), ("274° W", "274 or 275"),
    ("274° W", "West, 270°")])
def test_a_second_value_in_any_notation_still_hedges(shown: str, answer: str) -> None:
    probe = {"57°": "weather_temperature", "87%": "battery_level"}.get(shown, "compass_heading")
    passed, detail = graded(probe, shown, answer)
    assert not passed, detail


def test_a_bare_number_beside_a_temperature_is_a_second_one() -> None:
    """Red team 100 (RT100-1): the question fixed the measure, so every bare number of the
    answer is a temperature for the hedging rules, however the first was written: "57°F, feels
    like 55" names 57° and 55°, a guess, while "55" alone still does not name 55° beside 57°F
    (naming reads a bare number in the unit only where the answer writes none)."""
    passed, detail = graded("weather_temperature", "57°", "57°F, feels like 55")
    assert not passed and "hedges: it also names '55'" in detail, detail
    passed, detail = graded("weather_temperature", "55°", "57°F, feels like 55")
    assert not passed and "without the value's unit" in detail, detail


@pytest.mark.parametrize("answer", ["57 Fine", "Feels 57", "57 C"])
def test_f_and_c_are_units_only_alone_after_a_number(answer: str) -> None:
    """"57 Fine" is 57 and a word (read as the question's unit, since the answer writes none);
    a word is never taken for a scale, and 58 is not 57 whatever follows it."""
    assert graded("weather_temperature", "57°", answer)[0]
    assert not graded("weather_temperature", "58°", answer)[0]


def test_a_bare_number_beside_numbers_with_units_is_not_the_value() -> None:
    """An answer that writes units elsewhere wrote its bare number as something else: it does not
    name the value, and the failure says the notation was why."""
    passed, detail = graded("battery_level", "87%", "87, and it is 57° outside")
    assert not passed and "without the value's unit '%'" in detail, detail
    passed, detail = graded("battery_level", "87%", "87° charged")
    assert not passed and "whose unit is not the value's '%'" in detail, detail
    passed, detail = graded("weather_temperature", "57°", "57Fx")
    assert not passed and "part of the word '57Fx'" in detail, detail


@pytest.mark.parametrize("answer", ["274", "274 W", "274° West", "West (274°)", "274 degrees",
                                    "274 degrees west"])
def test_a_heading_is_named_by_its_number_with_its_point_or_without(answer: str) -> None:
    passed, detail = graded("compass_heading", "274° W", answer)
    assert passed, detail


@pytest.mark.parametrize("answer", ["West", "W", "west", "It's pointing west", "Due West"])
def test_a_point_alone_does_not_name_a_heading(answer: str) -> None:
    """Red team 58: a blind "West" passed 49 headings in 360 (13.6%), the eight points being
    few; the task asks for degrees, and the detail says the number was missing."""
    passed, detail = graded("compass_heading", "274° W", answer)
    assert not passed and "without the heading's degrees" in detail, detail


@pytest.mark.parametrize("answer", ["East", "Northwest", "NW", "West or North-West", "W, E",
                                    "270", "West, 280°", "274° E"])
def test_a_heading_by_another_point_or_two_fails(answer: str) -> None:
    passed, detail = graded("compass_heading", "274° W", answer)
    assert not passed, detail


def test_another_point_says_which_point_was_wanted() -> None:
    passed, detail = graded("compass_heading", "274° W", "274° E")
    assert not passed and "it names the point(s) E; the heading's is W" in detail, detail


@pytest.mark.parametrize(("shown", "answer", "passes"), [
    ("318° NW", "318° SSE", False), ("82° E", "82° SSE", False),  # red team 66: all passed
    ("46° NE", "46° NNE", False), ("223° SW", "223 south-southwest", False),
    ("112° SE", "112° ESE", True), ("112° SE", "112 degrees east-southeast", True),
    ("205° SW", "205° SSW", True), ("340° N", "340 north-northwest", True)])
def test_a_sixteen_point_name_must_agree_with_the_heading(shown: str, answer: str,
                                                          passes: bool) -> None:
    """The points between the eight iOS writes ("ESE") are checked too, not ignored: one more
    than its half-sector and the drift from the heading fails, saying which."""
    passed, detail = graded("compass_heading", shown, answer)
    assert passed == passes, detail
    if not passes:
        assert "which is not where the heading points" in detail or "the heading's is" in detail


def test_a_heading_within_the_drift_of_a_boundary_keeps_its_own_point() -> None:
    """The agent read 292° W; the capture read 293° NW a moment later: 292° W is what the phone
    showed within the compass's drift, 292° NW never was, and a point alone is no reading."""
    assert graded("compass_heading", "293° NW", "292° W")[0]
    assert graded("compass_heading", "293° NW", "293° northwest")[0]
    assert not graded("compass_heading", "293° NW", "292° S")[0]
    assert not graded("compass_heading", "293° NW", "West")[0]


@pytest.mark.parametrize(("shown", "answer"), [
    ("219° SW", "219 degrees from north"), ("126° SE", "126°, measured clockwise from north"),
    ("168° S", "168°, facing away from the north"), ("124° SE", "124° relative to true north"),
    ("246° SW", "246° (true north)"), ("301° NW", "Heading 301° (magnetic north)"),
    ("219° SW", "219° SW from N"), ("83° E", "83°, with respect to grid north"),
    ("219° SW", "Southwest: 219° clockwise from north"), ("219° SW", "219°, where 0° is north"),
    ("219° SW", "219° (N = 0°)"), ("0° N", "0° = north")])
def test_what_the_degrees_are_measured_from_is_no_point_of_the_heading(shown: str,
                                                                      answer: str) -> None:
    """Red team 115 (RT115-2): a heading is degrees clockwise from north, so an answer that says
    so ("from north", "true north", "where 0° is north") gave one value; it failed as naming
    the point N on every heading but north's."""
    passed, detail = graded("compass_heading", shown, answer)
    assert passed, detail


@pytest.mark.parametrize(("answer", "named"), [
    ("219° or maybe north", "N"), ("219° from north, or maybe south", "S"),
    ("219° north", "N"), ("North, 219°", "N"), ("219° from north, heading east", "E"),
    ("219° true south", "S"), ("219 degrees, heading from the west", "W"), ("219°, from W", "W"),
    ("219° relative to east", "E"), ("219° from north, or east", "E")])
def test_a_point_beside_the_degrees_is_still_the_heading_s(answer: str, named: str) -> None:
    """Only the reference is set aside: a point standing as the heading's own, or offered
    after a hedging word, is named, and another than the heading's fails."""
    passed, detail = graded("compass_heading", "219° SW", answer)
    assert not passed and f"it names the point(s) {named}; the heading's is SW" in detail, detail


@pytest.mark.parametrize(("shown", "answer"), [
    ("219° SW", "SW, or N"), ("219° SW", "from north"), ("1° N", "219°, where 0° is north"),
    ("0° N", "219° (0° = north)")])
def test_a_reference_names_no_heading_either(shown: str, answer: str) -> None:
    """Set aside, a reference is no reading: a point alone still fails, and the zero that
    defines north is no second heading to pass on."""
    passed, detail = graded("compass_heading", shown, answer)
    assert not passed, detail


@pytest.mark.parametrize(("shown", "answer"), [
    ("219° SW", "219° SW. North is at 0°."), ("219° SW", "219° SW, with 0° as north"),
    ("219° SW", "219° from north toward east"), ("90° E", "90° E (0° north, 90° east)"),
    ("219° SW", "219° SW (north is 0°, east is 90°)"),
    ("219° SW", "219° SW, taking north as 0°"),
    ("219° SW", "North is defined as 0°; the heading is 219° SW."),
    ("219° SW", "219° SW, measured clockwise from true north toward the east"),
    ("90° E", "East, 90° (0° = N, 90° = E)")])
def test_a_scale_defined_in_any_words_is_no_second_heading(shown: str, answer: str) -> None:
    """Red team 119 (RT119-1): north at zero was set aside in one connector word, so "North is
    at 0°", "with 0° as north" and a bracketed scale failed as naming 0°, and the east that
    degrees count toward failed as a point. A mark defined by its bearing is the scale."""
    passed, detail = graded("compass_heading", shown, answer)
    assert passed, detail


@pytest.mark.parametrize(("shown", "answer"), [
    ("219° SW", "219° SW, or maybe north at 0°"), ("219° SW", "219° SW, or N at 0°"),
    ("219° SW", "Either 219° SW or north at 0 degrees"), ("219° SW", "219°, or 0° at north"),
    ("219° SW", "219° or N = 0°"), ("219° SW", "219° SW, unless it is 0° being north"),
    ("219° SW", "North is 0°, or 219° SW"), ("219° SW", "219° SW or maybe, north is 0°"),
    ("219° SW", "219° SW (90° E, 180° S)"), ("219° SW", "219° SW (or: 0° N, 90° E)"),
    ("0° N", "219° SW, or north is 0°")])
def test_a_mark_offered_as_another_reading_is_a_second_heading(shown: str, answer: str) -> None:
    """Red team 119 (RT119-1): "north at 0°" after "or" was set aside as the scale, so the
    hedge read as one heading. Only a definition is the scale, and none that a word of its
    clause offers as an alternative; bracketed marks without north's zero are readings."""
    passed, detail = graded("compass_heading", shown, answer)
    assert not passed, detail


def test_answer_contains_reads_notations_the_same_way() -> None:
    check = Check.make("answer_contains", "21°")
    ev = Evidence("t", 1.0, claim=Claim(status="done", answer="21 ºC"))
    assert grade_check(check, ev).passed
    hedge = Evidence("t", 1.0, claim=Claim(status="done", answer="21 ºC or 22 ºC"))
    assert not grade_check(check, hedge).passed
