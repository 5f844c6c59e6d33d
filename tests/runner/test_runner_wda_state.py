"""WDA's session state is part of the phone's start state (red team 87): the WDA settings an agent
posts and a session it opens are put back by the harness after its turn, so the teardown's
set-back works and the next agent, honest, is not failed by them; a run finds and puts back
settings an earlier client left; and what a teardown could not set back is said at the run's
end. Played by `wda_state_agent.py` (a program over facebook-wda) through the runner, on a
simulated iPhone whose own state is the witness."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
import wda

from phoneshell.records import ResultRow
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.runner.wda_state import DEFAULTS
from phoneshell.sim import SimServer
from phoneshell.sim.settings import DEFAULTS as SIM_DEFAULTS

AGENT = Path(__file__).with_name("wda_state_agent.py")
PREFS = "com.apple.Preferences"
POISON = {"shouldUseCompactResponses": False, "elementResponseAttributes": "attribute/bogus"}


def run(sim: SimServer, runs: Path, environments: Path, mode: str, *tasks: str,
        repeat: int = 1) -> tuple[list[ResultRow], list[str]]:
    """The rows and the lines of a run of `tasks` on `sim`, the agent doing `mode`."""
    lines: list[str] = []
    program = f"{shlex.quote(sys.executable)} {shlex.quote(str(AGENT))} {mode} {sim.url}"
    summary = run_suite(RunOptions(paths=(str(environments),), task_globs=tasks,
                                   device=sim.url, runs_dir=runs, run_id="R", repeat=repeat,
                                   agent=f"command:{program}"), lines.append)
    return list(summary.rows), lines


def settings(sim: SimServer) -> dict[str, object]:
    """WDA's settings in the session it reports, read around the bridge."""
    client = wda.Client(sim.url)
    value = client.http.get(f"session/{client.status()['sessionId']}/appium/settings").value
    assert isinstance(value, dict)
    return value


def brightness(sim: SimServer) -> object:
    return sim.state()["stores"][PREFS]["brightness"]  # type: ignore[index,call-overload]


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_settings_an_agent_posted_are_put_back_for_the_set_back_and_the_next_agent(
        tmp_path: Path, environments: Path) -> None:
    with SimServer() as sim:
        (poisoned, honest), lines = run(sim, tmp_path, environments, "poison",
                                        "settings.fonts.reach", "settings.wifi.switch_visible")
        assert brightness(sim) == pytest.approx(0.7)  # set back, as the run found it
        assert {k: settings(sim)[k] for k in DEFAULTS} == DEFAULTS  # and not left to a next run
    assert poisoned.outcome == "failed"
    assert poisoned.error == "the owner's settings changed: Brightness (was 70%)"
    assert poisoned.teardown is not None and poisoned.teardown.ok, poisoned.teardown
    assert poisoned.teardown.switched == ("Brightness: set back to 70%",)
    assert poisoned.teardown.stays == ()
    assert honest.outcome == "passed", honest.error  # its finds answer as WDA's always do
    assert not any("still not as the run found them" in line for line in lines), lines


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_session_an_agent_opened_for_an_app_does_not_end_the_next_agents_app(
        tmp_path: Path, environments: Path) -> None:
    # Attempt 1 opens a session for Calculator and gives up; attempt 2 works it out, then opens
    # a session of its own: WDA ends the one before, and terminated Calculator with it.
    with SimServer() as sim:
        (gave_up, honest), _ = run(sim, tmp_path, environments, "calculator",
                                   "calculator.arithmetic", repeat=2)
    assert gave_up.outcome == "failed"
    assert honest.outcome == "passed", (honest.error, honest.checks)


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_run_puts_back_settings_an_earlier_client_left(tmp_path: Path,
                                                         environments: Path) -> None:
    with SimServer() as sim:
        # what a run stopped before its teardown, or a client around the bridge, left
        client = wda.Client(sim.url)
        client.http.post(f"session/{client.session().session_id}/appium/settings",
                         {"settings": POISON})
        (honest,), lines = run(sim, tmp_path, environments, "poison",
                               "settings.wifi.switch_visible")
    assert honest.outcome == "passed", honest.error
    assert ("WDA's session held settings an earlier client changed (elementResponseAttributes, "
            "shouldUseCompactResponses): put back to WDA's defaults before the first attempt"
            in "\n".join(lines)), lines


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_set_back_that_failed_is_said_at_the_runs_end(tmp_path: Path,
                                                        environments: Path) -> None:
    with SimServer() as sim:
        (dimmed,), lines = run(sim, tmp_path, environments, "unread", "settings.fonts.reach")
        assert brightness(sim) == pytest.approx(0.1)
    assert dimmed.teardown is not None
    assert dimmed.teardown.stays == ("Brightness (was 70%)",), dimmed.teardown
    assert ("still not as the run found them: Brightness (was 70%), as settings.fonts.reach "
            "attempt 1's agent left it" in "\n".join(lines)), lines


def test_the_settings_put_back_are_wdas_defaults() -> None:
    assert {name: SIM_DEFAULTS[name] for name in DEFAULTS} == DEFAULTS


@pytest.mark.slow  # 2.1 s measured: the README's command stays quick
def test_reference_finishes_pay_nothing_for_it(tmp_path: Path, environments: Path) -> None:
    # They open no session and post no setting: the only session is the one the harness makes
    # before the first attempt (it knows its settings: none is read), and none is put back.
    with SimServer() as sim:
        summary = run_suite(RunOptions(paths=(str(environments),), device=sim.url,
                                       task_globs=("settings.wifi.switch_visible",
                                                   "calculator.arithmetic"),
                                       runs_dir=tmp_path, run_id="R"), lambda _: None)
        routes = {route: count.count for phase in sim.latency.tally.take().values()
                  for route, count in phase.items()}
    assert [row.outcome for row in summary.rows] == ["passed", "passed"]
    assert routes.get("POST /session") == 1
    assert not {"GET /appium/settings", "POST /appium/settings"} & routes.keys(), routes
