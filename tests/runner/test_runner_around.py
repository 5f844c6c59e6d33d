"""A rig fault an agent causes around the bridge is its failure; an app the rig cannot read is
not scored.

On a `--device` URL (here a simulator on loopback, as a standalone `phoneshell sim` or a phone
behind iproxy is) a program the sandbox confines can still reach WDA without the bridge: a lock
or a fault it switches there is found after its turn, and fails the attempt (red team 75), and
the run goes on. An app WDA cannot read from the attempt's start fails no honest agent: not
scored, naming the app; one the run read whole before stays the agent's to leave readable.
"""

from __future__ import annotations

import json
from pathlib import Path

from cli_process import run_cli

from phoneshell.records import AuditEvent
from phoneshell.runner.endstate import seen_whole, unread_from_start
from phoneshell.sim import SimServer

CALC = "com.apple.calculator"
TASKS = ("environments/calculator.arithmetic.yaml", "environments/calculator.percentage.yaml")


def _around(tmp_path: Path, url: str, route: str, body: str) -> Path:
    """A program that POSTs `body` to `url + route`, straight to WDA, then claims done."""
    agent = tmp_path / "around.py"
    agent.write_text(
        "import os, urllib.request\n"
        f"urllib.request.urlopen(urllib.request.Request({url + route!r}, data={body!r}.encode(),"
        " method='POST', headers={'Content-Type': 'application/json'}), timeout=10).read()\n"
        "os.system('phoneshell finish --status done --answer 423')\n")
    return agent


def _rows(runs: Path, run_id: str) -> list[dict[str, object]]:
    lines = (runs / run_id / "results.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def test_a_lock_sent_around_the_bridge_fails_the_agent_and_the_run_goes_on(tmp_path: Path,
                                                                          ) -> None:
    with SimServer() as sim:
        agent = _around(tmp_path, sim.url, "/wda/lock", "{}")
        done = run_cli("run", *TASKS, "--device", sim.url, "--agent",
                       f"command:python3 {agent}", "--sandbox", "none", "--runs",
                       str(tmp_path / "runs"), "--run-id", "L")
    assert done.returncode == 1, done.stdout + done.stderr  # done, not all passed; not stopped
    rows = _rows(tmp_path / "runs", "L")
    assert [r["outcome"] for r in rows] == ["failed", "failed"]
    assert all("around the bridge" in str(r["error"]) and "locked" in str(r["error"])
               for r in rows), rows


def test_a_fault_switched_around_the_bridge_fails_the_agent(tmp_path: Path) -> None:
    with SimServer() as sim:
        agent = _around(tmp_path, sim.url, "/phoneshell/sim/faults",
                        '{"on": ["truncated-source"]}')
        done = run_cli("run", TASKS[0], "--device", sim.url, "--agent",
                       f"command:python3 {agent}", "--sandbox", "none", "--runs",
                       str(tmp_path / "runs"), "--run-id", "T")
    assert done.returncode == 1, done.stdout + done.stderr
    [row] = _rows(tmp_path / "runs", "T")
    assert row["outcome"] == "failed", row
    assert "cut-off page sources" in str(row["error"]) and "around the bridge" in str(
        row["error"])


def test_an_app_unreadable_from_the_start_is_not_scored(tmp_path: Path) -> None:
    with SimServer(faults=[f"unreadable={CALC}"]) as sim:
        done = run_cli("run", TASKS[0], "--device", sim.url, "--agent", "solution", "--runs",
                       str(tmp_path / "runs"), "--run-id", "U")
    assert done.returncode == 1, done.stdout + done.stderr
    [row] = _rows(tmp_path / "runs", "U")
    assert row["outcome"] == "skipped", row
    assert f"WDA could not read {CALC} on this phone from the attempt's start" in str(
        row["skip_reason"])


def _event(seq: int, phase: str, kind: str, stage: str, **fields: object) -> AuditEvent:
    return AuditEvent(run_id="R", task_id="t", attempt=1, phase=phase, seq=seq, t=0.0,  # type: ignore[arg-type]
                      kind=kind, stage=stage, **fields)  # type: ignore[arg-type]


OPENED_UNREAD = (
    _event(1, "agent", "launch", "intent", app_before="com.apple.springboard",
           screen_before="aa", params={"bundle_id": CALC}),
    _event(1, "agent", "launch", "outcome", params={"bundle_id": CALC}, ok=True),
)


def test_only_an_app_never_read_whole_and_unread_before_the_agent_acted_is_the_rigs() -> None:
    assert unread_from_start(CALC, OPENED_UNREAD, ())
    # read whole earlier in the run: the agent's to leave readable
    assert not unread_from_start(CALC, OPENED_UNREAD, (CALC,))
    # read whole in this attempt, before the agent made it unreadable
    whole = _event(2, "agent", "tap", "intent", app_before=CALC, screen_before="bb")
    assert not unread_from_start(CALC, (*OPENED_UNREAD, whole), ())
    # the agent typed (or acted in another app) before it opened the app
    typed = _event(0, "agent", "type", "intent", app_before="com.apple.springboard",
                   params={"text": "x"})
    assert not unread_from_start(CALC, (typed, *OPENED_UNREAD), ())
    # something changed the phone around the bridge
    custody = _event(3, "agent", "other", "custody", app_after=CALC)
    assert not unread_from_start(CALC, (*OPENED_UNREAD, custody), ())
    assert seen_whole((whole,)) == {CALC}
