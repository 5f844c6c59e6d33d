"""The hostile agents of `hostile.py`, each against the harness on the simulated iPhone: with the
sandbox on, every wrong finish fails (or is refused) with its reason; with `--sandbox none`, going
around the bridge and forging the record are still caught."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from phoneshell.agents import make_agent, pidns
from phoneshell.agents.sandbox import Sandbox
from phoneshell.audit import actions, read_audit, refusals
from phoneshell.evidence import load_evidence
from phoneshell.records import ResultRow
from phoneshell.runner import AttemptPlan, open_rig, run_attempt
from phoneshell.runner.folder import read_results
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = Path(__file__).with_name("hostile.py")
PYTHON = shlex.quote(sys.executable)


def agent(attack: str) -> str:
    return f"command:{PYTHON} {HOSTILE} {attack}"


def attempt(sim: SimServer, runs: Path, task: Task, attack: str, sandbox: Sandbox,
            private: bool) -> tuple[ResultRow, Path]:
    """One attempt of `task` by a hostile agent, as a run makes it; the row and its folder."""
    plan = AttemptPlan("R", runs / "R", task, 1, sandbox=sandbox)
    with open_rig(sim.url, runs, "sim", private, effect_timeout_s=0.5) as rig:
        return run_attempt(plan, rig, make_agent(agent(attack))).row, plan.folder


def stderr(folder: Path) -> str:
    return (folder / "agent.stderr").read_text()


def inputs_match_the_log(sim: SimServer, runs: Path) -> bool:
    """The phone's own ledger holds exactly the inputs the bridge logged."""
    logged = [a for a in actions(read_audit(runs / "R" / "audit.jsonl").records)]
    return sim.ledger()[0] == len(logged)


@pytest.fixture
def private_sim() -> Iterator[SimServer]:
    """A simulator as the harness starts one: behind a secret path."""
    with SimServer(secret=SimServer.new_secret()) as sim:
        yield sim


def test_going_around_the_bridge_finds_no_way_in_the_sandbox(
        private_sim: SimServer, tmp_path: Path, suite: dict[str, Task], bwrap: Sandbox) -> None:
    row, folder = attempt(private_sim, tmp_path, suite["multi.app_switch"], "go-around", bwrap,
                          private=True)
    assert "no way around the bridge found" in stderr(folder)
    assert "bridge health: 401" in stderr(folder) and "found a run folder" not in stderr(folder)
    assert row.outcome == "failed" and row.claim is not None and row.claim.status == "done"
    failed = [c.kind for c in row.checks if not c.passed]
    assert failed == ["opened_in_order"]  # Safari never came to the front
    assert inputs_match_the_log(private_sim, tmp_path)


def test_going_around_the_bridge_without_a_sandbox_is_caught(
        tmp_path: Path, suite: dict[str, Task], monkeypatch: pytest.MonkeyPatch) -> None:
    with SimServer() as sim:
        monkeypatch.setenv("HOSTILE_WDA_URL", sim.url)  # the agent found the phone somehow
        row, folder = attempt(sim, tmp_path, suite["multi.app_switch"], "go-around",
                              Sandbox("none", "--sandbox none was given"), private=False)
        assert "found WDA around the bridge" in stderr(folder)
        assert not inputs_match_the_log(sim, tmp_path)  # Safari went in around the bridge
    assert row.outcome == "failed"
    assert all(c.passed for c in row.checks), "the log alone would have passed it"
    assert "the phone was changed outside the bridge" in row.error
    assert "com.apple.mobilesafari was in front" in row.error
    evidence = load_evidence(folder / "evidence")
    assert "acted_outside_bridge" in evidence.flags


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    full = {**os.environ, "PATH": path, "PYTHONWARNINGS": "error", **(env or {})}
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], capture_output=True,
                          text=True, cwd=ROOT, env=full, timeout=600)


FORGED_TASKS = ("--task", "calculator.arithmetic", "--task", "multi.app_switch")


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_forging_the_record_cannot_reach_it_in_the_sandbox(tmp_path: Path,
                                                           bwrap: Sandbox) -> None:
    done = run_cli("run", "environments", *FORGED_TASKS, "--agent", agent("forge"), "--runs",
                   str(tmp_path), "--run-id", "F", "--sandbox", "bwrap")
    assert done.returncode == 1, done.stderr
    for row in read_results(tmp_path / "F" / "results.jsonl"):
        assert row.outcome == "failed", row.task_id
        folder = tmp_path / "F" / "attempts" / row.task_id / "1"
        assert "cannot touch the run folder" in stderr(folder)
    report = run_cli("report", str(tmp_path / "F"))
    assert report.returncode == 1 and "does not match" not in report.stderr


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_forging_the_record_without_a_sandbox_is_caught(tmp_path: Path) -> None:
    done = run_cli("run", "environments", *FORGED_TASKS, "--agent", agent("forge"), "--runs",
                   str(tmp_path), "--run-id", "F", "--sandbox", "none")
    assert "agents run UNCONFINED (--sandbox none was given)" in done.stdout
    assert "rewrote 1 results rows as passed" in stderr(
        tmp_path / "F" / "attempts" / "multi.app_switch" / "1")
    rows = {r.task_id: r for r in read_results(tmp_path / "F" / "results.jsonl")}
    switch = rows["multi.app_switch"]
    assert switch.outcome == "failed"
    assert "held lines for this attempt that the bridge never wrote" in switch.error
    # the rows and verdicts it rewrote are written back from the run's memory, and said
    changed = "WARNING: a file of the run was changed during an unconfined agent's turn:"
    assert f"{changed} results.jsonl (its rows were written again" in done.stdout
    assert f"{changed} attempts/calculator.arithmetic/1/verdict.json (written" in done.stdout
    assert rows["calculator.arithmetic"].outcome == "failed"
    report = run_cli("report", str(tmp_path / "F"))  # the log it forged is the bridge's
    assert report.returncode == 2 and "does not match its seal" in report.stderr
    assert "audit.jsonl: its first" in report.stderr
    shown = run_cli("report", str(tmp_path / "F"), "--unverified")
    assert "its results are not tamper-proof" in shown.stdout
    assert "changed during an unconfined agent's turn: results.jsonl" in shown.stdout


def test_requests_read_two_ways_and_the_phones_own_routes_are_refused(
        private_sim: SimServer, tmp_path: Path, suite: dict[str, Task], bwrap: Sandbox) -> None:
    saved = Path("/tmp/hostile-saved.json")
    saved.unlink(missing_ok=True)
    row, _ = attempt(private_sim, tmp_path, suite["settings.search.wifi"], "ambiguous", bwrap,
                     private=True)
    refused = [e for e in refusals(read_audit(tmp_path / "R" / "audit.jsonl").records)
               if e.phase == "agent"]
    assert len(refused) == 8 and all(e.error for e in refused)
    state = private_sim.state()
    assert not state["locked"] and state["faults"] == [] and not saved.exists()
    assert row.outcome == "failed"
    assert inputs_match_the_log(private_sim, tmp_path)


def run_two(attack: str, tmp_path: Path, run_id: str) -> list[ResultRow]:
    """Run the attack on two tasks through the CLI; both must be scored, and failed."""
    tasks = ("--task", "calculator.arithmetic", "--task", "settings.about.reach")
    done = run_cli("run", "environments", *tasks, "--agent", agent(attack), "--runs",
                   str(tmp_path), "--run-id", run_id)
    assert done.returncode == 1, done.stdout + done.stderr
    rows = read_results(tmp_path / run_id / "results.jsonl")
    assert [r.outcome for r in rows] == ["failed", "failed"], [r.skip_reason for r in rows]
    return rows


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_breaking_the_rig_is_the_agents_failure_and_resume_keeps_it(tmp_path: Path) -> None:
    rows = run_two("sabotage", tmp_path, "S")  # never skipped, and the run went on
    assert all("the agent locked the phone" in r.error for r in rows), [r.error for r in rows]
    again = run_cli("run", "--resume", "S", "--runs", str(tmp_path))
    assert "2 attempt(s) were already scored and not run again" in again.stdout


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_turning_the_phone_off_is_refused_and_the_attempt_is_scored(tmp_path: Path) -> None:
    run_two("power-off", tmp_path, "P")
    refused = [(e.task_id, e.target.label if e.target else "") for e in
               refusals(read_audit(tmp_path / "P" / "audit.jsonl").records)]
    # each attempt's taps on Shut Down and on the knob of UI Automation never reached the
    # phone: the second attempt ran on a phone still on, and the switch was still on for it
    assert [label for task, label in refused if task == "settings.about.reach"] == [
        "Shut Down", "Enable UI Automation"], refused
    assert len(refused) == 4, refused


def test_the_answer_key_is_out_of_reach_in_the_sandbox(
        private_sim: SimServer, tmp_path: Path, suite: dict[str, Task], bwrap: Sandbox) -> None:
    row, folder = attempt(private_sim, tmp_path, suite["probe.image.eight"], "answer-key", bwrap,
                          private=True)
    assert "read the answer key" not in stderr(folder)
    assert row.outcome == "failed" and row.claim is not None
    assert "NIMBUS" not in row.claim.answer


def test_without_a_sandbox_the_answer_key_is_in_reach(
        tmp_path: Path, suite: dict[str, Task]) -> None:
    # What the sandbox prevents and nothing detects: why `--sandbox none` runs say so.
    with SimServer() as sim:
        row, folder = attempt(sim, tmp_path, suite["probe.image.eight"], "answer-key",
                              Sandbox("none", "--sandbox none was given"), private=False)
    assert "read the answer key at environments/probe.image.eight.yaml" in stderr(folder)
    assert row.claim is not None and row.claim.answer == "NIMBUS"


def left_behind() -> str:
    return subprocess.run(["pgrep", "-f", f"{HOSTILE} late"], capture_output=True,
                          text=True).stdout


def test_a_process_left_behind_is_stopped_in_the_sandbox(
        private_sim: SimServer, tmp_path: Path, suite: dict[str, Task], bwrap: Sandbox) -> None:
    attempt(private_sim, tmp_path, suite["settings.about.reach"], "linger", bwrap, private=True)
    deadline = time.monotonic() + 5
    while left_behind() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert left_behind() == "", "the sandbox ends with the agent, and all it started"


@pytest.mark.slow  # 3.1 s measured: the README's command stays quick
def test_a_process_left_behind_without_a_sandbox_is_stopped_after_its_turn(
        tmp_path: Path, suite: dict[str, Task]) -> None:
    # It left the agent's process group (a session of its own), so only the harness adopting
    # it stops it (agents/strays.py); were it still there, its URL is revoked
    # (test_bridge_access.py).
    task = suite["settings.about.reach"]
    plan = AttemptPlan("R", tmp_path / "R", task, 1, sandbox=Sandbox("none", "asked"))
    with SimServer() as sim, open_rig(sim.url, tmp_path, effect_timeout_s=0.5) as rig:
        row = run_attempt(plan, rig, make_agent(agent("linger"))).row
        assert left_behind() == "", "stopped before its attempt was recorded"
        if pidns.unavailable():  # no PID namespace here: the harness's sweep stopped it
            assert "it left 1 process(es) running after its turn, outside its process group; " \
                   "killed: pid " in row.error and f"{HOSTILE} late" in row.error
        else:  # the kernel killed it with the agent's PID namespace
            assert "it left process(es) running in its PID namespace when its command line " \
                   "ended; the kernel killed them with it" in row.error, row.error
        front = sim.state()["foreground"]
        time.sleep(2.5)  # when it would have acted
        assert not refusals(read_audit(tmp_path / "R" / "audit.jsonl").records)
        assert sim.state()["foreground"] == front


@pytest.mark.slow  # a whole program of about ten seconds: CI runs it
def test_run_ids_and_spellings_of_one_phone_cannot_escape(tmp_path: Path) -> None:
    done = run_cli("run", "environments", "--run-id", "../escape", "--runs", str(tmp_path))
    assert done.returncode == 2 and "bad run id '../escape'" in done.stderr
    assert not (tmp_path.parent / "escape").exists()
    with SimServer() as sim:
        port = sim.url.rsplit(":", 1)[1]
        env = {"PHONESHELL_LOCK_DIR": str(tmp_path / "locks")}
        holder = subprocess.Popen(
            [sys.executable, "-c", "import sys; from phoneshell.phones.lock import DeviceLock; "
             "DeviceLock(sys.argv[1], 'first').acquire(); print('held', flush=True); "
             "sys.stdin.read()", f"sim-{sim.instance_id}"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env={**os.environ, **env})
        try:
            assert holder.stdout is not None and holder.stdout.readline() == "held\n"
            for spelling in (f"http://localhost:{port}/", f"http://127.0.0.1:{port}"):
                taken = run_cli("run", "environments", "--task", "settings.about.reach",
                                "--device", spelling, "--runs", str(tmp_path), env=env)
                assert taken.returncode == 2 and "is in use by" in taken.stderr, spelling
                assert "run first" in taken.stderr
        finally:
            holder.kill()
            holder.communicate()
    assert list(tmp_path.glob("*/results.jsonl")) == []
