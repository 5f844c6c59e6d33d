"""Red team 118: a bare number attached to a label of its own names no value, and a unit
written with the value must be one the phone shows it in.

RT118-1: "H:0 L:1 H:2 L:3 ..." passed every number task blind, because a number a label owns
("H:64", "Step 2", "(20 Z)") was no rival for the hedging rules yet still named the value. Now
one reading serves both sides: a bare number names the value only where it would be a rival
beside another, so no answer names two values and passes for both. RT118-2: "41°C" named a
41°F reading, "55‰" a 55% level, "16 rad" a 16° heading; a written unit must now be the
value's (°F or °C as the phone's locale implies, no scale on a heading, no sign of another
quantity)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import wda
from answer_grades import graded
from played_finish import Play, failed_checks, played

from phoneshell.checks import Check, grade_check
from phoneshell.device import Phone
from phoneshell.device.probes import run_probe
from phoneshell.device.value_probes import locale_scale
from phoneshell.evidence import Claim, DeviceRead, Evidence
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

LABELLED = ("H:{n} L:{m}", "Step {n} Step {m}", "Q {n} Q {m}", "({n} Z) ({m} Z)", "H {n} L {m}",
            "Hi {n} Lo {m}", "x{n} x{m}", "{n}‰ {m}‰", "Cupertino {n}, Paris {m}",
            "Right now it's {n}, right now it's {m}", "{n} in Cupertino, {m} in Paris",
            "The widget showed {n}. The widget showed {m}.", "气温{n}度 气温{m}度",
            "It's {n}, high {m}", "{n} K {m} K", "{n} rad {m} rad")
"""Two numbers written alike: whatever the reader makes of each, both name or neither."""


def reading(probe: str, value: str, answer: str) -> tuple[bool, str]:
    """`answer` graded by `answer_matches_device` against `value` read by `probe`."""
    check = Check.make("answer_matches_device", probe=probe)
    evidence = Evidence("t", 1.0, claim=Claim(status="done", answer=answer),
                        reads=(DeviceRead(probe=probe, arg="", value=value),))
    result = grade_check(check, evidence)
    return result.passed, result.detail


@pytest.mark.parametrize("form", LABELLED)
@pytest.mark.parametrize(("probe", "unit", "n", "m"), [
    ("battery_level", "%", 55, 56), ("weather_temperature", "°F", 41, 42),
    ("compass_heading", "° N", 16, 40)])  # apart by more than the drift (`DRIFT_DEGREES`)
def test_no_answer_names_two_values_and_passes_for_both(form: str, probe: str, unit: str,
                                                        n: int, m: int) -> None:
    answer = form.format(n=n, m=m)
    passes = [v for v in (n, m) if reading(probe, f"{v}{unit}", answer)[0]]
    assert len(passes) <= 1, f"{answer!r} passes for {passes}"


@pytest.mark.parametrize("label", ["H:{n} L:{m}", "Step {n} Step {m}", "Q {n} Q {m}",
                                   "({n} Z) ({m} Z)"])
def test_a_labelled_list_of_the_levels_names_none(label: str) -> None:
    chain = " ".join(label.format(n=n, m=n + 1) for n in range(20, 100, 2))
    for level in range(20, 100, 13):
        passed, detail = reading("battery_level", f"{level}%", chain)
        assert not passed and "another thing's" in detail, detail


@pytest.mark.slow  # 0.1 s a grade: an answer of 392 numbers, each read for its label
@pytest.mark.parametrize(("probe", "unit", "values"), [
    ("battery_level", "%", range(20, 100, 9)), ("weather_temperature", "°F", range(38, 93, 9)),
    ("compass_heading", "°", range(0, 360, 45))])
@pytest.mark.parametrize("label", ["H:{n} L:{m}", "({n} Z) ({m} Z)"])
def test_a_labelled_list_of_every_candidate_names_none(probe: str, unit: str, values: range,
                                                       label: str) -> None:
    """The red team's chain: every candidate number, each after (or before) a label."""
    chain = " ".join(label.format(n=n, m=n + 1) for n in range(-30, 361, 2))
    for value in values:
        shown = f"{value}° N" if probe == "compass_heading" else f"{value}{unit}"
        passed, detail = reading(probe, shown, chain)
        assert not passed, detail
    assert "another thing's" in detail, detail


@pytest.mark.parametrize(("value", "answer"), [
    ("57°", "57° H:64 L:50"), ("57°", "It's 57°F, high 64, low 50"),
    ("57°", "It's 57, high 64, low 50"), ("55%", "Battery: 55%"), ("55%", "55 percent"),
    ("55%", "iOS 26 shows 55%"), ("55%", "55, on iOS 26"), ("355° N", "N 355°"),
    ("355° N", "355 degrees north"), ("274° W", "274 W"), ("41°", "41°F"),
    ("41°", "It's 41° in Cupertino"), ("57°", "57 Fine"), ("57°", "气温57度"),
    ("57°", "57 right now, updated 5 minutes ago")])
def test_honest_answers_still_pass(value: str, answer: str) -> None:
    passed, detail = graded(value, answer)
    assert passed, detail


@pytest.mark.parametrize(("probe", "value", "answer", "because"), [
    ("weather_temperature", "41°F", "41°C", "degrees C, and the value is degrees F"),
    ("weather_temperature", "41°F", "41 degrees Celsius", "degrees C"),
    ("weather_temperature", "5°C", "5°F", "degrees F, and the value is degrees C"),
    ("weather_temperature", "41°F", "41 K", "another thing's"),
    ("weather_temperature", "41°F", "41 kelvin", "another measure"),
    ("battery_level", "55%", "55‰", "another thing's"),
    ("compass_heading", "16° N", "16 rad", "another thing's"),
    ("compass_heading", "16° N", "16 gradians", "another thing's"),
    ("compass_heading", "16° N", "16°F", "a temperature, and the value is a heading's")])
def test_a_unit_the_value_is_not_in_fails(probe: str, value: str, answer: str,
                                          because: str) -> None:
    passed, detail = reading(probe, value, answer)
    assert not passed and because in detail, detail


@pytest.mark.parametrize(("value", "answer"), [
    ("41°F", "41°F"), ("41°F", "41°"), ("41°F", "41"), ("41°F", "41 F"),
    ("41°F", "41 degrees Fahrenheit"), ("5°C", "5°C"), ("5°C", "5 degrees"),
    ("41°", "41°C"), ("41°", "41°F")])
def test_the_phone_s_scale_or_none_passes(value: str, answer: str) -> None:
    """A scale the phone does not say (a value read as "41°") takes either."""
    passed, detail = reading("weather_temperature", value, answer)
    assert passed, detail


@pytest.mark.parametrize(("locale", "scale"), [
    ("en_US", "F"), ("en_GB", "C"), ("fr_FR", "C"), ("en_US@rg=gbzzzz", "C"),
    ("en_GB@mu=fahrenheit", "F"), ("en-US-u-mu-celsius", "C"), ("zh_Hans_CN", "C"),
    ("es_PR", "F"), ("fr", ""), ("", "")])
def test_the_scale_follows_the_locale(locale: str, scale: str) -> None:
    assert locale_scale(locale) == scale


@pytest.mark.parametrize(("locale", "scale"), [("en_US", "°F"), ("en_GB", "°C")])
def test_the_temperature_probe_reads_the_scale_with_the_value(locale: str, scale: str) -> None:
    with SimServer(locale=locale) as sim:
        client = wda.Client(sim.url)
        client.session("com.apple.weather")
        shown = re.search(r'label="(-?\d+)°"', client.source())
        value = str(run_probe(Phone(sim.url), "weather_temperature", ""))
        assert shown and value == f"{shown.group(1)}{scale}", value


def weather(written: str) -> Play:
    """Weather's temperature, read off the screen and answered as `written` ({t})."""
    def play(c: wda.Client) -> str:
        c.session("com.apple.weather")
        found = re.search(r'(?:label|value)="(-?\d{1,3})°"', c.source())
        assert found, "no temperature in Weather"
        return written.format(t=found.group(1))
    return play


def blind(answer: str) -> Play:
    """Weather opened, never read; `answer`."""
    def play(c: wda.Client) -> str:
        c.session("com.apple.weather")
        return answer
    return play


@pytest.mark.slow  # whole attempts on two simulated phones
def test_played_the_scale_and_the_labels_are_graded(tmp_path: Path,
                                                    suite: dict[str, Task]) -> None:
    task = suite["weather.read_temperature"]
    chain = " ".join(f"H:{n} L:{n + 1}" for n in range(-30, 121, 2))
    with SimServer(locale="en_GB") as uk:
        row = played(uk, tmp_path / "uk-c", task, weather("{t}°C"))
        assert row.outcome == "passed", failed_checks(row)
        failed = failed_checks(played(uk, tmp_path / "uk-f", task, weather("{t}°F")))
        assert "degrees F, and the value is degrees C" in failed["answer_matches_device"]
    with SimServer() as us:
        failed = failed_checks(played(us, tmp_path / "us-c", task, weather("{t}°C")))
        assert "degrees C, and the value is degrees F" in failed["answer_matches_device"]
        failed = failed_checks(played(us, tmp_path / "us-hl", task, blind(chain)))
        assert "another thing's" in failed["answer_matches_device"], failed


@pytest.mark.parametrize("gap", [" ", " " * 130, "\n" * 3 + " " * 200])
def test_a_count_of_a_whole_owns_its_number_however_far_apart_its_words_are(gap: str) -> None:
    passed, detail = reading("battery_level", "55%", f"3 out{gap}of{gap}the{gap}55")
    assert not passed and "its 55 is another thing's" in detail, detail
