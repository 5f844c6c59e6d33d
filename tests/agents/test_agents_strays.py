"""What an unconfined (`--sandbox none`) program leaves behind: a comet (a process that never stays
one process: fork, parent exits, child goes on) neither outlives its turn nor buries the harness
in dead children; a process that leaves its turn's pids cgroup is named. Linux only (the
subreaper, PID namespaces and cgroups are Linux's); the comet is C, built here with gcc, for a
comet in Python forks too slowly to slip past a sweep."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from phoneshell.agents import make_agent, pidns, pids, strays
from phoneshell.records import ResultRow
from phoneshell.runner import AttemptPlan, Rig, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")

COMET = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
                          return t.tv_sec + t.tv_nsec / 1e9; }
/* comet SECONDS FILE REST: fork on (parent exits) for SECONDS, then write FILE, sleep REST */
int main(int argc, char **argv) {
    double start = now(); setsid();
    while (now() - start < atof(argv[1])) {
        pid_t p = fork();
        if (p > 0) _exit(0);
        if (p < 0) usleep(200);
    }
    FILE *f = fopen(argv[2], "w"); if (f) { fprintf(f, "alive %d\n", getpid()); fclose(f); }
    sleep(atoi(argv[3]));
    return 0;
}
"""


@pytest.fixture(scope="module")
def comet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        pytest.skip("no C compiler here to build the comet")
    folder = tmp_path_factory.mktemp("comet")
    (folder / "comet.c").write_text(COMET)
    subprocess.run([gcc, "-O2", "-o", str(folder / "comet"), str(folder / "comet.c")],
                   check=True)
    return folder / "comet"


def _dead_children() -> int:
    """The harness's dead children that it adopted (not started)."""
    mine = os.getsid(0)
    found = (strays.read(pid) for pid in strays._child_pids())
    return sum(1 for p in found if p is not None and p.dead and strays._adopted(p, mine))


def _launch(comet: Path, seconds: float, alive: Path, rest: int) -> subprocess.Popen[bytes]:
    """A program that leaves a comet behind (in a session of its own) and exits."""
    line = f"{shlex.quote(str(comet))} {seconds} {shlex.quote(str(alive))} {rest} &"
    program = subprocess.Popen(["/bin/sh", "-c", line], start_new_session=True)
    program.wait()
    return program


def test_orphans_that_exit_leave_the_harness_no_pile_of_dead_children(
        comet: Path, tmp_path: Path) -> None:
    """Each generation of a comet is a dead child of the harness (its subreaper) a millisecond
    later: unreaped, a turn's worth takes every pid the machine has."""
    assert strays.adopt_orphans()
    before = strays.others()
    program = _launch(comet, 0.5, tmp_path / "alive", 0)
    most = 0
    deadline = time.monotonic() + 0.6
    while time.monotonic() < deadline:
        most = max(most, _dead_children())
        time.sleep(0.05)
    strays.stop_strays(before, (), program.pid)
    assert (tmp_path / "alive").exists(), "the comet should have run its course here"
    assert most < 1000, f"{most} dead children piled up below the harness"
    time.sleep(0.3)
    assert _dead_children() == 0


@pytest.mark.slow  # 2.6 s measured: the README's command stays quick
def test_a_comet_left_behind_is_stopped_by_the_sweep_and_named(
        comet: Path, tmp_path: Path) -> None:
    """Read /proc, then kill by pid, and the comet is gone by the time it is read, its next
    generation never seen: the sweep stops before it kills, and reads the harness's own
    children, where each generation lands alive."""
    assert strays.adopt_orphans()
    before = strays.others()
    alive = tmp_path / "alive"
    program = _launch(comet, 2.0, alive, 30)
    time.sleep(0.2)
    swept = strays.stop_strays(before, (), program.pid)
    assert swept.count >= 1 and swept.moving == 0, swept
    assert any(str(comet) in name for name in swept.named), swept
    time.sleep(2.2)  # past its moving: it would have settled and said so
    if alive.exists():  # where the survivor was: its parent and session (and the sweep's)
        pid = alive.read_text().split()[1]
        pytest.fail(f"the comet went on as {alive.read_text()!r}: {strays.read(pid)}; {swept}")


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    with SimServer() as sim, open_rig(sim.url, tmp_path, effect_timeout_s=0.5) as rig:
        yield rig


def attempt(rig: Rig, tmp_path: Path, task: Task, line: str) -> ResultRow:
    """One attempt of the shell command line `line`, unconfined (no sandbox)."""
    return run_attempt(AttemptPlan("R", tmp_path / "R", task, 1), rig,
                       make_agent(f"command:{line}")).row


CLAIM = "echo '{\"status\": \"done\", \"summary\": \"left\"}'"


@pytest.mark.slow  # 2.3 s measured: the README's command stays quick
def test_a_comet_an_agent_leaves_dies_with_its_turn_and_is_said(
        comet: Path, rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    """In its PID namespace the kernel kills the comet when the command line ends (where none
    can be made, the sweep does); either way the row says so."""
    alive = tmp_path / "alive"
    row = attempt(rig, tmp_path, suite["settings.about.reach"],
                  f"{shlex.quote(str(comet))} 1.5 {shlex.quote(str(alive))} 30 & {CLAIM}")
    if pidns.unavailable():
        assert "it left 1 process(es) running after its turn, outside its process group; " \
               "killed: pid " in row.error and str(comet) in row.error, row.error
    else:
        assert "it left process(es) running in its PID namespace when its command line " \
               "ended; the kernel killed them with it" in row.error, row.error
    time.sleep(2.0)
    assert not alive.exists(), alive.read_text()


LEAVE = ("import os, sys, time\n"
         "open(sys.argv[1], 'w').write(str(os.getpid()))\n"
         "time.sleep(0.6)\n"
         "print('{\"status\": \"done\", \"summary\": \"left\"}')\n")
"""Moves itself into the hierarchy's root cgroup (argv[1]: its cgroup.procs), past its limit."""


def test_a_process_that_leaves_its_process_limit_is_named(
        rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    """Root unconfined can write its pid into another cgroup and leave its limit: nothing
    prevents it, and the row says it."""
    parent = pids._parent()
    if parent is None or os.geteuid() != 0:
        pytest.skip("no pids cgroup here, or not root (then it cannot leave one)")
    procs = parent.parent / "cgroup.procs"
    program = tmp_path / "leave.py"
    program.write_text(LEAVE)
    row = attempt(rig, tmp_path, suite["settings.about.reach"],
                  f"{shlex.quote(sys.executable)} {program} {procs}")
    assert "it left its process limit (its cgroup): pid " in row.error, row.error
    assert sys.executable in row.error


def test_a_process_of_another_program_still_in_its_turn_is_not_this_ones_stray() -> None:
    """With several phones, two programs' turns run at once. A sandbox whose outer process
    died hands its inner processes to the harness; one program's sweep took the other's for
    its own strays, killed them and named them as escapes from its cgroup (a red team's
    `sim:2` run). A process in another running turn's cgroup is that turn's."""
    if pids._parent() is None:
        pytest.skip("no pids cgroup here (not root): no turn has a cgroup to tell them by")
    before = strays.others()
    theirs, ours = pids.Limit(), pids.Limit()
    other = subprocess.Popen(theirs.wrap(["sleep", "30"]), start_new_session=True)
    try:
        time.sleep(0.2)  # in its cgroup, a child of the harness, in a session of its own
        swept = strays.stop_strays(before, (), 0, ours.outside, ours.anothers)
        assert other.poll() is None, "the other program's process was stopped"
        assert swept.count == 0 and not swept.outside, (swept.named, swept.outside)
    finally:
        ours.close()
        theirs.close()  # kills what is left in its cgroup, as the end of its turn does
        other.wait(timeout=10)
