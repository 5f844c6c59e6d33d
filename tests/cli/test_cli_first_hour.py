"""A user's first hour with `phoneshell run`: typos get a "did you mean", help lists what it
promises, a run says how to read it, and Ctrl-C keeps what was recorded and says how to resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_process import CLI_ENV, ended, reap, send_stop

from phoneshell.agents import BUILTIN

ROOT = Path(__file__).resolve().parents[2]


def phoneshell(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None
               ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONWARNINGS": "error", **(env or {})}
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=300)


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_mistyped_task_gets_a_did_you_mean_and_a_list_that_exists(tmp_path: Path) -> None:
    done = phoneshell("run", "environments", "--task", "settings.about.rech", "--runs",
                      str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "error: no task id matches 'settings.about.rech'; did you mean 'settings.about.reach'?",
        "hint: `phoneshell check-tasks --list PATHS` lists every task id"]
    # one glob of several matching nothing would silently drop tasks: it is refused too
    one_of_two = phoneshell("run", "environments", "--task", "settings.*", "--task",
                            "calculator.arithmatic", "--runs", str(tmp_path))
    assert one_of_two.returncode == 2
    assert "did you mean 'calculator.arithmetic'?" in one_of_two.stderr
    listed = phoneshell("check-tasks", "--list", "environments")
    assert listed.returncode == 0
    lines = listed.stdout.splitlines()
    assert len(lines) == 81 and lines[-1] == "80 task(s) valid, 0 error(s), 0 warning(s)"
    assert lines[0].split() == ["books.search", "environments/books.search.yaml"]


def test_a_missing_path_is_reported_once_without_a_line() -> None:
    done = phoneshell("run", "nosuch", "--task", "x")
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["nosuch: error: no such file or folder",
                                        "error: 1 error(s) in the task files above",
                                        "hint: `phoneshell check-tasks PATH` lists every problem"]


def test_repeat_zero_is_refused() -> None:
    done = phoneshell("run", "environments", "--repeat", "0")
    assert done.returncode == 2
    assert "argument --repeat: 0 attempts per task would run nothing; give 1 or more" in \
        done.stderr


def test_run_help_lists_every_registered_agent() -> None:
    done = phoneshell("run", "--help")
    assert done.returncode == 0
    listed = done.stdout.split("agents (--agent NAME[:ARG]):\n", 1)[1].splitlines()
    names = [line.split()[0] for line in listed if line.startswith("  ") and
             not line.lstrip().startswith("(")]
    assert sorted(names) == sorted(BUILTIN)  # in a fresh process: the built-in ones
    assert all(len(line.split(maxsplit=1)) == 2 for line in listed)  # each with what it does


@pytest.mark.slow  # a whole run of the CLI: 5-7 s on a busy 2-core machine
def test_a_run_ends_by_saying_how_to_read_it(tmp_path: Path) -> None:
    done = phoneshell("run", "environments", "--task", "settings.about.reach", "--agent", "null",
                      "--runs", str(tmp_path), "--run-id", "R")
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1].startswith(f"read them: phoneshell report {tmp_path / 'R'}")


def _until(holds: Callable[[], bool], what: str, deadline_s: float = 60) -> None:
    deadline = time.monotonic() + deadline_s
    while not holds():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _wait_for(path: Path, deadline_s: float) -> None:
    _until(path.exists, f"{path} never appeared", deadline_s)


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_ctrl_c_keeps_what_was_recorded_and_says_how_to_resume(tmp_path: Path) -> None:
    marker = tmp_path / "started"
    # the first try of the agent waits to be interrupted; once resumed it ends at once, having
    # done nothing (the marker is in the test's folder, which a sandboxed agent cannot write:
    # run it unconfined)
    agent = f"command:if [ -e {marker} ]; then exit 0; else touch {marker}; sleep 60; fi"
    runs = tmp_path / "runs"
    process = subprocess.Popen(
        [sys.executable, "-m", "phoneshell", "run", "environments", "--task",
         "settings.about.reach", "--task", "calculator.arithmetic", "--agent", agent, "--runs",
         str(runs), "--run-id", "R", "--sandbox", "none"], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True, env={**os.environ, **CLI_ENV})
    try:
        _wait_for(marker, 60)
        process.send_signal(signal.SIGINT)
        out, err = ended(process, 60)
    finally:
        reap(process)
    assert process.returncode == 2, out + err
    assert "Traceback" not in err
    assert err.splitlines()[-2:] == [
        f"error: interrupted: run R stopped after 1 of 2 attempt(s); every one recorded is kept "
        f"in {runs / 'R'}",
        f"hint: continue it: phoneshell run --resume R --runs {runs} --sandbox none"]
    rows = [json.loads(x) for x in (runs / "R" / "results.jsonl").read_text().splitlines()]
    # unconfined, the agent could have sent the signal itself: the row says so
    assert [(r["task_id"], r["outcome"], r["skip_reason"]) for r in rows] == [
        ("calculator.arithmetic", "skipped", "interrupted (Ctrl-C) during the turn of an agent "
         "that ran unconfined (--sandbox none), which could have sent it")]
    resumed = phoneshell("run", "--resume", "R", "--runs", str(runs))
    assert resumed.returncode == 1, resumed.stderr  # the agent did nothing: both attempts failed
    attempts = runs / "R" / "attempts" / "calculator.arithmetic"
    assert sorted(p.name for p in attempts.iterdir()) == ["1", "1.skipped-1"]
    assert "2 attempt(s): 0 passed, 2 failed, 0 skipped" in resumed.stdout


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_a_command_agent_finds_phoneshell_and_its_failures_show_their_cause(
        tmp_path: Path) -> None:
    agent = ("command:case $PHONESHELL_TASK_ID in "
             "settings.about.reach) command -v phoneshell >&2; "
             "phoneshell finish --status done --summary 'I opened it';; "
             "calculator.arithmetic) echo 'Traceback (most recent call last):' >&2; "
             "echo 'RuntimeError: the model API said 401' >&2; exit 1;; "
             "*) no-such-agent-program;; esac")
    # a plain PATH, as a user's shell has it with the venv not activated
    done = phoneshell("run", "environments", "--task", "settings.about.reach", "--task",
                      "calculator.arithmetic", "--task", "settings.about.serial", "--agent",
                      agent, "--runs", str(tmp_path), "--run-id", "R",
                      env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 1, done.stdout + done.stderr
    where = tmp_path / "R" / "attempts" / "settings.about.reach" / "1" / "agent.stderr"
    assert where.read_text().splitlines()[0] == str(Path(sys.executable).parent / "phoneshell")
    rows = {r["task_id"]: r for r in map(json.loads, (tmp_path / "R" / "results.jsonl")
                                         .read_text().splitlines())}
    assert rows["settings.about.reach"]["claim"]["summary"] == "I opened it"
    crashed = done.stdout.split("calculator.arithmetic", 1)[1].split("\n[")[0].splitlines()
    assert crashed[-3:] == [
        "        agent: the command exited with status 1; the end of its stderr (agent.stderr):",
        "        | Traceback (most recent call last):",
        "        | RuntimeError: the model API said 401"]
    # the command started in the attempts before, so a program it names that is not found is
    # its failure, with the shell's words, not a command that could not start
    lost = done.stdout.split("settings.about.serial", 1)[1].splitlines()
    said = lost.index("        agent: the command exited with status 127; the end of its "
                      "stderr (agent.stderr):")
    assert lost[0].split()[0] == "failed", lost
    assert lost[said + 1] == "        | /bin/sh: 1: no-such-agent-program: not found", lost


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_run_works_from_an_empty_folder_on_the_shipped_suite(tmp_path: Path) -> None:
    empty = tmp_path / "anywhere"
    empty.mkdir()
    done = phoneshell("run", "--task", "settings.about.reach", "--run-id", "R", cwd=empty)
    assert done.returncode == 0, done.stdout + done.stderr
    manifest = json.loads((empty / "runs" / "R" / "run.json").read_text())
    [shipped] = manifest["paths"]
    assert Path(shipped).is_absolute() and len(list(Path(shipped).glob("*.yaml"))) == 80
    assert phoneshell("check-tasks", cwd=empty).stdout.splitlines()[-1].startswith(
        "80 task(s) valid")
    # a folder `environments/` where the command runs wins over the shipped suite
    (empty / "environments").mkdir()
    (empty / "environments" / "mine.yaml").write_text(
        "id: mine\nname: Mine\ninstruction: x\nsetup:\n  - terminate: com.apple.Maps\n"
        "checks:\n  - foreground_app: com.apple.Maps\n")
    assert phoneshell("check-tasks", "--list", cwd=empty).stdout.splitlines() == [
        "mine  environments/mine.yaml", "1 task(s) valid, 0 error(s), 0 warning(s)"]


@pytest.mark.slow  # a whole program of about ten seconds: CI runs it
@pytest.mark.parametrize("taken_by", ["main", "another"])
def test_ctrl_c_with_several_phones_lets_the_attempts_in_flight_end(tmp_path: Path,
                                                                    taken_by: str) -> None:
    """Whichever of the run's threads takes the Ctrl-C: one another thread took went unseen
    until every attempt was played (`phoneshell.awake`)."""
    started = tmp_path / "started"
    started.mkdir()
    agent = f"command:touch {started}/$PHONESHELL_TASK_ID; sleep 3"  # unconfined, to touch it
    runs = tmp_path / "runs"
    process = subprocess.Popen(
        [sys.executable, "-m", "phoneshell", "run", "environments", "--task", "settings.about.*",
         "--task", "calculator.a*", "--task", "calculator.chain", "--device", "sim:2",
         "--agent", agent, "--runs", str(runs), "--run-id", "R", "--sandbox", "none"], cwd=ROOT,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, **CLI_ENV})
    try:
        _until(lambda: len(list(started.iterdir())) >= 2, "the two first attempts never started")
        send_stop(process, signal.SIGINT, taken_by)
        out, err = ended(process, 60)
    finally:
        reap(process)
    assert process.returncode == 2, out + err
    assert "interrupted: waiting for the attempts in flight on 2 phone(s) to end" in out
    assert "error: interrupted: run R stopped after 2 of 4 attempt(s)" in err
    rows = [json.loads(x) for x in (runs / "R" / "results.jsonl").read_text().splitlines()]
    # both ran to their end (failed: the agent only slept), and nothing else was started
    assert sorted(r["task_id"] for r in rows) == sorted(p.name for p in started.iterdir())
    assert [r["outcome"] for r in rows] == ["failed", "failed"]


def _gone(pid: int) -> bool:
    """Whether the process has ended (a zombie no one reaped has ended too, where /proc says)."""
    if not Path("/proc/self").exists():  # macOS: a zombie still answers; ours are reaped
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith(("Z", "X"))
    except FileNotFoundError:
        return True


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_second_ctrl_c_leaves_no_agent_running(tmp_path: Path) -> None:
    """Leaving the attempts in flight unrecorded must not leave their programs acting on the
    phone: an unconfined one would go on through WDA directly."""
    started = tmp_path / "started"
    started.mkdir()
    # its pid as the machine numbers it: an unconfined program runs in a PID namespace of its
    # own, where $$ is 2; /proc is the machine's, so the shell's own stat line says
    agent = (f"command:if [ -r /proc/self/stat ]; then read -r pid rest < /proc/self/stat; "
             f"else pid=$$; fi; echo $pid > {started}/$PHONESHELL_TASK_ID; exec sleep 60")
    out = tmp_path / "out"
    with out.open("w") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "phoneshell", "run", "environments", "--task",
             "settings.about.*", "--device", "sim:2", "--agent", agent, "--runs",
             str(tmp_path / "runs"), "--sandbox", "none"], cwd=ROOT, stdout=sink,
            stderr=subprocess.PIPE, text=True, env={**os.environ, **CLI_ENV})
        try:
            _until(lambda: len([p for p in started.iterdir() if p.read_text().strip()]) >= 2,
                   "the two first attempts never started")
            process.send_signal(signal.SIGINT)
            _until(lambda: "waiting for the attempts in flight" in out.read_text(),
                   "the first Ctrl-C was not taken")
            process.send_signal(signal.SIGINT)
            _, err = ended(process, 30)
        finally:
            reap(process)
    assert process.returncode == 2, err
    pids = [int(p.read_text()) for p in started.iterdir()]
    _until(lambda: all(_gone(pid) for pid in pids), f"agents still running: {pids}", 10)
