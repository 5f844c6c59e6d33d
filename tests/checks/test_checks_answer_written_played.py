"""Honest answers as people write them, played against their suite tasks on the simulated
iPhone through the bridge with facebook-wda (red team 94): the Model Number row copied with its
title, or as a markdown table row; a battery level in Chinese and Japanese, the number glued to
the words. Each agent reads the value off the screen and passes; a hedge written the same way
fails."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import wda
from played_finish import Play, failed_checks, played

from phoneshell.sim import SimServer
from phoneshell.tasks import Task

PREFS = "com.apple.Preferences"


def model_row(written: str) -> Play:
    """Settings > General > About, the Model Number row's label ("Model Number, MQ163LL/A")
    answered as `written` ({label}, and {value}: the part after the comma)."""
    def play(c: wda.Client) -> str:
        s = c.session(PREFS)
        s(label="General").click()
        s(label="About").click()
        label = str(s(labelContains="Model Number").get(timeout=5).label)
        return written.format(label=label, value=label.split(", ", 1)[1])
    return play


def battery(written: str) -> Play:
    """Settings > Battery, the level read off the screen and answered as `written` ({pct})."""
    def play(c: wda.Client) -> str:
        s = c.session(PREFS)
        s(label="Battery").click()
        found = re.search(r'(?:label|value)="(\d{1,3})\s?%"', c.source())
        assert found, "no battery level on the Battery page"
        return written.format(pct=found.group(1))
    return play


@pytest.mark.parametrize("written", ["{label}", "| Model Number | {value} |"])
def test_the_model_number_row_copied_whole_passes(sim: SimServer, tmp_path: Path,
                                                  suite: dict[str, Task], written: str) -> None:
    row = played(sim, tmp_path, suite["settings.about.serial"], model_row(written))
    assert row.outcome == "passed", failed_checks(row)


def test_the_model_number_row_with_another_code_hedges(sim: SimServer, tmp_path: Path,
                                                       suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["settings.about.serial"],
                 model_row("| Model Number | {value} or MQ173LL/A |"))
    assert "hedges" in failed_checks(row)["answer_matches_device"]


@pytest.mark.parametrize("written", ["电量{pct}%", "バッテリー残量は{pct}%です"])
def test_a_battery_level_glued_to_chinese_or_japanese_words_passes(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task], written: str) -> None:
    row = played(sim, tmp_path, suite["settings.battery.percentage"], battery(written))
    assert row.outcome == "passed", failed_checks(row)
