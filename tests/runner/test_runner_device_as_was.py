"""An agent that sends the phone a state through WDA (light or dark, a simulated location) is
judged by what the phone reads after the attempt, as a Settings switch is: a change sent to a
phone already so, one WDA refused, or one undone passes the owner watch, and the set-back says
it found the state as it was; one the phone shows changed fails and is set back; one that
cannot be read fails, never passes (red team 74). Played through the runner on one simulated
iPhone, the agent over facebook-wda."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import wda

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.base import AGENTS
from phoneshell.agents.reference import SolutionAgent
from phoneshell.device import Phone
from phoneshell.errors import DeviceError, StepError
from phoneshell.records import ResultRow
from phoneshell.runner.folder import read_results
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.runner.setback import set_back_device
from phoneshell.sim import SimServer

TASK = "weather.open"
PARIS = {"latitude": 48.85, "longitude": 2.35}
SENDS: dict[str, tuple[tuple[str, str, object], ...]] = {
    "same": (("POST", "/wda/device/appearance", {"name": "light"}),),
    "back": (("POST", "/wda/device/appearance", {"name": "dark"}),
             ("POST", "/wda/device/appearance", {"name": "light"})),
    "refused": (("POST", "/wda/device/appearance", {"name": 5}),),
    "located": (("POST", "/wda/simulatedLocation", PARIS),
                ("DELETE", "/wda/simulatedLocation", None)),
    "dark": (("POST", "/wda/device/appearance", {"name": "dark"}),),
}
"""What the agent sends after opening Weather, by its argument: the same appearance the phone
has, dark and light again, a body WDA refuses (400), a location simulated and taken away, and
dark left on."""


class Sender(SolutionAgent):
    """Plays the reference finish, then sends the requests `SENDS` names for its argument."""

    def __init__(self, what: str) -> None:
        super().__init__()
        self.name, self.what = f"sender:{what}", what

    def run(self, context: AgentContext) -> AgentResult:
        result = super().run(context)
        http = wda.Client(context.wda_url).http
        for method, path, body in SENDS[self.what]:
            with contextlib.suppress(wda.WDAError):  # refused: the phone stays as it was
                http.fetch(method, path, body)
        return result


AGENTS.register("sender")(lambda arg: Sender(arg))


def run(tmp_path: Path, environments: Path, what: str, sim: SimServer) -> ResultRow:
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    shutil.copy(environments / f"{TASK}.yaml", tasks)
    run_suite(RunOptions(paths=(str(tasks),), agent=f"sender:{what}", device=sim.url,
                         runs_dir=tmp_path, run_id="R"), lambda line: None)
    (row,) = read_results(tmp_path / "R" / "results.jsonl")
    return row


@pytest.mark.parametrize(("what", "state", "was"), [
    ("same", "appearance", "light"), ("back", "appearance", "light"),
    ("refused", "appearance", "light"), ("located", "location", "none")])
@pytest.mark.slow  # 2.5 s measured: the README's command stays quick
def test_a_state_the_phone_reads_as_found_passes_and_is_not_set_back(
        tmp_path: Path, environments: Path, what: str, state: str, was: str) -> None:
    with SimServer() as sim:
        row = run(tmp_path, environments, what, sim)
        with sim.lock:
            after = (sim.phone.appearance, sim.phone.simulated_location)
    assert row.outcome == "passed", row.error
    assert row.teardown is not None and row.teardown.ok, row.teardown
    assert row.teardown.switched == (f"{state}: found {was} as it was; nothing set back",)
    assert row.teardown.as_was == (("device", state, ""),)
    assert after == ("light", None)


@pytest.mark.slow  # 2.4 s measured: the README's command stays quick
def test_a_state_the_phone_shows_changed_fails_and_is_set_back(
        tmp_path: Path, environments: Path) -> None:
    with SimServer() as sim:
        row = run(tmp_path, environments, "dark", sim)
        with sim.lock:
            after = sim.phone.appearance
    assert row.outcome == "failed"
    assert row.error == "the owner's settings changed: the phone's appearance"
    assert row.teardown is not None and row.teardown.switched == (
        "appearance: set back to light",) and row.teardown.as_was == ()
    assert after == "light"


def test_a_state_that_cannot_be_read_after_the_attempt_is_never_taken_as_it_was(
        sim: SimServer) -> None:
    errors: list[str] = []

    def keep(what: str, do: Callable[[], object]) -> object:
        try:
            return do()
        except (StepError, DeviceError) as exc:
            errors.append(f"{what}: {exc}")
            return None

    phone = Phone(sim.url, effect_timeout_s=1.0)
    sim.fault_on("gone")  # WDA stops answering: nothing reads
    said, as_was, stays = set_back_device(phone, ("appearance",), {"appearance": "light"}, keep)
    assert as_was == []
    assert stays == ["the phone's appearance (was light)"]  # and the run's end says so
    assert said == ["appearance: was light; could not be read after the attempt, nor set back"]
    assert errors and errors[0].startswith("reading the phone's appearance")
