"""Disk the machine takes during a confined turn is not the agent's (red team 76): on a real small
disk, another process (not the agent) writes while a program confined by bubblewrap, which can
write only its folder, waits and writes nothing. More than the turn may take is not charged to
it; down into the harness's room, the turn stops unscored (`DiskShort`), never failed, and a
run skips the attempt naming the disk; nor is a copy of its output the disk refused then a
failure. An unconfined program, which could have written it
anywhere, is still charged the loss."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli
from small_disk import ballast, small_disk

from phoneshell.agents import bounds
from phoneshell.agents.sandbox import Sandbox
from phoneshell.agents.turn import Turn, run_turn

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")

WAIT = ('i=0; while [ ! -e "{go}" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; '
        '{then}')
"""A program that waits for the file GO (a minute at most), then runs THEN."""


@pytest.fixture
def disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A 64 MiB disk on which a turn may take 16 MiB (the harness keeps 32)."""
    monkeypatch.setattr(bounds, "FOLDER_MAX_BYTES", 16 << 20)
    with small_disk(tmp_path / "disk") as mounted:
        yield mounted


def another_process_writes(disk: Path, mib: int) -> None:
    """Something else on the machine writes `mib` MiB beside the run (not the agent)."""
    subprocess.run(["dd", "if=/dev/zero", f"of={disk / 'theirs'}", "bs=1M", f"count={mib}"],
                   check=False, capture_output=True)


def turn(disk: Path, box: Sandbox, on_start: Callable[[Path], None], then: str = "true",
         ) -> Turn:
    """A program's turn with its folder on the disk: it waits for the file `go` in its folder,
    then runs `then`; `on_start` (given its folder) acts while it waits, and makes `go`."""
    folder = disk / "attempt"
    scratch = folder / "agent"
    scratch.mkdir(parents=True)
    script = WAIT.format(go=scratch / "go", then=then)
    argv = box.wrap(["/bin/sh", "-c", script, str(scratch)], "sh", scratch, Path.cwd())
    return run_turn(argv, dict(os.environ), box, scratch, (folder / "out", folder / "err"),
                    timeout_s=60, started=lambda: on_start(scratch))


def writes(disk: Path, mib: int) -> Callable[[Path], None]:
    """Another process writes `mib` MiB beside the run, then the program may go on."""
    def on_start(scratch: Path) -> None:
        another_process_writes(disk, mib)
        (scratch / "go").write_text("")
    return on_start


def test_a_confined_turn_is_not_charged_what_another_process_wrote(
        disk: Path, bwrap: Sandbox) -> None:
    """20 MiB written beside it, more than its 16, the disk still over the harness's room:
    today's rule for an unconfined turn stops it as having filled the disk."""
    done = turn(disk, bwrap, writes(disk, 20))
    assert done.code == 0 and not done.stopped, done


def test_an_unconfined_turn_is_still_charged_what_no_turn_shows(disk: Path) -> None:
    done = turn(disk, Sandbox("none"), writes(disk, 20))
    assert "it filled the disk holding the run" in done.stopped, done


@pytest.mark.slow  # 3 s of a whole program: the README's command stays quick
def test_a_confined_turn_whose_disk_the_machine_fills_stops_unscored(
        disk: Path, bwrap: Sandbox) -> None:
    def fills(scratch: Path) -> None:
        ballast(disk, bounds.HARNESS_ROOM_BYTES // 4)
        (scratch / "go").write_text("")

    with pytest.raises(bounds.DiskShort, match="not the agent's doing") as short:
        turn(disk, bwrap, fills, then="sleep 30")  # it would wait on: the watch stops it
    assert ("it ran confined, its folder, the files it holds open or mapped and what the harness "
            "wrote for it took 0.0 MiB, and the loss stayed once its processes were gone") in str(
        short.value)


PRINTS = ('head -c 300000 /dev/zero | tr "\\0" x; : > "$0/printed"; '
          'while [ ! -e "$0/back" ]; do sleep 0.05; done')
"""Print 300 kB, say so, then wait for the file `back`."""


def full_while_it_prints(disk: Path, give_back: bool) -> Callable[[Path], None]:
    """The disk full (by the machine) while it prints; given back before it ends or not."""
    def on_start(scratch: Path) -> None:
        ballast(disk, 0)
        (scratch / "go").write_text("")
        deadline = time.monotonic() + 30
        while not (scratch / "printed").exists():
            assert time.monotonic() < deadline, "it never printed"
            time.sleep(0.01)
        if give_back:
            (disk / "ballast").unlink()
        (scratch / "back").write_text("")
    return on_start


@pytest.mark.slow  # 2.4 s measured: the README's command stays quick
def test_its_output_the_full_disk_refused_is_not_its_failure_when_the_disk_stays_full(
        disk: Path, bwrap: Sandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    """No watch between (only the look after its turn): only the refused copy shows it."""
    monkeypatch.setattr(bounds, "WATCH_S", 600.0)
    with pytest.raises(bounds.DiskShort, match="could not be kept"):
        turn(disk, bwrap, full_while_it_prints(disk, give_back=False), then=PRINTS)


def test_its_output_refused_is_its_failure_when_the_disk_comes_back(
        disk: Path, bwrap: Sandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk given back before its turn ends: nothing shows the machine, not a file only it
    held, took the disk, so the refused copy is its failure (red team 81: "not scored" was its
    word alone)."""
    monkeypatch.setattr(bounds, "WATCH_S", 600.0)
    done = turn(disk, bwrap, full_while_it_prints(disk, give_back=True), then=PRINTS)
    assert "could not be kept" in done.stopped, done


WAITS = """import json, os, time
open(os.path.join(os.environ["PHONESHELL_ATTEMPT_DIR"], "started"), "w").close()
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    time.sleep(0.1)
print(json.dumps({"status": "done", "answer": "x"}))
"""
"""An agent that writes nothing (one empty file), waits a minute, then claims done."""


@pytest.mark.slow  # a whole run for seconds: CI runs it
def test_a_run_whose_disk_the_machine_fills_in_a_confined_turn_skips_the_attempt(
        disk: Path, bwrap: Sandbox, tmp_path: Path) -> None:
    """Through the CLI: the agent's attempt is not scored, naming the disk, never failed."""
    agent = tmp_path / "waits.py"
    agent.write_text(WAITS)
    task = str(ROOT / "environments" / "calculator.arithmetic.yaml")
    done: list[subprocess.CompletedProcess[str]] = []
    run = threading.Thread(target=lambda: done.append(run_cli(
        "run", task, "--agent", f"command:{sys.executable} {agent}", "--runs", str(disk),
        "--run-id", "R", "--sandbox", "bwrap")))
    run.start()
    started = disk / "R" / "attempts" / "calculator.arithmetic" / "1" / "agent" / "started"
    deadline = time.monotonic() + 120
    while not started.exists():
        assert time.monotonic() < deadline and run.is_alive(), done
        time.sleep(0.05)
    ballast(disk, 8 << 20)  # something else on the machine, into the harness's room
    run.join(timeout=120)
    assert done and "Traceback" not in done[0].stderr, done
    row = json.loads((disk / "R" / "results.jsonl").read_text().splitlines()[0])
    assert row["outcome"] == "skipped", row
    reason = str(row["skip_reason"])
    assert reason.startswith("the disk holding") and "not the agent's doing" in reason, row
    assert row["teardown"]["ok"], row  # what it did to the phone was set back as ever
