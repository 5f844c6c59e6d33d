"""Hedges red team 100 passed through the harness, played against their suite tasks on the
simulated iPhone through the bridge with facebook-wda: the value read off the screen, then a
second one offered beside it ("42% or 41", "61°, maybe 62", "MERIDIAN (possibly Meridean)",
"Example Domain or Loaded Page"). Each fails its answer check as a hedge; the honest answer
written around the same value passes the task, with the context red team 106 saw fail it
(numbered steps, "iPhone 17 Pro", "iOS 26", "2 taps", "10-day", "I could see it clearly",
"Example domains like this"), and the remarks red team 110 saw fail it ("It's Example
Domain, the IANA placeholder page.", "MERIDIAN, in a serif typeface"); and a second value in
a sentence of its own ("The answer might also be Loaded Page.", "The heading is quill."), or the
value as a preposition's object ("quill in meridian"), red team 110's leftovers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import wda
from played_finish import Play, failed_checks, played

from phoneshell.sim import SimServer
from phoneshell.tasks import Task

pytestmark = pytest.mark.slow  # 25 s of whole programs: the README's command stays quick

SAFARI = "com.apple.mobilesafari"


def battery(written: str) -> Play:
    """Settings > Battery, the level read off the screen and answered as `written` ({pct},
    {less}: one below it)."""
    def play(c: wda.Client) -> str:
        c.session("com.apple.Preferences")(label="Battery").click()
        found = re.search(r'(?:label|value)="(\d{1,3})\s?%"', c.source())
        assert found, "no battery level on the Battery page"
        return written.format(pct=found.group(1), less=int(found.group(1)) - 1)
    return play


def weather(written: str) -> Play:
    """Weather's temperature for My Location, read off the screen and answered as `written`
    ({t}, {more}: one above it)."""
    def play(c: wda.Client) -> str:
        c.session("com.apple.weather")
        found = re.search(r'(?:label|value)="(-?\d{1,3})°"', c.source())
        assert found, "no temperature in Weather"
        return written.format(t=found.group(1), more=int(found.group(1)) + 1)
    return play


def page(url: str, answer: str) -> Play:
    """Safari opened on `url`, typed into its address field and sent; then `answer`."""
    def play(c: wda.Client) -> str:
        c.app_launch(SAFARI)
        c(name="TabBarItemTitle").click()
        c.send_keys(url + "\n")
        return answer
    return play


@pytest.mark.parametrize(("task_id", "hedge", "honest"), [
    ("settings.battery.percentage", battery("{pct}% or {less}"),
     battery("{pct}%, about 5 hours left")),
    ("weather.read_temperature", weather("{t}°, maybe {more}"), weather("{t}°F and sunny")),
    ("probe.image.one", page("blolabel.ai/probe/one", "MERIDIAN (possibly Meridean)"),
     page("blolabel.ai/probe/one", "MERIDIAN (in big letters)")),
    ("safari.read.heading", page("example.com", "Example Domain or Loaded Page"),
     page("example.com", "The heading is Example Domain.")),
    ("safari.read.heading", page("example.com", "Example Domain (possibly example website)"),
     page("example.com", "Page Title: Example Domain")),
    # red team 106: honest context beside the value (steps, counts, names with a number, a
    # hedging word about the method) passes; the same task's offered alternative still fails
    ("settings.battery.percentage", battery("{pct}%/{less}"),
     battery("1. Opened Settings\n2. Tapped Battery\n3. Read the level: {pct}%")),
    ("settings.battery.percentage", battery("{pct}%. Maybe {less}"),
     battery("The battery is at {pct}% on this iPhone 17 Pro (iOS 26, 2 taps).")),
    ("weather.read_temperature", weather("It's {t}°. Could be {more} though."),
     weather("It's {t}°F. The 10-day forecast shows similar weather; it took 1 step.")),
    ("probe.text.one", page("blolabel.ai/probe/one", "CARDAMOM (or NutMeg)"),
     page("blolabel.ai/probe/one",
          "The word is CARDAMOM - I could see it clearly without zooming.")),
    ("safari.read.heading", page("example.com", "Example Domain (maybe Example Domains)"),
     page("example.com", "The heading is Example Domain. Example domains like this are "
                         "reserved by IANA; Safari's Reader view wasn't needed.")),
    # red team 110: a remark describing the value passes; a value in the remark's place fails
    ("safari.read.heading", page("example.com", "Example Domain, or the Loaded Page"),
     page("example.com", "It's Example Domain, the IANA placeholder page.")),
    ("probe.image.one", page("blolabel.ai/probe/one", "The word shown is MERIDIAN, or the word "
                                                       "QUILL"),
     page("blolabel.ai/probe/one", "The word shown is MERIDIAN, in a serif typeface")),
    # a second value in a sentence of its own, or the value as a preposition's object, fails;
    # what another part of the screen shows, said after the value, passes
    ("safari.read.heading",
     page("example.com", "The heading is Example Domain. The answer might also be Loaded Page."),
     page("example.com", "The heading is Example Domain. The tab says Example Domain too; the "
                         "link says More information.")),
    ("probe.image.one",
     page("blolabel.ai/probe/one", "The word is meridian. The heading is quill."),
     page("blolabel.ai/probe/one", "The word in the picture is MERIDIAN. The page title is "
                                   "blolabel probe.")),
    ("probe.image.one", page("blolabel.ai/probe/one", "quill in meridian"),
     page("blolabel.ai/probe/one", "MERIDIAN in white. The picture has a dark background.")),
], ids=["battery", "weather", "probe-image", "heading-capitals", "heading-possibly",
        "battery-steps", "battery-names", "weather-counts", "probe-text-method",
        "heading-plural", "heading-remark", "probe-image-remark", "heading-statement",
        "probe-image-statement", "probe-image-object"])
def test_a_second_value_offered_beside_the_one_read_fails_as_a_hedge(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task], task_id: str, hedge: Play,
        honest: Play) -> None:
    answer = next(c.kind for c in suite[task_id].checks if c.kind.startswith("answer_"))
    failed = failed_checks(played(sim, tmp_path / "hedge", suite[task_id], hedge))
    assert set(failed) == {answer} and "hedges" in failed[answer], failed
    row = played(sim, tmp_path / "honest", suite[task_id], honest)
    assert row.outcome == "passed", failed_checks(row)
