"""About's Model Number row switches, when tapped, between the part number (MQ163LL/A) and the
regulatory model number (A3256, the iPhone 17 Pro's), as on a phone, until the page is left.
The probe reads both off a fresh Settings, whatever the agent left the row showing. The part
number answers, the regulatory one beside it: alone it is no reading, for every iPhone 17 Pro of
a region shows it (red team 58: a blind "A3522" after a tap passed 28% of simulated phones, and
would pass every phone of a one-model US rig). A model number of another phone, or two part
numbers, fails."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import wda

from phoneshell.checks import Check, grade_check
from phoneshell.device import Phone
from phoneshell.device.probes import run_probe
from phoneshell.evidence import Claim, DeviceRead, Evidence
from phoneshell.sim import SimServer

ROOT = Path(__file__).resolve().parents[2]
MODEL = "General > About > Model Number"


def _about(client: wda.Client) -> wda.Client:
    settings = client.session("com.apple.Preferences")
    settings(name="com.apple.settings.general").click()
    settings(className="Cell", name="About").click()
    assert settings(className="NavigationBar", name="About").wait(timeout=2)
    return settings


def _model_cell(settings: wda.Client) -> str:
    return str(settings(className="Cell", name="ProductModel").get(timeout=1).label)


def test_a_tap_switches_the_model_number_until_about_is_left(client: wda.Client) -> None:
    settings = _about(client)
    assert _model_cell(settings) == "Model Number, MQ163LL/A"
    settings(className="Cell", name="ProductModel").click()
    assert _model_cell(settings) == "Model Number, A3256"
    settings(className="Cell", name="ProductModel").click()
    assert _model_cell(settings) == "Model Number, MQ163LL/A"
    settings(className="Cell", name="ProductModel").click()
    settings(name="BackButton").click()  # back: About is left
    settings(className="Cell", name="About").click()
    assert _model_cell(settings) == "Model Number, MQ163LL/A"


def test_the_row_announces_no_button_as_in_the_dump(client: wda.Client) -> None:
    source = _about(client).source(format="xml")
    cell = next(line for line in source.splitlines()
                if 'type="XCUIElementTypeCell"' in line and 'name="ProductModel"' in line)
    assert 'traits=""' in cell, cell


def test_the_probe_reads_both_notations_whatever_the_agent_left(client: wda.Client,
                                                                  sim: SimServer) -> None:
    settings = _about(client)
    settings(className="Cell", name="ProductModel").click()  # left showing A3256
    assert run_probe(Phone(sim.url), "settings_value", MODEL) == "MQ163LL/A | A3256"


def graded(answer: str) -> tuple[bool, str]:
    check = Check.make("answer_matches_device", MODEL, probe="settings_value")
    read = DeviceRead(probe="settings_value", arg=MODEL, value="MQ163LL/A | A3256")
    result = grade_check(check, Evidence("t", 1.0, claim=Claim(status="done", answer=answer),
                                         reads=(read,)))
    return result.passed, result.detail


@pytest.mark.parametrize("answer", ["MQ163LL/A", "mq163ll/a", "MQ163LL/A (A3256)",
                                    "The model number is MQ163LL/A; A3256 after a tap"])
def test_the_part_number_answers_with_the_other_notation_beside_it_or_not(answer: str) -> None:
    passed, detail = graded(answer)
    assert passed, detail


@pytest.mark.parametrize("answer", ["A3256", "a3256", "The model number is A3256"])
def test_the_notation_a_tap_shows_alone_answers_nothing(answer: str) -> None:
    passed, detail = graded(answer)
    assert not passed and "names 'A3256', the notation a tap shows" in detail, detail
    assert "wanted 'MQ163LL/A'" in detail, detail


@pytest.mark.parametrize("answer", ["A3257", "MQ164LL/A", "MQ163LL/A or MQ164LL/A",
                                    "A3256 or A3257", "MQ163LL/B", "MQ163LL/A or A3257"])
def test_another_phones_number_or_a_guess_fails(answer: str) -> None:
    passed, detail = graded(answer)
    assert not passed, detail
    assert "name 'MQ163LL/A'" in detail or "wanted 'MQ163LL/A'" in detail \
        or "hedges" in detail, detail


AGENT = textwrap.dedent("""
    import json, os, sys
    import wda
    c = wda.Client(os.environ["PHONESHELL_WDA_URL"]).session("com.apple.Preferences")
    c(name="com.apple.settings.general").click()
    c(className="Cell", name="About").click()
    row = c(className="Cell", name="ProductModel")
    before = row.get(timeout=2).label.split(", ", 1)[1]
    row.click()
    after = row.get(timeout=2).label.split(", ", 1)[1]
    answer = before if sys.argv[1] == "before" else after
    print(json.dumps({"status": "done", "answer": answer, "summary": "read About"}))
""")


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
@pytest.mark.parametrize("which", ["before", "after"])
def test_an_agent_that_tapped_the_row_is_graded_by_the_part_number(tmp_path: Path,
                                                                    which: str) -> None:
    """Through the CLI: the agent taps the row, leaves it showing A3256, and answers the part
    number it read first (passes) or the model number it shows now (fails, saying why)."""
    agent = tmp_path / "agent.py"
    agent.write_text(AGENT)
    with SimServer() as sim:
        done = subprocess.run(
            [sys.executable, "-m", "phoneshell", "run", "--device", sim.url,
             str(ROOT / "environments/settings.about.serial.yaml"), "--runs",
             str(tmp_path / "runs"),
             "--run-id", "R",
             "--agent", f"command:{sys.executable} {agent} {which}"],
            capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == (0 if which == "before" else 1), done.stdout + done.stderr
    results = (tmp_path / "runs/R/results.jsonl").read_text()
    (row,) = [json.loads(line) for line in results.splitlines()]
    answer = next(c for c in row["checks"] if c["kind"] == "answer_matches_device")
    assert row["passed"] == answer["passed"] == (which == "before"), answer["detail"]
    assert ("names 'MQ163LL/A'" if which == "before" else "the notation a tap shows") \
        in answer["detail"], answer["detail"]
