"""A grader's identity is the bytes it is made of (`phoneshell.grader`): what git is told not to
see, or set to show otherwise, changes nothing of it, and an edit anywhere in the package changes
it whatever git thinks (red team 45: `skip-worktree`, `.git/info/exclude`, git's safe.directory
and a user's diff settings).

The package here is a real copy of phoneshell and its bridge in a git repository of its own.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from other_version import git, package_repo

from phoneshell.grader import code_digest, git_commit, grader_name

VALUES = "phoneshell/checks/values.py"


def _identity(repo: Path) -> tuple[str, str]:
    """The copy's code digest and its commit for people, as `this_grader` computes them."""
    code, blobs = code_digest({"phoneshell": repo / "phoneshell", "bridge": repo / "bridge"})
    return code, git_commit(repo / "phoneshell", blobs)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    package_repo(tmp_path / "repo")
    return tmp_path / "repo"


def test_a_clean_copy_is_its_commit_and_an_edit_another_grader(repo: Path) -> None:
    head = git(repo, "rev-parse", "HEAD")
    clean = _identity(repo)
    assert clean[1] == head and _identity(repo) == clean
    values = repo / VALUES
    values.write_text(values.read_text() + "\n# graded otherwise\n")
    edited = _identity(repo)
    assert edited[0] != clean[0] and edited[1] == f"{head}+dirty"
    (repo / "bridge" / "extra.py").write_text("X = 1\n")
    assert _identity(repo)[0] not in (clean[0], edited[0])


def test_an_edit_git_is_told_not_to_see_is_another_grader(repo: Path) -> None:
    clean = _identity(repo)
    values = repo / VALUES
    values.write_text(values.read_text() + "\n# graded otherwise\n")
    git(repo, "update-index", "--skip-worktree", VALUES)
    assert git(repo, "status", "--porcelain") == "", "git sees nothing"
    code, commit = _identity(repo)
    assert code != clean[0] and commit.endswith("+dirty")
    git(repo, "update-index", "--no-skip-worktree", VALUES)
    git(repo, "update-index", "--assume-unchanged", VALUES)
    assert _identity(repo) == (code, commit)


def test_a_file_git_ignores_in_the_package_is_part_of_the_grader(repo: Path) -> None:
    clean = _identity(repo)
    shadow = repo / "phoneshell" / "checks" / "values_pkg"
    shadow.mkdir()
    (shadow / "__init__.py").write_text("x = 1\n")
    with (repo / ".git" / "info" / "exclude").open("a") as exclude:
        exclude.write("phoneshell/checks/values_pkg/\n")
    assert git(repo, "status", "--porcelain") == "", "git sees nothing"
    code, commit = _identity(repo)
    assert code != clean[0] and commit.endswith("+dirty")


def test_the_owner_of_the_checkout_changes_nothing(repo: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The red team's case: a checkout owned by another user, begun under sudo (SUDO_UID
    names its owner, so git trusts it) and resumed without: git refuses the folder ("dubious
    ownership"), which read as no checkout at all."""
    if os.geteuid() != 0:
        pytest.skip("needs root to own a folder as another user")
    head = git(repo, "rev-parse", "HEAD")
    for root, dirs, files in os.walk(repo):
        for name in [root, *(os.path.join(root, f) for f in dirs + files)]:
            os.lchown(name, 65534, 65534)
    monkeypatch.setenv("SUDO_UID", "65534")
    as_sudo = _identity(repo)
    monkeypatch.delenv("SUDO_UID")
    monkeypatch.setenv("HOME", str(repo.parent))  # no safe.directory of the machine's
    assert _identity(repo) == as_sudo and as_sudo[1] == head


def test_a_users_git_settings_change_nothing(repo: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    values = repo / VALUES
    values.write_text(values.read_text() + "\n# graded otherwise\n")
    (repo / "phoneshell" / "added.py").write_text("Y = 2\n")
    plain = _identity(repo)
    config = tmp_path / "gitconfig"
    config.write_text("[color]\n\tdiff = always\n\tui = always\n[diff]\n\tnoprefix = true\n"
                      "\texternal = /bin/false\n[core]\n\tautocrlf = true\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    assert _identity(repo) == plain


def test_a_wheel_is_a_checkout_without_a_commit(repo: Path, tmp_path: Path) -> None:
    """The same files outside any checkout (as installed from a wheel) are the same grader."""
    code, _ = _identity(repo)
    site = tmp_path / "site-packages"
    site.mkdir()
    for name in ("phoneshell", "bridge"):
        (repo / name).rename(site / name)
    assert _identity(site) == (code, "")


def test_graders_named_for_people() -> None:
    assert grader_name("0.1.0", "1a2b3c4d5e6f7a8b", "0123456789abcdef0") == \
        "phoneshell 0.1.0 (git 1a2b3c4d5e6f, code 0123456789abcdef)"
    assert grader_name("0.1.0", "1a2b3c4d5e6f7a8b+dirty", "ab" * 32) == \
        f"phoneshell 0.1.0 (git 1a2b3c4d5e6f, with uncommitted changes, code {'ab' * 8})"
    assert grader_name("0.1.0", "", "ab" * 32) == \
        f"phoneshell 0.1.0 (no git commit, code {'ab' * 8})"
    # recorded before the code's digest was
    assert grader_name("0.1.0", "1a2b3c4d5e6f7a8b+dirty.0011") == \
        "phoneshell 0.1.0 (git 1a2b3c4d5e6f, with uncommitted changes 0011)"
    assert grader_name("0.1.0", "") == "phoneshell 0.1.0 (no git commit recorded)"
