"""The Safari tabs a run's agents open are closed when the run ends, whatever its tasks: an agent
of a Clock or Settings task that opens URLs (`POST /url` takes a new tab each time) left them
on the phone, run after run, when no task of the run used Safari (a Safari holding about 500
turns off its new-tab control). The phone's own tabs stay, as they were; a run whose agents stay
out of Safari reads its tabs no more than before (only the owner watch's read before its first
attempt). Played as facebook-wda finishes through the bridge, in runs played as `phoneshell run`
plays them on one simulated iPhone; the phone's Safari store is the witness."""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from played_finish import Played
from runner.finish_then import FinishThen
from runner.owners_tabs_phone import OWNERS, owners_phone, tab_urls
from runner.phone_run import play
from runner.test_owner_going import CLOCK, press

from phoneshell.audit import read_audit
from phoneshell.runner import tidy
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

pytestmark = pytest.mark.slow  # whole runs on the simulator: the README's command stays quick

ALARMS = "clock.tab.alarms"


def opens(*urls: str) -> Played:
    """An agent of Go to the Alarms tab that opens `urls` from outside Safari, then does it."""
    def finish(client: wda.Client) -> str:
        session = client.session()
        for url in urls:
            session.open_url(url)
        session.app_activate(CLOCK)
        press(session, "Alarms")
        return ""
    return Played(finish)


def safari_opened_by_the_run(runs: Path) -> list[str]:
    """The phase of each launch of Safari the run logged outside its attempts."""
    return [e.phase for e in read_audit(runs / "R" / "audit.jsonl").records
            if not e.task_id and e.stage == "intent" and e.kind == "launch"
            and e.params.get("bundle_id") == tidy.SAFARI]


def test_tabs_an_agent_opens_in_a_run_without_safari_are_closed(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    assert not tidy.uses_safari(suite[ALARMS])
    owners_phone(sim)
    rows, end = play(sim, tmp_path, [
        (suite[ALARMS], opens("https://example.com/a", "https://example.com/b")),
        (suite[ALARMS], FinishThen())])
    assert all(row.passed for row in rows), [(row.error, row.checks) for row in rows]
    assert tab_urls(sim) == list(OWNERS), "the agent's two are closed, the owner's kept"
    assert "closed the 2 Safari tab(s) this run opened; 3 open, as the run found them" in end, end


def test_a_long_run_without_safari_closes_what_its_agents_opened_as_it_goes(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every `TIDY_EVERY` attempts (2 here, 100 in the suite), and at the end, the run closes
    the tabs opened since, when an attempt since may have had Safari in front: after the first
    two (the first opened one), and after the last two (the fourth opened one); after a stretch
    whose agents stayed in Clock it reads nothing."""
    monkeypatch.setattr(tidy, "TIDY_EVERY", 2)
    owners_phone(sim)
    honest, opener = (suite[ALARMS], FinishThen()), (suite[ALARMS], opens("https://example.com/"))
    rows, _ = play(sim, tmp_path / "mixed", [opener, honest, honest, opener])
    assert all(row.passed for row in rows), [(row.error, row.checks) for row in rows]
    assert tab_urls(sim) == list(OWNERS)
    assert safari_opened_by_the_run(tmp_path / "mixed") == ["probe", "teardown", "teardown"]
    play(sim, tmp_path / "stayed", [opener, honest, honest, honest])
    assert tab_urls(sim) == list(OWNERS)
    assert safari_opened_by_the_run(tmp_path / "stayed") == ["probe", "teardown"]
