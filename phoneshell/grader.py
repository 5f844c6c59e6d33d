"""Which phoneshell grades: its identity is made of the bytes it is made of.

A grader is its version and a digest of its own files as on disk (`code_digest`): every file
under the folders `phoneshell` and `bridge` are imported from, `__pycache__` left out, read as
Python reads them (through links), sorted by path. It works for a checkout and a wheel alike,
needs no git, and does not move with git's configuration, index flags (`skip-worktree`,
`assume-unchanged`), ignore rules or the folder's owner: an edit git is told not to see, a
package folder listed in `.git/info/exclude` or a file written by another user are files, read
as any other (red team 45). The git commit is still recorded, for people to read, but never
compared.

Outside the digest: cached bytecode (a `__pycache__/*.pyc` whose stamp, the source's mtime and
size, matches runs without its code being read; marshal's output is not deterministic, so pyc
bytes are never hashed, and compiling every module again to compare would cost about a second a
process), what Python imports from elsewhere (the standard library, dependencies and their
versions, `.pth` files, `sitecustomize`) and an interpreter started with other flags: whoever
can write those changes the grader under any record. The digest tells honest edits apart.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import phoneshell
from phoneshell.errors import RunError
from phoneshell.records import RunManifest

PACKAGE = Path(phoneshell.__file__).parent
"""The folder phoneshell is imported from."""
GRADER_PACKAGES = ("phoneshell", "bridge")
"""The packages whose files make the grader (the bridge writes the log graded)."""
TASKS = ("phoneshell", "suite")
"""The task suite shipped in the package (a link to environments/ in a checkout): its task
files (*.yaml) are the exam, not the grader, and run.json records each by its own sha256."""
CACHE = "__pycache__"


class Grader(NamedTuple):
    """A phoneshell as a grader, as run.json records it."""

    version: str
    """`phoneshell_version`."""
    commit: str
    """`git_commit`, for people: "<commit>", "<commit>+dirty" when the files are not the
    commit's, "" outside a checkout."""
    code: str
    """`code_sha256`: the digest of its files (`code_digest`), what a resume compares."""


def package_folders() -> dict[str, Path]:
    """Each of `GRADER_PACKAGES` and the folder Python imports it from (absent: not found)."""
    found: dict[str, Path] = {}
    for name in GRADER_PACKAGES:
        module = sys.modules.get(name)
        origin = getattr(module, "__file__", None)
        if origin is None:
            spec = importlib.util.find_spec(name)
            origin = spec.origin if spec is not None else None
        if origin:
            found[name] = Path(origin).parent
    return found


class _Entry(NamedTuple):
    rel: str
    """Its path from the packages' folder: "phoneshell/checks/values.py"."""
    path: Path
    link: str
    """The link's text when it is a link, else ""."""
    folder: bool
    """A linked folder (its files follow it), or a folder seen already (a loop)."""
    linked: bool
    """Inside a linked folder: a commit holds the link, not this."""


def _files(name: str, top: Path) -> list[_Entry]:
    """Every file under `top` (package `name`), links followed (Python imports through them;
    a looped one is read once), `__pycache__` and the shipped tasks left out; a linked folder is
    an entry of its own before its files."""
    found: list[_Entry] = []
    seen: set[str] = set()

    def walk(folder: Path, rel: str, linked: bool) -> None:
        real = os.path.realpath(folder)
        if real in seen:
            found.append(_Entry(rel, folder, "loop -> " + real, True, linked))
            return
        seen.add(real)
        tasks = rel == "/".join(TASKS)
        for entry in sorted(os.scandir(folder), key=lambda e: e.name):
            path, here = Path(entry.path), f"{rel}/{entry.name}"
            link = os.readlink(path) if entry.is_symlink() else ""
            if entry.name == CACHE or (tasks and entry.name.endswith((".yaml", ".yml"))):
                continue
            if entry.is_dir(follow_symlinks=True):
                if link:
                    found.append(_Entry(here, path, link, True, linked))
                walk(path, here, linked or bool(link))
            else:
                found.append(_Entry(here, path, link, False, linked))
        seen.discard(real)

    walk(top, name, False)
    return found


def code_digest(folders: dict[str, Path]) -> tuple[str, dict[str, str]]:
    """The sha256 of the grader's files (`_files` of each package, in order), and the git blob
    id of each entry a commit would hold, by relative path (a link's is its text's), to tell a
    checkout from its commit.

    Raises:
        RunError: a file could not be read, named: the identity cannot be computed, which is
            never read as another grader.
    """
    digest = hashlib.sha256()
    blobs: dict[str, str] = {}
    for name in GRADER_PACKAGES:
        if name not in folders:
            digest.update(f"{name}: not found\0".encode())
            continue
        for entry in _files(name, folders[name]):
            data, kind = b"", "folder"
            if entry.link and not os.path.exists(entry.path):
                kind = "dangling link"  # nothing Python can import: its text is digested
            elif not entry.folder:
                try:
                    mode = os.stat(entry.path).st_mode
                    data = entry.path.read_bytes() if stat.S_ISREG(mode) else b""
                except OSError as exc:
                    raise RunError(f"phoneshell cannot tell which grader it is: its file "
                                   f"{entry.path} cannot be read ({exc.strerror})",
                                   hint="make every file under phoneshell/ and bridge/ "
                                        "readable, or remove the ones that are not "
                                        "phoneshell's") from exc
                kind = "file" if stat.S_ISREG(mode) else f"special {stat.S_IFMT(mode):o}"
            head = f"{entry.rel}\0{kind}\0{entry.link}\0{len(data)}\0"
            digest.update(head.encode("utf-8", "surrogateescape") + data)
            if not entry.linked:
                blob = entry.link.encode("utf-8", "surrogateescape") if entry.link else data
                blobs[entry.rel] = hashlib.sha1(b"blob %d\0" % len(blob) + blob).hexdigest()
    return digest.hexdigest(), blobs


def _git(where: Path, *args: str) -> str:
    """`git ARGS` in `where`, whoever owns it (`safe.directory=*`: the owner is no part of the
    grader): its output, or "" when git fails or is not there."""
    try:
        done = subprocess.run(["git", "-c", "safe.directory=*", *args], capture_output=True,
                              cwd=where, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.decode("utf-8", "surrogateescape") if done.returncode == 0 else ""


def git_commit(package: Path = PACKAGE, blobs: dict[str, str] | None = None) -> str:
    """The git commit of the checkout `package` (phoneshell's own folder) is part of, for
    people; "" when there is none: installed from a wheel, no git on the machine, or a folder
    git does not track (a wheel in a virtualenv inside some other repository is not that
    repository's commit). Followed by "+dirty" when `blobs` (`code_digest`'s) are not the
    commit's files (compared by git blob id, not by git's view of the work tree)."""
    head = _git(package, "rev-parse", "HEAD").strip()
    if not head or not _git(package, "ls-files", "--", "__init__.py").strip():
        return ""
    if blobs is None:
        return head
    listed = _git(package.parent, "ls-tree", "-r", "-z", "HEAD", "--", *GRADER_PACKAGES)
    tracked: dict[str, str] = {}
    for line in filter(None, listed.split("\0")):
        meta, _, rel = line.partition("\t")
        if CACHE not in rel.split("/"):
            tracked[rel] = meta.split()[2]
    return head if tracked == blobs else f"{head}+dirty"


@functools.cache
def this_grader() -> Grader:
    """This phoneshell as a grader (computed once a process: the grader it started as).

    Raises:
        RunError: it cannot tell (a file it cannot read), naming the file.
    """
    folders = package_folders()
    code, blobs = code_digest(folders)
    return Grader(phoneshell.__version__, git_commit(folders.get("phoneshell", PACKAGE), blobs),
                  code)


def grader_name(version: str, commit: str, code: str = "") -> str:
    """A grader for people: "phoneshell 0.1.0 (git 1a2b3c4d5e6f, code 0123456789abcdef)", the
    commit marked "with uncommitted changes" when the files were not its; a run recorded before
    the code's digest was: "(git 1a2b3c4d5e6f, with uncommitted changes <digest>)" or "(no git
    commit recorded)"."""
    head, dirty, digest = commit.partition("+dirty")
    changes = f", with uncommitted changes{' ' + digest[1:] if digest else ''}" if dirty else ""
    parts = [f"git {head[:12]}{changes}" if head else
             "no git commit" if code else "no git commit recorded"]
    if code:
        parts.append(f"code {code[:16]}")
    return f"phoneshell {version} ({', '.join(parts)})"


def grader_of(manifest: RunManifest) -> str:
    """The phoneshell that graded a run, for people (`grader_name`)."""
    return grader_name(manifest.phoneshell_version, manifest.git_commit, manifest.code_sha256)


def same_grader(a: RunManifest, b: RunManifest) -> bool:
    """Whether one phoneshell graded both runs: the same version and code digest; runs recorded
    before the digest was are told apart by their version and git commit, and never the same
    as one that records it."""
    return ((a.phoneshell_version, a.code_sha256 or "git " + a.git_commit)
            == (b.phoneshell_version, b.code_sha256 or "git " + b.git_commit))


def is_this_grader(manifest: RunManifest) -> bool:
    """Whether this phoneshell graded a run: the same version and code digest (never the git
    commit; a run recorded before the digest was is another's)."""
    now = this_grader()
    return bool(manifest.code_sha256) and (manifest.phoneshell_version,
                                           manifest.code_sha256) == (now.version, now.code)


def check_grader(manifest: RunManifest) -> None:
    """Refuse to continue a run with a phoneshell other than the one that began it: run.json
    names one grader for every row, and a report's rate would mix two. Compared: the version
    and the code's digest, never the git commit (which a checkout's owner, git's settings and
    flags change). A run recorded before phoneshell recorded its code's digest was begun by an
    older phoneshell than this one, so it is refused too.

    Raises:
        RunError: naming the phoneshell that began the run and this one; or saying this one
            cannot tell which grader it is (`this_grader`), never calling it another.
    """
    if is_this_grader(manifest):
        return
    now = this_grader()
    began = grader_of(manifest)
    older = ("" if manifest.code_sha256 else
             ", which recorded no digest of its code: an older phoneshell than this one")
    head = manifest.git_commit.partition("+")[0]
    where = (f": git checkout {head}" + (", with the same uncommitted changes"
                                          if "+dirty" in manifest.git_commit else "")
             if head else "")
    raise RunError(f"run {manifest.run_id} was begun by {began}{older}; this is "
                   f"{grader_name(*now)}: its attempts would be graded by two phoneshells under "
                   "one record (run.json names one)",
                   hint=f"finish it with the phoneshell that began it ({began}{where}), or "
                        "start a new run")
