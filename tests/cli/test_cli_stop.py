"""SIGTERM and SIGHUP stop `phoneshell run` as Ctrl-C does (a CI timeout, systemd, a closed
terminal): the attempt in flight is torn down and recorded as not scored, the run is sealed and
the resume command said; one more signal while it tidies up still leaves a whole record."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_process import CLI_ENV, ended, reap, send_stop
from standalone_sim import standalone_sim

ROOT = Path(__file__).resolve().parents[2]
REACH = ROOT / "environments" / "settings.about.reach.yaml"


def start_run(tmp_path: Path, task: Path, mark: Path, *options: str) -> subprocess.Popen[str]:
    """`phoneshell run` of `task` (with `options`) with an agent that says it started (`mark`),
    then sleeps; run again (a resume), it ends at once, as a failed attempt."""
    env = {**os.environ, **CLI_ENV}
    return subprocess.Popen(
        [sys.executable, "-m", "phoneshell", "run", str(task), *options, "--agent",
         f"command:[ -e {mark} ] && exit 0; touch {mark}; sleep 60", "--sandbox", "none",
         "--runs", str(tmp_path),
         "--run-id", "R"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(done: object, run: subprocess.Popen[str], what: str) -> None:
    deadline = time.monotonic() + 60
    while not done():  # type: ignore[operator]
        assert run.poll() is None, f"the run ended before {what}: {run.communicate()}"
        assert time.monotonic() < deadline, f"no {what} in a minute"
        time.sleep(0.05)


def rows(run_dir: Path) -> list[dict[str, object]]:
    return [json.loads(x) for x in (run_dir / "results.jsonl").read_text().splitlines()]


def report(run_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "phoneshell", "report", str(run_dir)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


@pytest.mark.slow  # 7 s of whole programs: the README's command stays quick
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_stop_signal_records_the_attempt_in_flight_and_says_how_to_resume(
        tmp_path: Path, sig: signal.Signals) -> None:
    mark = tmp_path / "started"
    run = start_run(tmp_path, REACH, mark)
    try:
        wait_for(mark.exists, run, "agent turn")
        run.send_signal(sig)
        out, err = ended(run, 60)
    finally:
        reap(run)
    assert run.returncode == 2, out + err  # as Ctrl-C: stopped, not a bug, not killed
    assert f"error: stopped by {sig.name}: run R stopped after 1 of 1 attempt(s)" in err
    assert f"hint: continue it: phoneshell run --resume R --runs {tmp_path}" in err
    [row] = rows(tmp_path / "R")
    assert row["outcome"] == "skipped"
    assert str(row["skip_reason"]).startswith(f"interrupted ({sig.name})")
    # its teardown ran
    assert row["teardown"] == {"ok": True, "error": "", "stopped": [], "switched": [],
                               "left": [], "owner": [], "as_was": [], "stays": []}
    done = report(tmp_path / "R")
    assert done.returncode == 1, done.stderr  # verified: the seal holds; not all passed
    assert f"skipped (1): interrupted ({sig.name})" in done.stdout


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_the_tidy_up_before_a_stop_names_the_signal_that_came(tmp_path: Path) -> None:
    """Under a CI timeout or systemd there is no Ctrl-C to press: the line says SIGTERM, as the
    one after it does ("the tidy-up was cut short (SIGTERM again)")."""
    mark = tmp_path / "started"  # a Clock task: the run counted the alarms, so it tidies them
    run = start_run(tmp_path, ROOT / "environments" / "clock.timer.set.yaml", mark)
    try:
        wait_for(mark.exists, run, "agent turn")
        run.send_signal(signal.SIGTERM)
        out, err = ended(run, 60)
    finally:
        reap(run)
    assert run.returncode == 2, out + err
    assert "sim-1: before it stops, the run deletes the alarms its agents saved" in out, out
    assert out.rstrip().endswith("(SIGTERM again to leave them)"), out
    assert "Ctrl-C" not in out + err


@pytest.mark.slow  # 6 s of whole programs: the README's command stays quick
def test_a_second_signal_in_the_teardown_still_leaves_a_whole_record(tmp_path: Path) -> None:
    # A teardown that takes seconds (a `wait` step, after a launch the log shows): the second
    # SIGTERM comes in the middle of it, cuts it short, and the attempt is still recorded and
    # sealed.
    task = tmp_path / "slow-teardown.yaml"
    task.write_text(REACH.read_text().replace(
        "teardown:\n", "teardown:\n- launch: com.apple.Preferences\n- wait: 30\n"))
    audit, mark = tmp_path / "R" / "audit.jsonl", tmp_path / "started"
    run = start_run(tmp_path, task, mark)
    try:
        wait_for(mark.exists, run, "agent turn")
        run.send_signal(signal.SIGTERM)
        wait_for(lambda: '"phase":"teardown"' in audit.read_text(), run, "teardown's launch")
        run.send_signal(signal.SIGTERM)
        out, err = ended(run, 20)  # well before the wait's 30 s
    finally:
        reap(run)
    assert run.returncode == 2, out + err
    assert "error: stopped by SIGTERM: run R stopped after 1 of 1 attempt(s)" in err
    [row] = rows(tmp_path / "R")
    assert row["outcome"] == "skipped"
    assert row["skip_reason"] == ("interrupted (SIGTERM) before the attempt was recorded; its "
                                  "teardown was cut short")
    assert row["teardown"]["ok"] is False  # type: ignore[index]
    done = report(tmp_path / "R")
    assert done.returncode == 1, done.stderr  # the seal holds


@pytest.mark.slow  # 4.5 s measured: the README's command stays quick
def test_a_stop_signal_ends_an_attack_with_what_it_did_not_play_not_scored(
        tmp_path: Path) -> None:
    """The attack stops at the finish in flight, as a run does: the rest are said not run."""
    attack = subprocess.Popen(
        [sys.executable, "-m", "phoneshell", "attack", "--family", "null", "--runs",
         str(tmp_path)], cwd=ROOT, env={**os.environ, **CLI_ENV}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: any(tmp_path.glob("attack-*/attempts/*")), attack, "first finish")
        attack.send_signal(signal.SIGTERM)
        out, err = ended(attack, 30)
    finally:
        reap(attack)
    assert attack.returncode == 2, out + err  # stopped, as a run is
    assert "error: the attack stopped early: interrupted (SIGTERM)" in err
    assert "NOT SCORED: not run: interrupted (SIGTERM)" in out
    assert "0 pass without doing the task" in out


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
@pytest.mark.parametrize("taken_by", ["main", "another"])
def test_a_stop_signal_on_several_phones_waits_for_the_finishes_in_flight(
        tmp_path: Path, taken_by: str) -> None:
    """attack on sim:2: the first SIGTERM hands out no more finishes and waits for those in
    flight (their phones stay open under them), then prints the summary. Whichever thread
    takes it: one taken by another thread than the main one (about one in fifteen on a loaded
    machine, or always, sent to that thread's id) went unseen until every finish was played."""
    attack = subprocess.Popen(
        # three families' finishes (the signal stops it long before they end): with one, a
        # loaded machine let all 80 finish before the test saw the first two (CI, once)
        [sys.executable, "-m", "phoneshell", "attack", "--family", "null", "--family",
         "open-app", "--family", "truncated", "--device", "sim:2", "--runs", str(tmp_path)],
        cwd=ROOT, env={**os.environ, **CLI_ENV}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: len(list(tmp_path.glob("attack-*/attempts/*/*"))) >= 2, attack,
                 "a finish on each phone")
        send_stop(attack, signal.SIGTERM, taken_by)
        out, err = ended(attack, 60)
    finally:
        reap(attack)
    assert attack.returncode == 2, out + err
    assert "rig down" not in err  # no finish was played against a closed phone
    assert "error: the attack stopped early: interrupted (SIGTERM)" in err
    assert "NOT SCORED: not run: interrupted (SIGTERM)" in out  # the summary


@pytest.mark.slow  # two runs and a simulator, whole programs: 6 s
def test_the_resume_hint_of_a_run_on_a_url_goes_on_as_printed(tmp_path: Path) -> None:
    """Red team 105: the hint left out --device (and --sandbox), so pasted as printed it started
    a simulator of its own and was refused ("ran on other phones (url)")."""
    mark = tmp_path / "started"
    env = {**os.environ, **CLI_ENV}
    with standalone_sim() as (url, _):
        run = start_run(tmp_path, REACH, mark, "--device", url)
        try:
            wait_for(mark.exists, run, "agent turn")
            run.send_signal(signal.SIGTERM)
            _, err = ended(run, 60)
        finally:
            reap(run)
        hint = next(line for line in err.splitlines() if line.startswith("hint: continue it: "))
        assert hint == (f"hint: continue it: phoneshell run --resume R --runs {tmp_path} "
                        f"--device {url} --sandbox none"), hint
        command = shlex.split(hint.removeprefix("hint: continue it: "))
        assert command[0] == "phoneshell"
        again = subprocess.run([sys.executable, "-m", "phoneshell", *command[1:]], cwd=ROOT,
                               env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode in (0, 1), again.stdout + again.stderr  # it ran: not refused (2)
    assert [r["outcome"] for r in rows(tmp_path / "R")] == ["skipped", "failed"]
