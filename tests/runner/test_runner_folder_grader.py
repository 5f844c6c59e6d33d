"""A run is graded by one phoneshell: run.json names it (version, git commit, and the commit's
uncommitted changes), and `--resume` refuses another, naming both, before it moves or runs
anything. Installed without git, a run still resumes (its commit is "" both times).

The phoneshells here are real: a copy of the package in a git repository of its own, committed,
edited and run as `python -m phoneshell`; and the checkout's own with another `__version__`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli
from other_version import one_task, run_as_version

from phoneshell.runner.folder import git_commit


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
                          cwd=repo, check=True, capture_output=True, text=True).stdout.strip()


def _package_repo(repo: Path) -> Path:
    """A git repository holding a copy of phoneshell and its bridge, committed; returns the
    copy's package folder."""
    for name in ("phoneshell", "bridge"):
        shutil.copytree(ROOT / name, repo / name, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__"))
    (repo / ".gitignore").write_text("__pycache__/\n")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "phoneshell")
    return repo / "phoneshell"


def test_the_commit_names_the_code_uncommitted_changes_and_all(tmp_path: Path) -> None:
    package = _package_repo(tmp_path / "repo")
    head = _git(tmp_path / "repo", "rev-parse", "HEAD")
    assert git_commit(package) == head
    grade = package / "grade.py"
    grade.write_text(grade.read_text() + "\n# another grader\n")
    edited = git_commit(package)
    assert edited.startswith(f"{head}+dirty.") and git_commit(package) == edited, \
        "the same edits name the same grader"
    grade.write_text(grade.read_text() + "# and another\n")
    assert git_commit(package) not in (head, edited)
    _git(tmp_path / "repo", "checkout", "-q", "--", "phoneshell/grade.py")
    (package / "bridge_extra.py").write_text("X = 1\n")  # a file not added is code too
    assert git_commit(package).startswith(f"{head}+dirty.")
    (package / "bridge_extra.py").unlink()
    bridge = tmp_path / "repo" / "bridge" / "__init__.py"
    bridge.write_text(bridge.read_text() + "\n# the bridge writes the log graded\n")
    assert git_commit(package).startswith(f"{head}+dirty.")


def test_a_package_git_does_not_track_has_no_commit(tmp_path: Path) -> None:
    """A wheel installed into a virtualenv inside some other repository: that repository's
    commit is not phoneshell's."""
    other = tmp_path / "project"
    (other / "venv" / "phoneshell").mkdir(parents=True)
    (other / "venv" / "phoneshell" / "__init__.py").write_text("")
    (other / ".gitignore").write_text("venv/\n")
    (other / "README").write_text("a project\n")
    _git(other, "init", "-q")
    _git(other, "add", "-A")
    _git(other, "commit", "-q", "-m", "project")
    assert git_commit(other / "venv" / "phoneshell") == ""
    assert git_commit(tmp_path / "nowhere") == ""


def _run(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`python -m phoneshell ARGS` with the package copy in `repo`."""
    return run_cli(*args, cwd=repo, env={"PYTHONPATH": str(repo)})


@pytest.mark.slow  # three whole programs: CI runs it
def test_a_resume_by_another_commit_is_refused_naming_both(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    package = _package_repo(repo)
    tasks = one_task(tmp_path / "tasks")
    runs = tmp_path / "runs"
    first = _run(repo, "run", str(tasks), "--runs", str(runs), "--run-id", "R")
    assert first.returncode == 0, first.stdout + first.stderr
    began = json.loads((runs / "R" / "run.json").read_text())
    head = _git(repo, "rev-parse", "HEAD")
    assert began["git_commit"] == head
    before = {p: p.read_bytes() for p in (runs / "R").rglob("*") if p.is_file()}
    grade = package / "grade.py"
    grade.write_text(grade.read_text() + "\n# graded otherwise now\n")
    dirty = _run(repo, "run", "--resume", "R", "--runs", str(runs))
    assert dirty.returncode == 2, dirty.stdout + dirty.stderr
    assert f"run R was begun by phoneshell 0.1.0 (git {head[:12]}); this is phoneshell 0.1.0 " \
        f"(git {head[:12]}, with uncommitted changes " in dirty.stderr, dirty.stderr
    assert "finish it with the phoneshell that began it" in dirty.stderr
    assert f"git checkout {head}" in dirty.stderr and "or start a new run" in dirty.stderr
    _git(repo, "commit", "-q", "-am", "another grader")
    again = _run(repo, "run", "--resume", "R", "--runs", str(runs))
    now = _git(repo, "rev-parse", "HEAD")
    assert again.returncode == 2 and f"this is phoneshell 0.1.0 (git {now[:12]})" in \
        again.stderr, again.stderr
    after = {p: p.read_bytes() for p in (runs / "R").rglob("*") if p.is_file()}
    assert after == before, "a refused resume changes nothing"
    _git(repo, "checkout", "-q", head)
    same = _run(repo, "run", "--resume", "R", "--runs", str(runs))
    assert same.returncode == 0, same.stdout + same.stderr


@pytest.mark.slow  # two whole programs: CI runs it
def test_a_resume_by_another_version_is_refused(tmp_path: Path) -> None:
    """The red team's case: `__version__` changed; the resume ran and graded under the old
    run.json. Refused now, before run.json or results.jsonl is touched."""
    runs = tmp_path / "runs"
    first = run_cli("run", str(one_task(tmp_path / "tasks")), "--runs", str(runs), "--run-id",
                    "R")
    assert first.returncode == 0, first.stdout + first.stderr
    manifest = (runs / "R" / "run.json").read_bytes()
    other = run_as_version("9.9.9", "run", "--resume", "R", "--runs", str(runs))
    assert other.returncode == 2, other.stdout + other.stderr
    assert "run R was begun by phoneshell 0.1.0 (" in other.stderr
    assert "this is phoneshell 9.9.9 (" in other.stderr, other.stderr
    assert (runs / "R" / "run.json").read_bytes() == manifest
