"""An agent that flips Settings switches it was not asked to (Wi-Fi off on the Wi-Fi page) leaves
a phone every later network task fails on, on a real one. The bridge logs which switch it
tapped and whether it was on; the runner sets it back after the attempt, or says why it cannot.
Played through the runner on one simulated iPhone whose state persists across attempts."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import lxml.html

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.base import AGENTS
from phoneshell.agents.reference import SolutionAgent
from phoneshell.device import Phone
from phoneshell.device.switches import set_switch
from phoneshell.records import ResultRow
from phoneshell.runner.folder import read_results
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.sim import SimServer

SETTINGS = "com.apple.Preferences"
FLIPPED = ("Wi-Fi", "Ask to Join Networks")
"""Two switches on the Wi-Fi page: the first is the page's own, the second is found nowhere
else."""


class Flipper(SolutionAgent):
    """Plays the reference finish, then taps the knob of each switch in `FLIPPED` on the screen
    it ends on."""

    name = "flipper"

    def run(self, context: AgentContext) -> AgentResult:
        result = super().run(context)
        if context.task.app == SETTINGS:
            phone = Phone(context.wda_url)
            for label in FLIPPED:
                page = phone.page()
                row = next(e for e in page.on_screen() if e.label == label
                           and e.type == "XCUIElementTypeSwitch")
                phone.tap(row.x + row.width - 30, row.y + row.height // 2)  # its knob
        return result


AGENTS.register("flipper")(lambda arg: Flipper())


def switches(sim: SimServer) -> dict[str, object]:
    return dict(sim.state()["stores"].get(SETTINGS, {}))  # type: ignore[arg-type]


def run(tmp_path: Path, environments: Path, task_ids: tuple[str, ...], agent: str,
        sim: SimServer) -> dict[str, ResultRow]:
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for task_id in task_ids:
        shutil.copy(environments / f"{task_id}.yaml", tasks)
    run_suite(RunOptions(paths=(str(tasks),), agent=agent, device=sim.url, runs_dir=tmp_path,
                         run_id="R"), lambda line: None)
    return {r.task_id: r for r in read_results(tmp_path / "R" / "results.jsonl")}


def test_a_switch_the_agent_flipped_is_set_back_and_one_it_cannot_find_is_said(
        tmp_path: Path, environments: Path) -> None:
    with SimServer() as sim:
        rows = run(tmp_path, environments, ("settings.wifi.switch_visible",), "flipper", sim)
        stored = switches(sim)
    row = rows["settings.wifi.switch_visible"]
    assert row.passed and row.teardown is not None and row.teardown.ok, row
    assert row.teardown.switched == (
        "Wi-Fi: set back on",
        "Ask to Join Networks: was on; not on Settings' first page or its own page, so left as "
        "the agent left it")
    assert stored.get("wifi", True) is True and stored.get("ask_to_join") is False, stored
    html = tmp_path / "report.html"
    shown = subprocess.run([sys.executable, "-m", "phoneshell", "report", str(tmp_path / "R"),
                            "--html", str(html)], capture_output=True, text=True, timeout=300)
    assert shown.returncode == 0, shown.stderr
    said = lxml.html.fromstring(html.read_bytes()).text_content()
    assert "Settings switches the agent tapped: Wi-Fi: set back on; Ask to Join Networks" in said


def test_an_agent_that_flips_nothing_costs_nothing(tmp_path: Path, environments: Path) -> None:
    with SimServer() as sim:
        rows = run(tmp_path, environments, ("settings.wifi.switch_visible",), "solution", sim)
        launches = sim.latency.tally.take()
    row = rows["settings.wifi.switch_visible"]
    assert row.passed and row.teardown is not None and row.teardown.switched == ()
    assert sum(c.count for phase in launches.values() for route, c in phase.items()
               if route == "POST /wda/apps/launch") == 1, "only the agent's own launch"


def test_set_switch_sets_a_first_page_switch_and_finds_no_other(sim: SimServer) -> None:
    phone = Phone(sim.url, effect_timeout_s=1.0)
    assert set_switch(phone, "Airplane Mode", True)
    assert switches(sim)["airplane"] is True
    assert set_switch(phone, "Airplane Mode", False) and switches(sim)["airplane"] is False
    assert set_switch(phone, "Bluetooth", True)  # already on: nothing tapped
    assert not set_switch(phone, "Bold Text", False)  # on Display & Brightness, not looked for
