"""Settings > Battery is iOS 26's page: the charge as a large readout at the top with when the
phone last charged, Daily Usage, then Battery Health, Charging, Power Mode (where Low Power Mode
moved) and the Battery Percentage switch; no "Battery Level" row, no Last 24 Hours. The task
reading the level reads the readout, as it would on a real iOS 26 phone, and is graded by it:
the reference finish passes, another percentage fails, and the answer follows the phone."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
import wda

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.base import AGENTS
from phoneshell.agents.reference import SolutionAgent
from phoneshell.attack import attacks
from phoneshell.device import Phone
from phoneshell.device.probes import run_probe
from phoneshell.device.value_probes import BATTERY_READOUT
from phoneshell.records import ResultRow
from phoneshell.runner.folder import read_results
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.sim import DeviceFacts, SimServer
from phoneshell.tasks.load import load_task

TASK = "settings.battery.percentage"


def _battery(client: wda.Client) -> wda.Client:
    settings = client.session("com.apple.Preferences")
    settings(name="com.apple.settings.battery").click()
    assert settings(className="NavigationBar", name="Battery").wait(timeout=2)
    return settings


def test_the_battery_page_is_ios_26s(client):
    settings = _battery(client)
    cells = [e.label for e in settings(className="Cell").find_elements() if e.displayed]
    assert cells[0] == "87%, Last Charged to 100%, 8:12 AM", cells  # the readout first
    assert not [c for c in cells if c.startswith("Battery Level")], cells
    assert not settings(className="Switch", label="Low Power Mode").exists
    assert not settings(labelContains="Last 24 Hours").exists
    assert cells.index("View All Battery Usage") < cells.index("Battery Health, Normal") \
        < cells.index("Charging") < cells.index("Power Mode"), cells
    settings(label="Power Mode", className="Cell").click()
    assert settings(className="NavigationBar", name="Power Mode").wait(timeout=2)
    assert settings(className="Switch", label="Low Power Mode").get(timeout=1).value == "0"
    assert settings(className="Switch", label="Adaptive Power").exists


def test_the_probe_reads_the_readout_and_follows_the_phone():
    for level, shown in ((0.87, "87%"), (0.42, "42%"), (1.0, "100%"), (0.05, "5%")):
        with SimServer(facts=replace(DeviceFacts(), battery_level=level)) as sim:
            assert run_probe(Phone(sim.url), "battery_level", "") == shown


def test_a_usage_row_is_never_read_as_the_level():
    assert BATTERY_READOUT.match("87%") and BATTERY_READOUT.match("87%, Last Charged to 100%")
    assert not BATTERY_READOUT.match("Safari, 24%")
    assert not BATTERY_READOUT.match("Last Charged to 100%, 8:12 AM")


class _OtherPercentage(SolutionAgent):
    """The reference finish, answering a percentage the phone does not show."""

    name = "battery-other-percentage"

    def run(self, context: AgentContext) -> AgentResult:
        result = super().run(context)
        assert result.claim is not None
        return replace(result, claim=replace(result.claim, answer="86%"))


AGENTS.register(_OtherPercentage.name)(lambda arg: _OtherPercentage())


def _run(tmp_path: Path, environments: Path, agent: str, sim: SimServer) -> ResultRow:
    tasks = tmp_path / agent / "tasks"
    tasks.mkdir(parents=True)
    shutil.copy(environments / f"{TASK}.yaml", tasks)
    run_suite(RunOptions(paths=(str(tasks),), agent=agent, device=sim.url,
                         runs_dir=tmp_path / agent, run_id="R"), lambda line: None)
    (row,) = read_results(tmp_path / agent / "R" / "results.jsonl")
    return row


def _answer_check(row: ResultRow) -> tuple[bool, str]:
    (check,) = [c for c in row.checks if c.kind == "answer_matches_device"]
    return check.passed, check.detail


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_the_task_passes_the_reference_and_fails_another_percentage(tmp_path, environments):
    with SimServer() as sim:
        row = _run(tmp_path, environments, "solution", sim)
        assert row.outcome == "passed" and row.passed, row
        other = _run(tmp_path, environments, _OtherPercentage.name, sim)
    assert other.outcome == "failed" and _answer_check(other)[0] is False, other
    with SimServer(facts=replace(DeviceFacts(), battery_level=0.42)) as sim:
        # the reference finish reads this phone's level, never the reference phone's 87%
        moved = _run(tmp_path / "42", environments, "solution", sim)
    passed, detail = _answer_check(moved)
    assert moved.outcome == "passed" and passed and "answer '42%'" in detail, detail


def test_the_shotgun_attack_answers_every_percentage(environments):
    # a finish listing every level must still fail: the attack family knows the probe's range
    task = load_task(environments / f"{TASK}.yaml")
    shot = next(a for a in attacks([task], ("shotgun",)))
    listed = (shot.answer or "").split(", ")
    assert "0%" in listed and "42%" in listed and "100%" in listed, listed[:5]
