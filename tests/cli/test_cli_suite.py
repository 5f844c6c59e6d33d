"""The whole suite on the simulated iPhone, as CI runs it: the reference finishes pass, the null
agent passes nothing, and the audit log shows every step under its phase."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from phoneshell.audit import actions, read_audit
from phoneshell.records import PHASES
from phoneshell.sim import SimServer
from phoneshell.tasks import Step, load_tasks

ROOT = Path(__file__).resolve().parents[2]
# The action kinds each step sends through the bridge (wait and answer send none).
KINDS = {"home": {"home", "press", "swipe"}, "terminate": {"terminate"}, "launch": {"launch"},
         "open_app": {"launch", "tap"}, "open_url": {"open_url"}, "tap": {"tap"},
         "long_press": {"tap"}, "type": {"type"}, "swipe": {"swipe"}, "press": {"press"},
         "set_picker": {"tap", "type", "swipe"}, "clean_alarms": {"terminate", "launch", "tap"}}
ALREADY = {"home", "terminate"}
"""Steps that send nothing when their effect already holds (the home screen shows, the app is
not running): a read showed there was nothing to do."""


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    return subprocess.run([sys.executable, "-m", "phoneshell", "run", "environments", *args],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=900)


@pytest.fixture(scope="module")
def phone() -> Iterator[SimServer]:
    """The simulated iPhone the suite runs on, kept here so its own ledger can be read."""
    with SimServer() as sim:
        yield sim


@dataclass(frozen=True)
class Played:
    """The reference finishes' run on `phone`, and what the phone held after it."""

    folder: Path
    inputs: int
    """The inputs the phone's own ledger counted."""
    kept: dict[str, object]
    """What the phone keeps across runs (`_persisting`)."""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, phone: SimServer) -> Played:
    runs = tmp_path_factory.mktemp("runs")
    done = run("--device", phone.url, "--agent", "solution", "--runs", str(runs), "--run-id",
               "R")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "80 attempt(s): 80 passed, 0 failed, 0 skipped" in done.stdout
    return Played(runs / "R", phone.ledger()[0], _persisting(phone))


@pytest.fixture(scope="module")
def solution_run(played: Played) -> Path:
    return played.folder


@pytest.mark.suite
def test_the_phones_ledger_holds_exactly_what_the_log_holds(played: Played) -> None:
    log = read_audit(played.folder / "audit.jsonl")
    assert played.inputs == len(actions(log.records))  # every input logged, none missed
    assert [e for e in log.records if e.stage in ("custody", "refused")] == [], \
        "no false alarm over the whole suite"


def contains_in_order(kinds: list[str], steps: tuple[Step, ...]) -> bool:
    remaining = iter(kinds)
    return all(any(kind in KINDS[step.kind] for kind in remaining)
               for step in steps if step.kind in KINDS and step.kind not in ALREADY)


@pytest.mark.suite
def test_every_audit_line_is_whole_and_every_step_is_under_its_phase(solution_run: Path) -> None:
    log = read_audit(solution_run / "audit.jsonl")
    assert log.torn == "" and log.problems == () and log.records
    assert {e.run_id for e in log.records} == {"R"}
    assert all(e.phase in PHASES and e.t > 0 for e in log.records)
    intents = [e.seq for e in log.records if e.stage == "intent"]
    assert len(intents) == len(set(intents)), "seq is unique per action"
    outcomes = {e.seq for e in log.records if e.stage == "outcome"}
    assert outcomes == set(intents), "every intent has its outcome"
    for task in load_tasks([ROOT / "environments"]).tasks:
        mine = [e for e in log.records if e.task_id == task.id and e.stage == "intent"]
        setup = [e.kind for e in mine if e.phase == "setup"]
        agent = [e.kind for e in mine if e.phase == "agent"]
        assert contains_in_order(setup, task.setup), (task.id, "setup", setup)
        assert task.solution is not None
        assert contains_in_order(agent, task.solution), (task.id, "agent", agent)


@pytest.mark.suite
def test_every_attempt_has_its_evidence_and_audit_slice(solution_run: Path) -> None:
    rows = [json.loads(x) for x in (solution_run / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 80 and all(r["passed"] for r in rows)
    for row in rows:
        manifest = json.loads((solution_run / row["evidence"] / "evidence.json").read_text())
        assert manifest["audit"] == "audit.jsonl" and manifest["foreground"]
        # settled, whole, in custody: only the simulator's own clock standing still
        assert manifest["flags"] == ["clock_still"], (row["task_id"], manifest["flags"])


@pytest.mark.suite
def test_the_null_agent_passes_no_task(tmp_path: Path) -> None:
    done = run("--agent", "null", "--runs", str(tmp_path), "--format", "json")
    report = json.loads(done.stdout)
    assert (report["passed"], report["skipped"]) == (0, 0), [
        r["task_id"] for r in report["rows"] if r["passed"]]


def _persisting(sim: SimServer) -> dict[str, object]:
    """What the simulated phone keeps across runs, less what a real phone keeps growing too:
    Notes' Recently Deleted (a phone keeps a deleted note 30 days; its counters follow) and a
    Safari tab's back and forward history (only closing the tab clears it)."""
    state = sim.state()
    stores = json.loads(json.dumps(state["stores"]))
    notes = stores.get("com.apple.mobilenotes", {})
    for key in ("deleted", "clock", "next_id"):
        notes.pop(key, None)
    for tab in stores.get("com.apple.mobilesafari", {}).get("tabs", []):
        for key in ("back", "forward"):
            tab.pop(key)
    return {"stores": stores, "facts": state["facts"]}


@pytest.mark.suite
def test_five_runs_over_on_one_phone_pass_every_attempt_and_leave_it_as_found(
        tmp_path: Path, played: Played, phone: SimServer) -> None:
    # The first run (the module's) made what the apps keep: the stores are made as an app
    # first opens.
    found = played.kept
    assert found["stores"]["com.apple.mobilenotes"]["notes"], "the notes tasks ran"
    done = run("--device", phone.url, "--agent", "solution", "--runs", str(tmp_path),
               "--repeat", "5")
    assert "400 attempt(s): 400 passed, 0 failed, 0 skipped" in done.stdout, \
        done.stdout[-3000:] + done.stderr[-3000:]
    assert _persisting(phone) == found
