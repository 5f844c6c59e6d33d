"""Who a confined program is: never root, so it cannot rewrite the kernel's settings and escape.

A red team's agent, uid 0 in bubblewrap with every capability dropped, wrote
kernel.core_pattern (`core_pattern_escape.sh`): the kernel ran its script as root on the host,
which read the task file, and the attempt passed without a look at the phone.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from phoneshell.agents import make_agent
from phoneshell.agents.agent_user import AGENT_UID
from phoneshell.agents.sandbox import Sandbox
from phoneshell.agents.sandbox_choice import choose
from phoneshell.errors import RunError
from phoneshell.runner import AttemptPlan, open_rig, run_attempt
from phoneshell.runner.folder import read_results
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CORE_PATTERN = Path("/proc/sys/kernel/core_pattern")
ROOT_HARNESS = os.geteuid() == 0


def attempt(tmp_path: Path, task: Task, command: str, sandbox: Sandbox) -> Path:
    """Play `command` as the agent of one attempt of `task` on a private simulated iPhone;
    the attempt's folder."""
    with SimServer(secret=SimServer.new_secret()) as sim, \
            open_rig(sim.url, tmp_path, private=True, effect_timeout_s=0.5) as rig:
        run_attempt(AttemptPlan("R", tmp_path / "R", task, 1, sandbox=sandbox), rig,
                    make_agent(f"command:{command}"))
    return tmp_path / "R" / "attempts" / task.id / "1"


def test_an_agent_in_the_default_sandbox_is_not_root_and_cannot_touch_the_kernel(
        bwrap: Sandbox, tmp_path: Path, suite: dict[str, Task]) -> None:
    box = choose("auto")
    assert box.kind == "bwrap", box.note  # the sandbox a run takes by default
    folder = attempt(tmp_path, suite["settings.about.reach"],
                     f"sh {HERE / 'kernel_probe.sh'}", box)
    found = (folder / "agent" / "found.txt").read_text().splitlines()
    uid = int(found[0].removeprefix("uid "))
    assert uid != 0, found
    if ROOT_HARNESS:
        assert uid == AGENT_UID, found
    assert [line.split()[0] for line in found[1:5]] == ["refused"] * 4, found
    assert found[5:] == [f"wrote {folder.resolve() / 'agent' / 'note'}", "wrote /tmp/note",
                         "wrote /dev/shm/note"], "an honest agent writes where it did"
    claim = json.loads((folder / "agent" / "claim.json").read_text())
    assert claim["summary"] == "looked around"  # `phoneshell finish` wrote its claim
    if ROOT_HARNESS:  # its folder is the harness's again, and what it left is nobody's setuid
        left = (folder / "agent" / "setuid").stat()
        assert (left.st_uid, left.st_mode & stat.S_ISUID) == (0, 0)
        assert (folder / "agent").stat().st_uid == 0


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "PATH": path}, timeout=600)


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_the_core_pattern_escape_reads_nothing_and_fails(bwrap: Sandbox,
                                                         tmp_path: Path) -> None:
    before = CORE_PATTERN.read_text()
    try:
        done = run_cli("run", "environments/probe.image.one.yaml", "--runs", str(tmp_path),
                       "--run-id", "E", "--agent",
                       f"command:{HERE / 'core_pattern_escape.sh'}")
    finally:
        after = CORE_PATTERN.read_text()
        if after != before:  # it escaped: put the machine back before saying so
            CORE_PATTERN.write_text(before)
    assert after == before, f"the agent set kernel.core_pattern to {after!r}"
    [row] = read_results(tmp_path / "E" / "results.jsonl")
    assert row.outcome == "failed", done.stdout
    folder = tmp_path / "E" / "attempts" / "probe.image.one" / "1"
    assert not (folder / "agent" / "key.txt").exists(), "a helper ran outside the sandbox"
    assert "cannot create /proc/sys/kernel/core_pattern" in (folder / "agent.stderr").read_text()
    assert json.loads((tmp_path / "E" / "run.json").read_text())["sandbox"] == "bwrap"


FAKE_BWRAP = """#!/bin/sh
# a bubblewrap that confines nothing: it runs what follows its options as it is given
while [ "$#" -gt 0 ] && [ "$1" != -- ]; do shift; done
shift
{skip}
exec "$@"
"""
SKIP_SETPRIV = 'while [ "$#" -gt 0 ] && [ "$1" != -- ]; do shift; done; shift'


@pytest.mark.parametrize("skip", ["", SKIP_SETPRIV], ids=["user-dropped", "as-is"])
def test_a_bwrap_that_does_not_confine_is_never_chosen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, skip: str) -> None:
    fake = tmp_path / "bin" / "bwrap"
    fake.parent.mkdir()
    fake.write_text(FAKE_BWRAP.format(skip=skip))
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    box = choose("auto")
    assert box.kind == "unavailable" and not box.confines
    assert box.note.startswith("bwrap does not confine a program here: "), box.note
    assert "processes" in box.note and "not shown" in box.note, box.note
    if ROOT_HARNESS and skip:
        assert "runs as root (uid 0)" in box.note
        assert "it can write /proc/sys/kernel/core_pattern" in box.note
    with pytest.raises(RunError, match="does not confine"):
        choose("bwrap")


@pytest.mark.skipif(not ROOT_HARNESS, reason="only a root harness runs the agent as another user")
def test_a_program_only_root_can_read_is_said_before_it_starts(
        bwrap: Sandbox, tmp_path: Path, suite: dict[str, Task]) -> None:
    program = tmp_path / "mine" / "agent.sh"
    program.parent.mkdir()
    program.write_text("phoneshell finish --status done\n")
    program.chmod(0o600)
    with SimServer(secret=SimServer.new_secret()) as sim, \
            open_rig(sim.url, tmp_path, private=True, effect_timeout_s=0.5) as rig:
        row = run_attempt(AttemptPlan("R", tmp_path / "R", suite["settings.about.reach"], 1,
                                      sandbox=bwrap), rig, make_agent(f"command:sh {program}")).row
    assert row.outcome == "skipped", row
    assert (f"{program} cannot be read by the agent's user (uid {AGENT_UID}, not the "
            "harness's root") in row.skip_reason
    assert "chmod o+r" in row.skip_reason


@pytest.mark.slow  # 2.3 s measured: the README's command stays quick
def test_an_honest_agent_reads_names_and_tls_and_a_deep_tree_it_leaves_is_taken_back(
        bwrap: Sandbox, tmp_path: Path, suite: dict[str, Task]) -> None:
    """Not root, the agent still reads /etc (names, TLS roots, its own user: bubblewrap made
    /etc 0700 once); and the tree it leaves, however deep or long-named, is the harness's
    again after its turn, with no set-ID or others' write bit, and its claim is read."""
    folder = tmp_path / "R" / "attempts" / "settings.about.reach" / "1"
    try:
        attempt(tmp_path, suite["settings.about.reach"], f"sh {HERE / 'honest_reads.sh'}",
                choose("auto"))
        found = (folder / "agent" / "found.txt").read_text().splitlines()
        assert found[:3] == ["etc True", "localhost True", "tls True"], found
        assert found[3].startswith("user "), found
        claim = json.loads((folder / "agent" / "claim.json").read_text())
        assert claim["summary"] == "read and left a tree"
        assert (folder / "verdict.json").is_file()  # graded: a skip writes no verdict
        if ROOT_HARNESS:
            for name, left in _deepest(folder / "agent" / "deep", ("sh", "open")):
                assert left.st_uid == 0, name
                assert not left.st_mode & (stat.S_ISUID | stat.S_IWOTH), (name, oct(left.st_mode))
    finally:  # pytest's own clean-up recurses, and would fail on what is left
        if (folder / "agent" / "deep").exists():
            _remove_deep(folder / "agent" / "deep")


def _deepest(top: Path, names: tuple[str, ...]) -> list[tuple[str, os.stat_result]]:
    """`names` in the deepest folder under `top` (one folder each level), stat'ed by open
    folder: their path is longer than the system takes."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    fd = os.open(top, flags)
    try:
        while True:
            with os.scandir(fd) as entries:
                below = [e.name for e in entries if e.is_dir(follow_symlinks=False)
                         and e.name not in names]
            if not below:
                return [(name, os.stat(name, dir_fd=fd, follow_symlinks=False))
                        for name in names]
            step = os.open(below[0], flags, dir_fd=fd)
            os.close(fd)
            fd = step
    finally:
        os.close(fd)


def _remove_deep(top: Path) -> None:
    """Remove a tree too deep and long-named for `shutil.rmtree` (recursive before Python
    3.12, and by path), folder by open folder."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    fds, names = [os.open(top, flags)], [str(top)]
    while fds:
        with os.scandir(fds[-1]) as entries:
            listed = [(e.name, e.is_dir(follow_symlinks=False)) for e in entries]
        folders = [name for name, is_folder in listed if is_folder]
        for name, is_folder in listed:
            if not is_folder:
                os.unlink(name, dir_fd=fds[-1])
        if folders:
            fds.append(os.open(folders[0], flags, dir_fd=fds[-1]))
            names.append(folders[0])
            continue
        os.close(fds.pop())
        name = names.pop()
        if fds:
            os.rmdir(name, dir_fd=fds[-1])
        else:
            os.rmdir(name)


def test_an_agent_cannot_use_the_kernels_keyrings(bwrap: Sandbox, tmp_path: Path,
                                                  suite: dict[str, Task]) -> None:
    """Keyrings are in no namespace: every confined program of a root harness is one uid, and
    a note an agent stored there was read by the next run's agent (a red team's). The sandbox's
    seccomp filter answers add_key, request_key and keyctl with EPERM."""
    folder = attempt(tmp_path, suite["settings.about.reach"],
                     f"{sys.executable} {HERE / 'keyring_probe.py'}", choose("auto"))
    assert (folder / "agent" / "keys.txt").read_text().split() == ["refused", "refused"]
