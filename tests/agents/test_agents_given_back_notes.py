"""What the give-back does to the agent's folder after its turn is a note of the harness's, in
the row's `notes`, never the agent's error; a link goes when it leads out of the folder, not
for the `..` in its words; every name the agent chose is quoted; and no walk over the folder
ever acts on another file system mounted in it (red team 133).

An honest agent that made a venv (`bin/python -> /usr/...`) and a node_modules
(`.bin/tsc -> ../typescript/bin/tsc`) passed with "agent error: ... removed links that could
lead out of its folder" in its row, the field that is empty when an agent claims; a FIFO named
`p); the attempt is not scored: ...` read as the harness's words; and a root agent's bind mount
of a host folder had the give-back chmod and delete what was there."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_process import run_cli, run_one

from phoneshell.agents import kept_data, walk
from phoneshell.agents.give_back import give_back
from phoneshell.agents.own_writes import counted

ROOT = Path(__file__).resolve().parents[2]
TRAP = "p); the attempt is not scored: the run folder could not be written (rig fault"
HONEST = """import os, subprocess, wda
d = os.environ["PHONESHELL_ATTEMPT_DIR"]
os.makedirs(f"{d}/venv/bin")
os.symlink("/usr/bin/python3", f"{d}/venv/bin/python")
os.makedirs(f"{d}/node_modules/typescript/bin")
open(f"{d}/node_modules/typescript/bin/tsc", "w").write("#!/usr/bin/env node\\n")
os.makedirs(f"{d}/node_modules/.bin")
os.symlink("../typescript/bin/tsc", f"{d}/node_modules/.bin/tsc")
os.mkfifo(f"{d}/TRAP")
s = wda.Client(os.environ["PHONESHELL_WDA_URL"]).session("com.apple.calculator")
for name in ["4", "7", "multiply", "9", "equals"]:
    s(name=name).tap()
subprocess.run(["phoneshell", "finish", "--status", "done", "--summary", "47x9"], check=True)
""".replace("TRAP", TRAP)


def _note_parts(note: str) -> dict[str, str]:
    return dict(part.split(" (", 1) for part in note.split(": ", 1)[1].split("; "))


def test_a_link_goes_when_it_leads_out_not_for_its_words(tmp_path: Path) -> None:
    scratch = tmp_path / "agent"
    (scratch / "node_modules" / "pkg").mkdir(parents=True)
    (scratch / "node_modules" / ".bin").mkdir()
    (scratch / "node_modules" / "pkg" / "cli.js").write_text("x")
    (scratch / "a" / "b").mkdir(parents=True)
    links = {"node_modules/.bin/cli": "../pkg/cli.js",  # climbs, stays below: kept
             "a/b/up": "../../node_modules",  # the same
             "a/z": "..",  # the folder itself, from a: kept (it leads nowhere out)
             "a/w": "z/../..",  # reads as `a`'s parent; through z, the folder above it
             "d": ".",  # kept, and...
             "e": "d/..",  # ...through it, `..` is the folder above
             "abs": "/etc/passwd", "up": "../x"}
    for name, target in links.items():
        os.symlink(target, scratch / name)

    taken = give_back(scratch)

    assert taken.untaken == "", taken.untaken
    kept = sorted(str(p.relative_to(scratch)) for p in scratch.rglob("*") if p.is_symlink())
    assert kept == ["a/b/up", "a/z", "d", "node_modules/.bin/cli"], kept
    said = _note_parts(taken.given)
    removed = said["removed links leading out of its folder"]
    assert removed.endswith(" and 1 more)"), removed  # four of them, three named
    assert len([n for n in ("a/w -> z/../..", "e -> d/..", "abs -> /etc/passwd", "up -> ../x")
                if n in removed]) == 3, removed
    assert (scratch / "node_modules" / ".bin" / "cli").read_text() == "x"


def test_the_names_it_chose_are_quoted_in_the_note(tmp_path: Path) -> None:
    scratch = tmp_path / "agent"
    scratch.mkdir()
    os.mkfifo(scratch / TRAP)
    os.symlink("/x\n[1/1] calculator.arithmetic   passed", scratch / "l")
    (scratch / "locked; removed nothing").mkdir()
    (scratch / "locked; removed nothing").chmod(0)

    said = give_back(scratch).given

    assert f"removed FIFOs, sockets or device nodes ({TRAP!r})" in said, said
    assert "(l -> '/x\\n[1/1] calculator.arithmetic   passed')" in said, said
    assert "the harness ('locked; removed nothing')" in said, said
    assert "\n" not in said


@pytest.mark.slow  # a whole run, and its report
def test_an_honest_agents_venv_and_node_modules_are_a_note_not_its_error(
        tmp_path: Path) -> None:
    (tmp_path / "honest.py").write_text(HONEST)
    row = run_one(tmp_path / "runs", "H", str(ROOT / "environments"), "--task",
                  "calculator.arithmetic", "--agent", f"command:python3 {tmp_path / 'honest.py'}",
                  "--sandbox", "none")
    assert row["outcome"] == "passed", row
    assert row["error"] == "", row["error"]
    (note,) = row["notes"]
    assert note == (
        "its folder was given back to the harness after its turn: removed FIFOs, sockets or "
        f"device nodes ({TRAP!r}); removed links leading out of its folder "
        "(venv/bin/python -> /usr/bin/python3)"), note
    agent = tmp_path / "runs" / "H" / "attempts" / "calculator.arithmetic" / "1" / "agent"
    assert os.readlink(agent / "node_modules" / ".bin" / "tsc") == "../typescript/bin/tsc"
    html = tmp_path / "report.html"
    done = run_cli("report", str(tmp_path / "runs" / "H"), "--html", str(html))
    assert done.returncode == 0, done.stderr
    page = html.read_text()
    assert "agent error" not in page
    assert "harness note: its folder was given back" in page
    with (tmp_path / "runs" / "H" / "results.jsonl").open() as rows:
        assert json.loads(rows.readline())["notes"] == [note]


@pytest.fixture
def mounted(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """An agent's folder with a tmpfs (standing in for a host folder an unconfined root agent
    bind-mounted there) at `outside`, holding what the give-back would change or remove."""
    if os.geteuid() != 0:
        pytest.skip("only root can mount a file system into the agent's folder (CI runs "
                    "as root)")
    scratch = tmp_path / "agent"
    host = scratch / "outside"
    host.mkdir(parents=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(host)], check=True)
    try:
        os.mkfifo(host / "fifo")
        os.symlink("/etc/hostname", host / "abs_link")
        (host / "prog").write_text("#!/bin/sh\n")
        (host / "prog").chmod(0o755)
        (host / "ro_file").write_text("secret\n")
        (host / "ro_file").chmod(0o400)
        (host / "locked").mkdir()
        (host / "locked").chmod(0o500)
        (scratch / "mine").write_text("its own\n")
        os.mkfifo(scratch / "pipe")
        yield scratch, host
    finally:
        subprocess.run(["umount", "-l", str(host)], check=False)


def _untouched(host: Path) -> None:
    assert stat.S_ISFIFO(os.lstat(host / "fifo").st_mode)
    assert os.readlink(host / "abs_link") == "/etc/hostname"
    assert stat.S_IMODE((host / "prog").stat().st_mode) == 0o755
    assert stat.S_IMODE((host / "ro_file").stat().st_mode) == 0o400
    assert stat.S_IMODE((host / "locked").stat().st_mode) == 0o500


def test_no_walk_acts_on_a_file_system_mounted_in_the_folder(
        mounted: tuple[Path, Path]) -> None:
    scratch, host = mounted
    taken = give_back(scratch)
    assert taken.untaken == "", taken.untaken
    said = _note_parts(taken.given)
    assert said["left alone what another file system mounted in it holds, never entered"] \
        == "outside)", taken.given
    assert said["removed FIFOs, sockets or device nodes"] == "pipe)", taken.given
    assert kept_data.not_runnable(scratch) == ""
    over, _, files = counted(scratch, 1 << 30, 1000)
    assert (over, files) == ("", 1)  # its own file: nothing of the mount counted
    _untouched(host)
    left = walk.delete(scratch)  # the wipe, disk_room's frees: the mount point stays
    assert left == ["outside: another file system is mounted there, never entered"], left
    _untouched(host)


def test_a_file_system_mounted_over_the_folder_is_never_walked(
        mounted: tuple[Path, Path]) -> None:
    _, host = mounted
    taken = give_back(host)
    assert "another file system is mounted there, never entered" in taken.untaken, taken
    assert kept_data.not_runnable(host).endswith("another file system is mounted there, "
                                                 "never walked)")
    assert walk.delete(host) != []
    _untouched(host)
