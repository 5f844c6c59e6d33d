"""A program agent cannot take the disk that holds the run: what it prints is kept to its start
and end, and what it writes into its folder, or holds on the disk unlinked, stops it when it
passes a limit or takes more of the disk's free space than its turn may, even if it exits at
once; what it wrote is then deleted, the attempt fails saying why, and the run goes on."""

from __future__ import annotations

import mmap
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from phoneshell.agents import bounds, capped_output, make_agent, pids
from phoneshell.records import ResultRow
from phoneshell.runner import AttemptPlan, Rig, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

PYTHON = shlex.quote(sys.executable)
CLAIM = 'print(\'{"status": "done", "summary": "left at once"}\')'
FILL = ("import os\nfd = os.open(os.path.join(os.environ['PHONESHELL_ATTEMPT_DIR'], 'blob'), "
        "os.O_CREAT | os.O_WRONLY)\nos.posix_fallocate(fd, 0, {size})\n")


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    with SimServer() as sim, open_rig(sim.url, tmp_path, effect_timeout_s=0.5) as rig:
        yield rig


def attempt(rig: Rig, tmp_path: Path, task: Task, script: str) -> ResultRow:
    agent = make_agent(f"command:{PYTHON} -c {shlex.quote(script)}")
    return run_attempt(AttemptPlan("R", tmp_path / "R", task, 1), rig, agent).row


def scratch(tmp_path: Path, task: Task) -> Path:
    return tmp_path / "R" / "attempts" / task.id / "1" / "agent"


def test_a_folder_filled_at_once_then_left_is_caught_and_given_back(
        rig: Rig, tmp_path: Path, suite: dict[str, Task],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounds, "FOLDER_MAX_BYTES", 8 << 20)
    task = suite["settings.about.reach"]
    row = attempt(rig, tmp_path, task, FILL.format(size=40 << 20) + CLAIM)
    assert row.outcome == "failed", row.error
    assert "it wrote more than 8 MiB into its folder" in row.error
    assert "deleted" in row.error and not any(scratch(tmp_path, task).iterdir())


HELD = 256 << 20
"""What the unlinked file holds: far above what the tests beside it write in its seconds."""


def test_a_file_held_open_unlinked_is_seen_by_the_free_space(
        rig: Rig, tmp_path: Path, suite: dict[str, Task],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Its folder holds nothing to count: only the disk's free space shows it, and stopping
    the program gives the space back."""
    monkeypatch.setattr(bounds, "FOLDER_MAX_BYTES", 16 << 20)
    free = bounds.disk_free(tmp_path)
    hold = FILL.format(size=HELD).replace(
        "os.posix_fallocate", "os.unlink(os.path.join(os.environ['PHONESHELL_ATTEMPT_DIR'], "
        "'blob'))\nos.posix_fallocate") + "import time\ntime.sleep(600)\n"
    task = suite["settings.about.reach"]
    started = time.monotonic()
    row = attempt(rig, tmp_path, task, hold)
    assert row.outcome == "failed" and not row.timed_out, row.error
    assert "it filled the disk holding the run" in row.error
    assert time.monotonic() - started < 30
    # given back: held, the file would leave it HELD under its start (the margin is for what
    # other tests beside it write meanwhile: a whole suite on the other worker wrote more than
    # the 24 MiB it once allowed of a 64 MiB file)
    assert bounds.disk_free(tmp_path) > free - HELD * 3 // 8


def test_output_is_kept_to_its_start_and_end_and_the_claim_at_the_end_is_read(
        rig: Rig, tmp_path: Path, suite: dict[str, Task],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(capped_output, "OUTPUT_MAX_BYTES", 1 << 20)
    flood = ("import sys\nsys.stdout.write('first line\\n')\nfor _ in range(400): "
             "sys.stdout.write('x' * 65535 + '\\n')\nsys.stdout.flush()\n" + CLAIM)
    task = suite["settings.about.reach"]
    row = attempt(rig, tmp_path, task, flood)
    out = (tmp_path / "R" / "attempts" / task.id / "1" / "agent.stdout").read_bytes()
    assert len(out) < (1 << 20) + 200 and out.startswith(b"first line\n")
    assert b"bytes left out here" in out
    assert row.claim is not None and row.claim.summary == "left at once"  # its last line
    assert "stopped" not in row.error


BOMB = ("import os, time\nborn = 0\nfor _ in range(400):\n    try:\n        pid = os.fork()\n"
        "    except OSError:\n        break\n    if pid == 0:\n        time.sleep(600)\n"
        "        os._exit(0)\n    born += 1\nprint(born, flush=True)\n" + CLAIM)
"""A fork bomb that stops at 400: each child sleeps, holding its pid."""


def test_a_program_that_forks_without_end_is_held_to_its_limit_and_cleared_after(
        rig: Rig, tmp_path: Path, suite: dict[str, Task],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a limit it holds every pid it can get (the machine's, the harness's threads'
    too); with one its forks past it fail inside it alone, and nothing of it outlives its turn.
    Linux, as root (or a delegated cgroup): elsewhere programs run without a process limit."""
    if not pids.available():
        if os.geteuid() == 0 and sys.platform == "linux":
            pytest.fail("root on Linux and no pids cgroup could be made")
        pytest.skip("no pids cgroup can be made here (not root, or not Linux)")
    monkeypatch.setattr(pids, "PIDS_MAX", 40)
    task = suite["settings.about.reach"]
    row = attempt(rig, tmp_path, task, BOMB)
    out = (tmp_path / "R" / "attempts" / task.id / "1" / "agent.stdout").read_text()
    born = int(out.split()[0])
    assert 0 < born < 40, out  # the sandbox's own processes hold some of the 40
    assert "it reached its limit of 40 processes and threads at once" in row.error, row.error
    assert row.claim is not None and row.claim.summary == "left at once"
    # gone with its turn (other test workers' turns may be running beside it)
    assert not list(pids._parent().glob(f"turn-{os.getpid()}-*"))  # type: ignore[union-attr]


def test_with_no_process_limit_to_be_had_a_program_runs_and_is_scored_as_ever(
        rig: Rig, tmp_path: Path, suite: dict[str, Task],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Not root, no pids controller, macOS: the limit is absent, and nothing else changes (a
    program that gives up is its failure, never a harness error that skips the attempt)."""
    monkeypatch.setattr(pids, "_PARENT", None)
    assert not pids.available()
    task = suite["settings.about.reach"]
    silent = attempt(rig, tmp_path, task, "pass")
    assert (silent.outcome, silent.error) == ("failed", "the command exited without a claim")
    claimed = attempt(rig, tmp_path / "again", task, CLAIM)
    assert claimed.outcome == "failed" and "harness error" not in claimed.error, claimed.error
    assert claimed.claim is not None and claimed.claim.summary == "left at once"


LAST_WORDS = ("import mmap, os, sys, time\nflag = mmap.mmap(os.open(sys.argv[1], os.O_RDWR), 1)\n"
              "time.sleep(0.3)\nsys.stderr.write('its last words\\n')\nsys.stderr.flush()\n"
              "flag[0] = 1\n")
"""A program that says one line and exits at once, raising a flag in shared memory once said."""


def test_what_a_program_said_just_before_it_exited_is_kept_under_a_held_up_reader(
        tmp_path: Path) -> None:
    flag = tmp_path / "said"
    flag.write_bytes(b"\0")
    program = subprocess.Popen([sys.executable, "-c", LAST_WORDS, str(flag)],
                               stderr=subprocess.PIPE)
    assert program.stderr is not None
    output = capped_output.CappedOutput(program.stderr, tmp_path / "agent.stderr")
    was = sys.getswitchinterval()
    # The harness's threads (bridge, simulator) can keep the reader from running: this thread
    # holds the interpreter, never blocking, so the reader's wait ends empty while the program
    # is yet to speak, and the reader sits on that answer until the program has spoken.
    sys.setswitchinterval(60)
    try:
        with open(flag, "r+b") as handle, mmap.mmap(handle.fileno(), 1) as said:
            deadline = time.monotonic() + 30
            while said[0] == 0 and time.monotonic() < deadline:
                pass  # a read of memory: the interpreter is never let go
            output.finish()  # the program is gone, as when the harness has stopped its group
    finally:
        sys.setswitchinterval(was)
    assert program.wait(timeout=10) == 0
    assert (tmp_path / "agent.stderr").read_text() == "its last words\n"
