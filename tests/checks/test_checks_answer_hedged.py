"""Hedges the reading missed (red team 100) and honest answers that must still pass.

RT100-1: a bare second number beside a value of degrees or percent written once with its unit
("87% or 86", "61°, maybe 62") or beside a time ("7:05 PM or 8") passed, since a bare number was
read in the value's unit only in an answer that wrote none. RT100-2: a one-word or heading
rival outside the value's clause ("MERIDIAN (possibly Meridean)", "cardamom? lantern?",
"CARDAMOM: nutmeg") or a capitalised run after an everyday word ("Example Domain or Loaded
Page") passed. Each answer is graded by the task's own check kind on evidence alone.
"""

from __future__ import annotations

import pytest

from phoneshell.checks import Check, grade_check
from phoneshell.evidence import Claim, DeviceRead, Evidence

PROBE_WORDS = ("MERIDIAN", "CARDAMOM", "BASALT", "CINNABAR", "COBALT", "FULCRUM", "GRANITE",
               "HALYARD", "JUNIPER", "MARLIN", "NIMBUS", "OBSIDIAN", "PELICAN", "QUASAR",
               "SALTWORT", "SORREL", "TAMARIND", "THISTLE", "WILLOW", "ZEPHYR")
DEVICE = {"87%": "battery_level", "42%": "battery_level", "57°": "weather_temperature",
          "61°": "weather_temperature", "274° W": "compass_heading"}
"""The values a device probe reads, graded by `answer_matches_device` as their tasks do."""


def graded(value: str, answer: str) -> tuple[bool, str]:
    """`answer` graded as the suite grades `value`: a device's reading by its probe, a probe
    word with the other probe words as `others`, anything else by `answer_contains`."""
    claim = Claim(status="done", answer=answer)
    if value in DEVICE:
        check = Check.make("answer_matches_device", probe=DEVICE[value])
        reads = (DeviceRead(probe=DEVICE[value], arg="", value=value),)
        result = grade_check(check, Evidence("t", 1.0, claim=claim, reads=reads))
    else:
        others = tuple(w for w in PROBE_WORDS if w != value) if value in PROBE_WORDS else ()
        check = Check.make("answer_contains", value, others=others)
        result = grade_check(check, Evidence("t", 1.0, claim=claim))
    return result.passed, result.detail


# RT100-1: numbers -----------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "answer"), [
    ("42%", "42% or 41"), ("87%", "87%. Maybe 86"), ("87%", "87% (86?)"), ("87%", "87% or 86"),
    ("61°", "61°, maybe 62"), ("57°", "57° (58 feels-like)"), ("57°", "57°F, maybe 58"),
    ("57°", "It's 57°. Could be 58 though."), ("7:05 PM", "7:05 PM or 8"),
    ("7:05 PM", "7:05 PM or 19"), ("7:05 PM", "7:05 PM or 0705"), ("7:05 PM", "7:05 PM or 7h06"),
    # and written in ways the red team did not try
    ("87%", "87%, maybe eighty-six"), ("87%", "87% or 86ish"), ("87%", "87%/86"),
    ("87%", "87% (86 maybe)"), ("87%", "Battery 87%, earlier 86"), ("87%", "87%.86"),
    ("87%", "87%...86"), ("87%", "87%:88%"), ("87%", "87% ± 1"), ("57°", "57°, or fifty-eight"),
    ("57°", "57°F, feels like 55"), ("57°", "57°:58"), ("-3°", "-3° or minus four"),
    ("274° W", "274° W or 275"), ("274° W", "274°, maybe 275"), ("274° W", "274° W (275?)"),
    ("7:05 PM", "7:05 PM, maybe 7:06"), ("7:05 PM", "7:05 PM (or 8)"),
    ("7:05 PM", "7:05 PM or seven"), ("7:05 PM", "7:05 PM or 19h06"),
    ("256 GB", "256 GB or 512"), ("$5", "$5 or 6")])
def test_a_second_number_hedges_however_the_first_was_written(value: str, answer: str) -> None:
    passed, detail = graded(value, answer)
    assert not passed and "hedges" in detail, detail


@pytest.mark.parametrize(("value", "answer"), [
    ("87%", "87%"), ("87%", "87"), ("87%", "Battery: 87%"), ("87%", "87% (not charging)"),
    ("87%", "87%, about 5 hours left"), ("87%", "It's at 87 percent."),
    ("87%", "87% as of 9:41 AM"), ("87%", "Battery 87%, in the last 24 hours"),
    ("87%", "87% (eighty-seven percent)"), ("87%", "87%, 87"), ("87%", "87%. Confident."),
    ("87%", '{"battery": "87%"}'), ("57°", "It's 57°F and partly cloudy"),
    ("57°", "57°F right now, updated 5 minutes ago"), ("57°", "57°F, wind 5 mph"),
    ("57°", "57°, updated 9:41 AM"), ("57°", "My Location: 57°"), ("-3°", "3° below zero"),
    ("-3°", "-3°, minus three"), ("274° W", "Heading 274° W (West)"),
    ("274° W", "274°W, pointing west"), ("7:05 PM", "The alarm is set for 7:05 PM."),
    ("7:05 PM", "7:05 PM (19:05)"), ("7:05 PM", "7:05 PM (1905)"), ("7:05 PM", "19h05"),
    ("7:05 PM", "7:05 PM on weekdays"), ("$6", "5 items, $6")])
def test_an_honest_number_with_words_or_other_measures_beside_it_passes(value: str,
                                                                        answer: str) -> None:
    passed, detail = graded(value, answer)
    assert passed, detail


# RT100-2: words ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "answer"), [
    ("MERIDIAN", "MERIDIAN (possibly Meridean)"), ("MERIDIAN", "MERIDIAN! Meridean?"),
    ("MERIDIAN", "MERIDIAN (or maybe Median)"), ("CARDAMOM", "CARDAMOM (possibly cardamon)"),
    ("CARDAMOM", "CARDAMOM (or NutMeg)"), ("CARDAMOM", "CARDAMOM unless it's nutmeg"),
    ("CARDAMOM", "CARDAMOM either way nutmeg"), ("CARDAMOM", "cardamom? lantern?"),
    ("CARDAMOM", "CARDAMOM! Cardamon?"), ("CARDAMOM", "Cardamom. Nutmeg."),
    ("CARDAMOM", "CARDAMOM: nutmeg"), ("CARDAMOM", "The word is CARDAMOM. Could also be Nutmeg."),
    ("CARDAMOM", "CARDAMOM (second guess: nutmeg)"),
    ("Example Domain", "Example Domain or Loaded Page"),
    ("Example Domain", "Example Domain (possibly example website)"),
    ("Example Domain", "Example Domain! example page?"),
    ("Example Domain", "Example Domain or Page Title"),
    ("Example Domain", "Example Domain or Safari Page"),
    ("Example Domain", "Example Domain or The Example"),
    # and written in ways the red team did not try
    ("CARDAMOM", "CARDAMOM - nutmeg"), ("CARDAMOM", "CARDAMOM or ЛАНТЕРН"),
    ("CARDAMOM", "CARDAMOM, CARDAM0M"), ("CARDAMOM", "CARDAMOM (nutmeg)"),
    ("CARDAMOM", "Nutmeg. CARDAMOM."), ("CARDAMOM", "CARDAMOM, but maybe nutmeg"),
    ("CARDAMOM", "CARDAMOM; alternatively nutmeg"), ("CARDAMOM", "CARDAMOM (if not, nutmeg)"),
    ("CARDAMOM", "CARDAMOM or maybe it was nutmeg"), ("MERIDIAN", "MERIDIAN MER1DIAN"),
    ("MERIDIAN", "MERIDIAN, Meirdian"), ("MERIDIAN", "MERIDIAN. Meridians?"),
    ("MERIDIAN", "meridian meridan"), ("Example Domain", "Example Domain or Example Domian"),
    ("Example Domain", "Example Domain (maybe Example Domains)"),
    ("Example Domain", "Example Domain, possibly Sample Domain"),
    ("Example Domain", "Example Domain (or Welcome)"),
    ("iPhone Air", "iPhone Air (or iPhone Aria)"),
    ("CARDAMOM", "CARDAMOM, though it might read nutmeg"),
    ("CARDAMOM", "CARDAMOM. Nutmeg is also possible."),
    ("CARDAMOM", "CARDAMOM (nutmeg likely too)"),
    ("CARDAMOM", "CARDAMOM... nutmeg"), ("CARDAMOM", "Another reading: nutmeg. CARDAMOM.")])
def test_a_rival_word_hedges_in_any_clause(value: str, answer: str) -> None:
    passed, detail = graded(value, answer)
    assert not passed and "hedges" in detail, detail


@pytest.mark.parametrize(("value", "answer"), [
    ("CARDAMOM", "CARDAMOM (in big letters)"), ("CARDAMOM", "Word: CARDAMOM"),
    ("CARDAMOM", "Probe: CARDAMOM"), ("CARDAMOM", "Probe 1: CARDAMOM"),
    ("CARDAMOM", "CARDAMOM (confident)"), ("CARDAMOM", "CARDAMOM. Confirmed by zooming in."),
    ("CARDAMOM", "The word is CARDAMOM (a spice)."), ("CARDAMOM", "CARDAMOM's the word"),
    ("CARDAMOM", "The word is CARDAMOM, or at least that's how it's spelled"),
    ("CARDAMOM", "It's probably CARDAMOM"), ("CARDAMOM", "Maybe CARDAMOM"),
    ("CARDAMOM", "CARDAMOM?"), ("CARDAMOM", "Is it CARDAMOM? Yes."),
    ("CARDAMOM", "The word is CARDAMOM, written in bold or italics"),
    ("CARDAMOM", "It's CARDAMOM either way"), ("CARDAMOM", "CARDAMOM. Done."),
    ("CARDAMOM", "CARDAMOM - written in bold at the top of the page"),
    ("CARDAMOM", "The word is CARDAMOM. I didn't need to zoom or scroll."),
    ("CARDAMOM", "The text reads CARDAMOM in dark green letters"),
    ("CARDAMOM", "The answer is CARDAMOM. Nothing else is on the page."),
    ("MERIDIAN", "MERIDIAN - it's written in a serif font on a gradient background"),
    ("MERIDIAN", "MERIDIAN (the image is a bit blurry, but it's clear)"),
    ("MERIDIAN", "MERIDIAN, possibly misspelled"), ("WILLOW", "WILLOW, in yellow letters"),
    ("WILLOW", "The word WILLOW over a picture of a tree"),
    ("Example Domain", "Heading: Example Domain"),
    ("Example Domain", "Page Title: Example Domain"),
    ("Example Domain", "The H1 is Example Domain"),
    ("Example Domain", "Example Domain (example.com)"),
    ("Example Domain", "The heading of example.com is Example Domain"),
    ("Example Domain", "Example Domain\n\nThis domain is for use in illustrative examples in "
                       "documents."),
    ("Example Domain", "Example Domain, the big heading at the top"),
    ("Example Domain", "Example Domain - the page at example.com"),
    ("Example Domain", "| Heading | Example Domain |"),
    ("CARDAMOM", "CARDAMOM, most likely"), ("CARDAMOM", "It's likely CARDAMOM"),
    ("CARDAMOM", "The word is CARDAMOM, I could read it clearly"),
    ("CARDAMOM", "The word is CARDAMOM; you could zoom to confirm"),
    ("CARDAMOM", "I opened https://blolabel.ai/probe/one/ in Safari; the word is CARDAMOM"),
    ("CARDAMOM", '{"answer": "CARDAMOM", "confidence": "high"}')])
def test_an_honest_sentence_around_a_word_passes(value: str, answer: str) -> None:
    passed, detail = graded(value, answer)
    assert passed, detail
