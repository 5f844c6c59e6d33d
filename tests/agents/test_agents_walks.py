"""The harness's walks over the tree a confined agent leaves (`phoneshell/agents/walk.py`):
its size and file count, the take-back after its turn, its deletion, however the tree is
built against them. Red team 31's agents hid 150,000 files and 1.5 GiB below a path past
PATH_MAX, where the count never looked, and left 30,000 folders side by side, more than the
harness could hold open, so set-user-ID files of `nobody` stayed in the run folder."""

from __future__ import annotations

import ast
import os
import resource
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from phoneshell.agents import bounds, make_agent, walk
from phoneshell.agents.agent_user import AGENT_UID
from phoneshell.agents.sandbox import Sandbox
from phoneshell.records import ResultRow
from phoneshell.runner import AttemptPlan, Rig, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

AGENT = Path(__file__).resolve().parent / "tree_agent.py"
ROOT_HARNESS = os.geteuid() == 0
TASK = "settings.about.reach"


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    with SimServer(secret=SimServer.new_secret()) as sim, \
            open_rig(sim.url, tmp_path, private=True, effect_timeout_s=0.5) as rig:
        yield rig


def attempt(rig: Rig, tmp_path: Path, task: Task, sandbox: Sandbox, *args: str) -> ResultRow:
    """One attempt whose agent is `tree_agent.py ARGS`, confined as a run confines it."""
    agent = make_agent(f"command:{sys.executable} {AGENT} {' '.join(args)}")
    return run_attempt(AttemptPlan("R", tmp_path / "R", task, 1, sandbox=sandbox), rig,
                       agent).row


def scratch(tmp_path: Path) -> Path:
    return tmp_path / "R" / "attempts" / TASK / "1" / "agent"


class _All(walk.Visitor):
    """Every entry below a folder, looked at without following links (the test's own walk:
    `os.walk` goes by path and stops at PATH_MAX)."""

    def start(self) -> None:
        super().start()
        self.seen: list[tuple[str, os.stat_result]] = []

    def visit(self, folder: int, entry: os.DirEntry[str], place: str) -> bool:
        # a place too long to show whole is shortened with words, so shown quoted
        shown = ast.literal_eval(place) if place.startswith("'") else place
        self.seen.append((shown, entry.stat(follow_symlinks=False)))
        return entry.is_dir(follow_symlinks=False)


def everything(top: Path) -> list[tuple[str, os.stat_result]]:
    seen = _All()
    assert walk.walk(top, seen) == []
    return seen.seen


@pytest.mark.parametrize(("files", "mib", "said"), [
    (600, 0, "it made more than 500 files in its folder"),
    (10, 12, "it wrote more than 8 MiB into its folder")], ids=["files", "bytes"])
def test_what_it_writes_below_path_max_counts_and_is_deleted(
        bwrap: Sandbox, rig: Rig, tmp_path: Path, suite: dict[str, Task],
        monkeypatch: pytest.MonkeyPatch, files: int, mib: int, said: str) -> None:
    """Seventeen folders of 250-character names: no path reaches what is below them. The
    count goes there by open folder; the agent is stopped and all of it deleted."""
    monkeypatch.setattr(bounds, "FOLDER_MAX_FILES", 500)
    monkeypatch.setattr(bounds, "FOLDER_MAX_BYTES", 8 << 20)
    row = attempt(rig, tmp_path, suite[TASK], bwrap, "deep", str(files), str(mib))
    assert row.outcome == "failed", row.error
    assert said in row.error, row.error
    assert "what it wrote into its folder was deleted" in row.error
    assert not any(scratch(tmp_path).iterdir())


@pytest.mark.skipif(not ROOT_HARNESS, reason="only a root harness gives the agent its folder")
@pytest.mark.parametrize(("folders", "depth"), [
    (4_000, 2_000), pytest.param(30_000, 3_000, marks=pytest.mark.slow)],
    ids=["fast", "red-team-size"])
@pytest.mark.slow  # 5.2 s measured: the README's command stays quick
def test_a_folder_of_more_folders_than_descriptors_is_taken_back_whole(
        bwrap: Sandbox, rig: Rig, tmp_path: Path, suite: dict[str, Task], folders: int,
        depth: int) -> None:
    """Folders side by side, 2777 each, a 4777 file in every tenth, and a chain of folders
    with a 4777 file at its end, both more than the 1,024 descriptors the harness is allowed
    here: every entry is root's again, with no set-ID or others' write bit, and nothing was
    deleted (the take-back holds a few descriptors, not one a folder nor one a level). The
    red team's size takes a minute on a busy disk (its folders are made and deleted)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 1024), hard))
    try:
        row = attempt(rig, tmp_path, suite[TASK], bwrap, "wide", str(folders), str(depth))
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        assert "take back" not in row.error and "stopped" not in row.error, row.error
        left = everything(scratch(tmp_path))
        wide = [place for place, _ in left if place.startswith("wide/")]
        chain = [place for place, _ in left if place == "c" or place.startswith("c/")]
        assert (len(wide), len(chain)) == (folders * 11 // 10, depth + 1)  # none deleted
        assert f"({depth} folders deep)" in chain[-1] and chain[-1].endswith("/c/f"), chain[-1]
        nobodys = [place for place, st in left
                   if st.st_uid == AGENT_UID or st.st_gid == AGENT_UID]
        assert not nobodys, f"{len(nobodys)} entries still nobody's, e.g. {nobodys[:3]}"
        bits = stat.S_ISUID | stat.S_ISGID | stat.S_IWOTH
        flagged = [(place, oct(st.st_mode)) for place, st in left if st.st_mode & bits]
        assert not flagged, f"{len(flagged)} keep set-ID or others' write, e.g. {flagged[:3]}"
    finally:  # pytest's own clean-up recurses, and would fail on the chain
        assert walk.delete(scratch(tmp_path)) == []


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_tree_that_keeps_moving_under_the_count_stops_the_agent(
        bwrap: Sandbox, rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    """Folders swapped between two parents without end: no count of it holds, and what the
    harness cannot count is over the limits, said so, not passed over."""
    started = time.monotonic()
    row = attempt(rig, tmp_path, suite[TASK], bwrap, "moving", "60.0")
    assert row.outcome == "failed", row.error
    assert "the harness could not count all it wrote into its folder" in row.error, row.error
    assert "the tree kept changing while it was walked" in row.error, row.error
    assert time.monotonic() - started < 40  # stopped by the watch, not by its own end


ACLS = ("system.posix_acl_access", "system.posix_acl_default")


@pytest.mark.skipif(not ROOT_HARNESS, reason="only a root harness gives the agent its folder")
def test_acls_the_agent_set_are_gone_after_its_turn(
        bwrap: Sandbox, rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    """An ACL entry for uid 65534 survives a chown and a chmod, and a folder's default ACL
    passes on to what is made in it later: the take-back removes them, so no `nobody`
    elsewhere can write what the agent left."""
    row = attempt(rig, tmp_path, suite[TASK], bwrap, "acl")
    assert "take back" not in row.error, row.error
    left = scratch(tmp_path)
    for name in ("kept.sh", "drop"):
        assert (left / name).exists(), f"{name} was deleted, not taken back"
        assert not set(ACLS) & set(os.listxattr(left / name)), f"{name} keeps an ACL"
        assert (left / name).stat().st_uid == 0


def test_an_entry_swapped_for_a_link_while_taken_back_is_never_followed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process of the agent's user swaps a file for a link to a host file between the
    take-back's look and its change: the change goes to the file it pinned, never the link's
    target, and nothing raises."""
    from phoneshell.agents import agent_user
    folder, victim = tmp_path / "scratch", tmp_path / "host-file"
    folder.mkdir()
    victim.write_text("the owner's")
    victim.chmod(0o600)
    (folder / "x").write_text("x")
    os.chmod(folder / "x", 0o4757)
    opening, looking, swapped = os.open, os.stat, []

    def swap() -> None:  # once, right after the take-back's first look at "x"
        if not swapped:
            swapped.append(True)
            os.unlink(folder / "x")
            os.symlink(victim, folder / "x")

    def open_then_swap(path: str, flags: int, *args: object, **kwargs: object) -> int:
        fd = opening(path, flags, *args, **kwargs)  # type: ignore[arg-type]
        if path == "x":
            swap()
        return fd

    def look_then_swap(path: object, *args: object, **kwargs: object) -> os.stat_result:
        seen = looking(path, *args, **kwargs)  # type: ignore[arg-type]
        if path == "x":
            swap()
        return seen

    monkeypatch.setattr(agent_user, "dropping", lambda: True)
    monkeypatch.setattr(os, "open", open_then_swap)
    monkeypatch.setattr(os, "stat", look_then_swap)
    said = agent_user.take_back(folder)
    monkeypatch.undo()
    assert swapped
    assert stat.S_IMODE(victim.stat().st_mode) == 0o600 and victim.read_text() == "the owner's"
    assert said == "" or "x" in said, said
