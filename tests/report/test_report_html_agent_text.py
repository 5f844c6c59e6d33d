"""Agent text in the HTML report reads as the terminal shows it (red team 134): `report.escape.h`
shows every invisible or controlling character as its escape (`untrusted.visible`) before it
escapes markup, so a right-to-left override cannot draw "DESSAP" as "PASSED" and a carriage
return cannot start a line under the claim that passes for the harness's own check line.

Played by a command agent through the real runner (`phoneshell run` as a subprocess), reported
by `phoneshell report --html`, read back with lxml and, where it is installed, by headless
Chromium's DOM."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import lxml.html
import pytest
from report.report_rig import ROOT, chromium, phoneshell

from phoneshell.untrusted import visible

AGENT = f"command:{sys.executable} tests/report/bidi_agent.py"
SHOWN = "x\\r  ok  foreground_app: com.apple.weather \\u202eDESSAP\\u202c\\u2028\\u200b\\x1b[32mok"
"""The agent's text (`bidi_agent.FORGED`) as the terminal and the page show it."""


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The HTML report of one attempt of the agent at weather.open."""
    folder = tmp_path_factory.mktemp("bidi")
    played = phoneshell("run", "environments", "--task", "weather.open", "--agent", AGENT,
                        "--runs", str(folder), "--run-id", "BIDI")
    assert played.returncode in (0, 1), played.stdout + played.stderr
    path = folder / "report.html"
    done = phoneshell("report", str(folder / "BIDI"), "--html", str(path))
    assert f"html: {path}" in done.stdout, done.stdout + done.stderr
    return path


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_the_page_holds_no_character_a_terminal_would_show_escaped(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    hidden = sorted({c for c in text if visible(c) != c})
    assert hidden == [], hidden  # the rule for every field, whoever wrote it
    doc = lxml.html.fromstring(page.read_bytes())
    answer = [a.text_content() for a in doc.find_class("claim-answer")]
    summary = [s.text_content() for s in doc.find_class("claim-summary")]
    assert answer == summary == [SHOWN], (answer, summary)
    timeline = " ".join(td.text_content() for td in doc.xpath("//table[@class='timeline']//td"))
    assert f"com.example.{SHOWN}" in timeline, timeline


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_chromium_shows_the_escapes_not_a_forged_check_line(page: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu",
         f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    dom = lxml.html.fromstring(done.stdout)
    (claim,) = dom.find_class("claim-answer")
    assert claim.text_content() == SHOWN
    assert "\u202e" not in done.stdout and "\r" not in done.stdout
