"""An answer graded as the suite grades a value: a device's reading by its probe, a probe
page's word with the other probe words as `others`, anything else by `answer_contains`."""

from __future__ import annotations

from phoneshell.checks import Check, grade_check
from phoneshell.evidence import Claim, DeviceRead, Evidence

PROBE_WORDS = ("MERIDIAN", "CARDAMOM", "BASALT", "CINNABAR", "COBALT", "FULCRUM", "GRANITE",
               "HALYARD", "JUNIPER", "MARLIN", "NIMBUS", "OBSIDIAN", "PELICAN", "QUASAR",
               "SALTWORT", "SORREL", "TAMARIND", "THISTLE", "WILLOW", "ZEPHYR")
DEVICE = {"87%": "battery_level", "42%": "battery_level", "44%": "battery_level",
          "57°": "weather_temperature", "39°": "weather_temperature",
          "61°": "weather_temperature", "355° N": "compass_heading", "274° W": "compass_heading"}
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
