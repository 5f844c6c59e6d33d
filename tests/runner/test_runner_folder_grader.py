"""A run is graded by one phoneshell: run.json names it (version, git commit for people, and
the digest of its files as on disk: `phoneshell.grader`), and `--resume` refuses another, naming
both, before it moves or runs anything; the same phoneshell resumes whatever git says of its
folder (its owner, its index flags). Installed without git, a run still resumes.

The phoneshells here are real: a copy of the package in a git repository of its own, committed,
edited and run as `python -m phoneshell`; and the checkout's own with another `__version__`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import run_cli
from other_version import git, one_task, package_repo, run_as_version

from phoneshell.errors import RunError
from phoneshell.grader import check_grader, this_grader
from phoneshell.records import RunManifest

TASK = "settings.about.reach"


def _run(repo: Path, *args: str, env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    """`python -m phoneshell ARGS` with the package copy in `repo`."""
    return run_cli(*args, cwd=repo, env={"PYTHONPATH": str(repo), **(env or {})})


def _begin(tmp_path: Path, repo: Path, env: dict[str, str] | None = None) -> Path:
    """Run R on one task with the copy in `repo`; returns the runs folder."""
    tasks = one_task(tmp_path / "tasks")
    runs = tmp_path / "runs"
    first = _run(repo, "run", str(tasks), "--runs", str(runs), "--run-id", "R", env=env)
    assert first.returncode == 0, first.stdout + first.stderr
    return runs


def test_a_run_recorded_before_the_code_digest_is_refused_as_an_older_grader() -> None:
    """Every run this phoneshell begins records its code's digest: one without it was begun
    by an older phoneshell, whatever its commit says."""
    now = this_grader()
    manifest = RunManifest(run_id="R", started_at=0.0, phoneshell_version=now.version,
                           git_commit=now.commit.partition("+")[0], agent="null", paths=(),
                           task_globs=(), repeat=1, devices=(), tasks=())
    with pytest.raises(RunError, match="run R was begun by phoneshell 0.1.0 .*, which recorded "
                       "no digest of its code: an older phoneshell than this one; this is "):
        check_grader(manifest)
    check_grader(manifest.model_copy(update={"code_sha256": now.code, "git_commit": ""}))


@pytest.mark.slow  # three whole programs: CI runs it
def test_a_resume_by_another_commit_is_refused_naming_both(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    package = package_repo(repo)
    runs = _begin(tmp_path, repo)
    began = json.loads((runs / "R" / "run.json").read_text())
    head = git(repo, "rev-parse", "HEAD")
    assert began["git_commit"] == head and len(began["code_sha256"]) == 64
    code = began["code_sha256"][:16]
    before = {p: p.read_bytes() for p in (runs / "R").rglob("*") if p.is_file()}
    grade = package / "grade.py"
    grade.write_text(grade.read_text() + "\n# graded otherwise now\n")
    dirty = _run(repo, "run", "--resume", "R", "--runs", str(runs))
    assert dirty.returncode == 2, dirty.stdout + dirty.stderr
    assert f"run R was begun by phoneshell 0.1.0 (git {head[:12]}, code {code}); this is " \
        f"phoneshell 0.1.0 (git {head[:12]}, with uncommitted changes, code " in dirty.stderr, \
        dirty.stderr
    assert "finish it with the phoneshell that began it" in dirty.stderr
    assert f"git checkout {head}" in dirty.stderr and "or start a new run" in dirty.stderr
    git(repo, "commit", "-q", "-am", "another grader")
    again = _run(repo, "run", "--resume", "R", "--runs", str(runs))
    now = git(repo, "rev-parse", "HEAD")
    assert again.returncode == 2 and f"this is phoneshell 0.1.0 (git {now[:12]}, code " in \
        again.stderr, again.stderr
    after = {p: p.read_bytes() for p in (runs / "R").rglob("*") if p.is_file()}
    assert after == before, "a refused resume changes nothing"
    git(repo, "checkout", "-q", head)
    same = _run(repo, "run", "--resume", "R", "--runs", str(runs))
    assert same.returncode == 0, same.stdout + same.stderr


@pytest.mark.slow  # two whole programs: CI runs it
def test_an_edit_git_does_not_see_is_refused(tmp_path: Path) -> None:
    """The red team's case: values.py edited, and git told to skip it (`skip-worktree`):
    git's diff was empty, so the resume ran as the grader that began the run."""
    repo = tmp_path / "repo"
    package = package_repo(repo)
    runs = _begin(tmp_path, repo)
    values = package / "checks" / "values.py"
    values.write_text(values.read_text() + "\n# graded otherwise now\n")
    git(repo, "update-index", "--skip-worktree", "phoneshell/checks/values.py")
    hidden = _run(repo, "run", "--resume", "R", "--runs", str(runs))
    assert hidden.returncode == 2, hidden.stdout + hidden.stderr
    assert "with uncommitted changes, code " in hidden.stderr, hidden.stderr


@pytest.mark.slow  # two whole programs: CI runs it
def test_the_same_checkout_resumes_whoever_git_trusts(tmp_path: Path) -> None:
    """The red team's case: a checkout owned by another user, begun as root under sudo
    (SUDO_UID: git trusts the folder) and resumed from a root shell (git refuses it, "dubious
    ownership"): refused as "another grader (no git commit recorded)". The same one now."""
    if os.geteuid() != 0:
        pytest.skip("needs root to own a folder as another user")
    repo = tmp_path / "repo"
    package_repo(repo)
    subprocess.run(["chown", "-R", "65534:65534", str(repo)], check=True)
    runs = _begin(tmp_path, repo, env={"SUDO_UID": "65534"})
    assert json.loads((runs / "R" / "run.json").read_text())["git_commit"]
    env = {k: v for k, v in os.environ.items() if k != "SUDO_UID"}
    resumed = subprocess.run([sys.executable, "-m", "phoneshell", "run", "--resume", "R",
                              "--runs", str(runs)], capture_output=True, text=True, cwd=repo,
                             timeout=300, env={**env, "PYTHONPATH": str(repo),
                                               "HOME": str(tmp_path)})
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr


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
