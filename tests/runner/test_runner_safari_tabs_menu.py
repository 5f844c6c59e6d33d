"""Safari's Tabs button held, through the runner: the hold shows the button's menu, as a
phone's does, so safari.tabs.open_switcher is not passed by it (red team 54, finding 6b), while
its reference finish (a tap) still passes; and no agent closes the owner's tabs, by that menu or
by the overview (the run keeps the owner's tabs by count alone, `runner.tidy`), while the run
still closes the tabs its agents opened."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import wda
from attempt_rig import run_one

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.reference import SolutionAgent
from phoneshell.audit import read_audit
from phoneshell.evidence import Claim
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

SAFARI = "com.apple.mobilesafari"
ROOT = Path(__file__).resolve().parents[2]
OWNERS = ("https://example.com/", "https://blolabel.ai/probe/one/")
"""The phone's own tabs, open before the run."""


class HoldsTabs:
    """Opens Safari and holds its Tabs button, and claims the overview is up."""

    name = "holds-tabs"

    def run(self, context: AgentContext) -> AgentResult:
        session = wda.Client(context.wda_url).session(SAFARI)
        session(name="TabOverviewButton").get(timeout=5).tap_hold(1.0)
        return AgentResult(ran=True, turns=1, claim=Claim(status="done", summary="shown"))


def test_a_hold_on_tabs_alone_does_not_pass_open_switcher(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    row = run_one(sim, tmp_path, suite["safari.tabs.open_switcher"], HoldsTabs()).row
    assert row.outcome == "failed"
    assert [c.kind for c in row.checks if not c.passed] == ["regex_on_screen"]


def test_the_reference_finish_still_passes(sim: SimServer, tmp_path: Path,
                                           suite: dict[str, Task]) -> None:
    row = run_one(sim, tmp_path, suite["safari.tabs.open_switcher"], SolutionAgent()).row
    assert row.outcome == "passed", [(c.kind, c.detail) for c in row.checks if not c.passed]


CLOSER = f"""
import sys
import wda

session = wda.Client(__import__("os").environ["PHONESHELL_WDA_URL"]).session({SAFARI!r})
tries = []


def refused(act):
    try:
        act()
    except wda.WDAError as exc:
        print("refused:", exc, file=sys.stderr)
        return
    raise SystemExit("not refused")


session(name="TabOverviewButton").get(timeout=5).tap_hold(1.0)
refused(lambda: session(label="Close All 3 Tabs", className="Button").get(timeout=5).click())
refused(lambda: session(label="Close This Tab", className="Button").get(timeout=5).click())
session.tap(60, 200)  # the menu goes
session(name="TabOverviewButton").get(timeout=5).click()  # the overview
card = session(className="Cell").get(timeout=5).bounds
refused(lambda: session(name="closeTabButton").get(timeout=5).click())
refused(lambda: session.swipe(card.x + card.width - 20, card.y + 110, card.x + 5,
                              card.y + 110, 0.2))
"""
"""A command agent that tries every way to close tabs: the menu's Close All and Close This
Tab, then the overview's Close on the first card (the owner's) and a swipe left on it."""


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_no_agent_closes_the_owners_tabs_and_the_run_still_closes_its_own(
        tmp_path: Path) -> None:
    script = tmp_path / "closer.py"
    script.write_text(CLOSER)
    with SimServer() as sim:
        session = wda.Client(sim.url).session(SAFARI)
        for url in OWNERS:
            session.open_url(url)
        session.app_terminate(SAFARI)
        done = subprocess.run(
            [sys.executable, "-m", "phoneshell", "run", "environments", "--task",
             "safari.tabs.open_switcher", "--agent", f"command:{sys.executable} {script}",
             "--device", sim.url, "--runs", str(tmp_path / "runs"), "--sandbox", "none"],
            cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr  # it left the overview up
        tabs = sim.state()["stores"][SAFARI]["tabs"]  # type: ignore[index]
        assert [tab["url"] for tab in tabs] == list(OWNERS)  # type: ignore[index]
    # the run's own tab, which setup's page loaded into, and the one it put in front again
    # after reading the tabs (its agent opened the overview: `owner_tabs`)
    assert "closed the 2 Safari tab(s) this run opened; 2 open, as the run found them" \
        in done.stdout + done.stderr
    audit = next((tmp_path / "runs").glob("*/audit.jsonl"))
    refused = [e for e in read_audit(audit).records if e.stage == "refused"]
    # facebook-wda taps the element's point when its click is refused: each is refused twice
    assert list(dict.fromkeys((e.phase, e.kind, e.target.label if e.target else "")
                              for e in refused)) == [("agent", "tap", "Close All 3 Tabs"),
                                  ("agent", "tap", "Close This Tab"),
                                  ("agent", "tap", "Close"),
                                  ("agent", "swipe", "Example Domain")]
    assert all("close Safari tabs" in e.error for e in refused)
