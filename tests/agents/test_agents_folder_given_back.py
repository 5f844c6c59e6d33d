"""The agent's folder is given back to the harness after every turn, whatever the sandbox
(`phoneshell/agents/give_back.py`): what it locked is opened to the harness's user, FIFOs,
sockets and device nodes are removed, and so is every link that leads out of it; what was done
is a note of the harness's in the row (`notes`), never the agent's error.

Red team 128's agent ended its turn with `chmod 0` on its folder: under a harness that is not
root, the sweep that keeps the folder as data could not open it, and every later reader of
`agent/` met "Permission denied". The harness is played as such a user (`nobody`, with the
system's Python, which `nobody` can run where the checkout's venv lives under /root), and as
root, with an unconfined agent and one in bubblewrap."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from as_nobody import as_nobody, nobody_cannot_run, nobodys_place
from cli_process import run_one

from phoneshell.agents.sandbox import Sandbox

ROOT = Path(__file__).resolve().parents[2]
LOCKS = """import os, pathlib, socket
d = pathlib.Path(os.environ["PHONESHELL_ATTEMPT_DIR"])
(d / "notes.txt").write_text("what it found\\n")
(d / "deep" / "er").mkdir(parents=True)
(d / "deep" / "er" / "more.txt").write_text("more\\n")
os.mkfifo(d / "pipe")
socket.socket(socket.AF_UNIX).bind(str(d / "sock"))
os.symlink("/etc/passwd", d / "out")
os.symlink("notes.txt", d / "in")
(d / "notes.txt").chmod(0)
(d / "deep" / "er").chmod(0)
(d / "deep").chmod(0)
os.chmod(d, 0)
"""


def test_a_locked_tree_is_opened_and_what_no_reader_may_meet_is_removed(
        tmp_path: Path) -> None:
    scratch = tmp_path / "agent"
    (scratch / "a" / "b").mkdir(parents=True)
    (scratch / "a" / "b" / "f").write_text("f")
    (scratch / "read-only").write_text("r")
    os.mkfifo(scratch / "a" / "pipe")
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(scratch / "sock"))
    links = {"abs": "/etc/passwd", "up": "../x", "dot": ".", "through": "dot/../../x",
             "inside": "a/b/f", "a/b/back": "../../read-only"}
    for name, target in links.items():
        os.symlink(target, scratch / name)
    (scratch / "read-only").chmod(0o444)  # never locked: no word of it
    for locked in (scratch / "a" / "b" / "f", scratch / "a" / "b", scratch / "a", scratch):
        locked.chmod(0)

    taken = Sandbox("none").take_back(scratch)

    assert taken.untaken == ""
    for folder in (scratch, scratch / "a", scratch / "a" / "b"):
        assert stat.S_IMODE(folder.stat().st_mode) & 0o700 == 0o700, folder
    assert stat.S_IMODE((scratch / "a" / "b" / "f").stat().st_mode) & 0o600 == 0o600
    assert stat.S_IMODE((scratch / "read-only").stat().st_mode) == 0o644
    left = sorted(str(p.relative_to(scratch)) for p in scratch.rglob("*"))
    # `a/b/back` climbs, and stays below: followed, it reaches `read-only`
    assert left == ["a", "a/b", "a/b/back", "a/b/f", "dot", "inside", "read-only"], left
    said = dict(part.split(" (", 1) for part in taken.given.split(": ", 1)[1].split("; "))
    assert said["opened what it had locked to the harness"] == "agent, a, a/b and 1 more)"
    assert sorted(said["removed FIFOs, sockets or device nodes"].rstrip(")").split(", ")) \
        == ["a/pipe", "sock"]
    named = sorted(said["removed links leading out of its folder"].rstrip(")").split(", "))
    assert named == ["abs -> /etc/passwd", "through -> dot/../../x", "up -> ../x"], named

def test_a_folder_left_unlocked_is_given_back_without_a_word(tmp_path: Path) -> None:
    scratch = tmp_path / "agent"
    (scratch / "sub").mkdir(parents=True)
    (scratch / "sub" / "claim.json").write_text("{}")
    os.symlink("sub/claim.json", scratch / "inside")
    assert Sandbox("none").take_back(scratch).given == ""
    assert Sandbox("none").take_back(tmp_path / "gone").untaken == ""


def test_a_folder_that_is_a_link_is_removed_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "kept").write_text("x")
    (outside / "kept").chmod(0)
    (tmp_path / "agent").symlink_to(outside)
    taken = Sandbox("none").take_back(tmp_path / "agent")
    assert "removed links leading out of its folder (agent -> " in taken.given
    assert not os.path.lexists(tmp_path / "agent")
    assert stat.S_IMODE((outside / "kept").stat().st_mode) == 0  # never reached through it


@pytest.fixture
def place() -> Iterator[Path]:
    """A folder `nobody` may write, holding the agent."""
    with nobodys_place("phoneshell-given-back-") as made:
        (made / "locks.py").write_text(LOCKS)
        yield made


@pytest.mark.slow  # a whole run, as another user
@pytest.mark.parametrize("sandbox", ["none", "bwrap"])
def test_a_harness_that_is_not_root_reads_the_folder_its_agent_locked(
        place: Path, sandbox: str, request: pytest.FixtureRequest) -> None:
    why = nobody_cannot_run(place)
    if why:
        pytest.skip(why)
    if sandbox == "bwrap":
        request.getfixturevalue("bwrap")
    done = as_nobody(place, "phoneshell", "run", str(ROOT / "environments"), "--task",
                      "calculator.arithmetic", "--agent", f"command:python3 {place / 'locks.py'}",
                      "--sandbox", sandbox, "--runs", str(place / "runs"), "--run-id", "L")
    assert done.returncode == 1, done.stderr
    (row,) = [json.loads(line) for line in
              (place / "runs" / "L" / "results.jsonl").read_text().splitlines()]
    assert row["outcome"] == "failed", row  # graded as it stands: it pressed nothing
    assert "could not be made data" not in row["error"], row["error"]  # the sweep read it
    assert "could not be read" not in row["error"], row["error"]  # and the look at its claim
    (note,) = row["notes"]
    assert "opened what it had locked to the harness (agent, notes.txt, deep and 1 more)" \
        in note, note
    assert "out -> /etc/passwd" in note, note
    agent = place / "runs" / "L" / "attempts" / "calculator.arithmetic" / "1" / "agent"
    read = subprocess.run(["runuser", "-u", "nobody", "--", "cat", str(agent / "notes.txt"),
                           str(agent / "deep" / "er" / "more.txt")],
                          capture_output=True, text=True, check=False)
    assert read.stdout == "what it found\nmore\n", read.stderr
    assert sorted(p.name for p in agent.iterdir()) == ["deep", "in", "notes.txt"]
    report = as_nobody(place, "phoneshell", "report", str(place / "runs" / "L"))
    assert report.returncode in (0, 1) and "Permission denied" not in report.stderr, \
        report.stderr


@pytest.mark.slow  # a whole run
@pytest.mark.parametrize("sandbox", ["none", "bwrap"])
def test_a_root_harness_gives_back_the_folder_its_agent_locked(
        place: Path, sandbox: str, request: pytest.FixtureRequest) -> None:
    if os.geteuid() != 0:
        pytest.skip("the harness as root; as another user, the test above")
    if sandbox == "bwrap":
        request.getfixturevalue("bwrap")
    row = run_one(place / "runs", "R", str(ROOT / "environments"), "--task",
                  "calculator.arithmetic", "--agent", f"command:python3 {place / 'locks.py'}",
                  "--sandbox", sandbox)
    assert row["outcome"] == "failed", row
    assert row["notes"] == [
        "its folder was given back to the harness after its turn: opened what it had locked to "
        "the harness (agent, notes.txt, deep and 1 more); removed FIFOs, sockets or device nodes "
        "(pipe, sock); removed links leading out of its folder (out -> /etc/passwd)"], row
    agent = place / "runs" / "R" / "attempts" / "calculator.arithmetic" / "1" / "agent"
    for folder in (agent, agent / "deep", agent / "deep" / "er"):
        assert stat.S_IMODE(folder.stat().st_mode) & 0o700 == 0o700, folder
        assert folder.stat().st_uid == 0
    assert sorted(p.name for p in agent.iterdir()) == ["deep", "in", "notes.txt"]
