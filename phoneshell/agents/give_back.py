"""The agent's folder made readable again after every turn, whatever the sandbox: what it locked
opened to the harness's user, and what no later reader may meet removed. Never follows a link.

Red team 128's agent, run by a harness that is not root, ended its turn with `chmod 0` on its
folder: the harness's own user, as the program was, could open nothing there any more, and
every later reader of `agent/` (the sweep that keeps it as data, the look at its claim, the
report, a regrade, a replay, a judge's sources) met "Permission denied". Taking the folder back
from another user (`agent_user.take_back`) happens only under a root harness, and gives back
the owner, not the bits. So after every turn the one walk (`walk.walk`) goes over the folder and

* gives the harness's user back its read, write and search bits on every folder and file it
  owns (a folder `u+rwx`, a file `u+rw`; execute bits stay the sweep's, `kept_data`);
* removes FIFOs, sockets and device nodes: a reader opening one blocks, or reaches a device;
* removes every link that could lead out of the folder: one to an absolute path, or whose
  path climbs with `..` (`d -> .` makes `d/..` the folder above, whatever the words say). The
  links left are relative and never climb, so each resolves below the folder it is in.

Each entry is pinned by a descriptor that follows no link (O_PATH) and changed through it.
What was locked or removed is said in the attempt's row: the agent's doing, graded as it
stands. A file left only read-only (a git clone's objects) was never locked: it gets its write
bit without a word. What cannot be given back or removed is deleted, and fails the attempt, as
the take-back does.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from phoneshell.agents import walk

FOLDER_BITS = stat.S_IRWXU
"""What the harness's user gets back on a folder: read, write, search."""
FILE_BITS = stat.S_IRUSR | stat.S_IWUSR
"""What it gets back on a file: read and write (never execute: `kept_data`)."""
NAMED = 3
"""How many entries of each kind the row names before it only counts."""

Kind = Literal["folder", "file", "locked folder", "locked file", "special", "out", "left"]
"""What one entry is to the give-back: a folder or file its owner could read, one it had
locked (opened now), a FIFO, socket or device node or a link that could lead out (to remove),
or what is left as it is (a link that stays below, another user's entry)."""


@dataclass(frozen=True)
class TakenBack:
    """What the harness did to the agent's folder after its turn (`Sandbox.take_back`)."""

    untaken: str
    """What could not be taken or given back, each deleted: the attempt fails with it ("" when
    all was)."""
    given: str
    """What the agent had locked or left that no reader may meet, given back or removed: said
    in its row, its own doing ("" when it had left nothing such)."""


def give_back(scratch: Path) -> TakenBack:
    """Give the folder `scratch` (and all below it) back to the harness's user for reading, with
    the agent's programs all gone. It never raises."""
    visitor = _GiveBack(os.geteuid())
    try:
        parent = os.open(scratch.parent, walk.FOLDER)
    except OSError as exc:
        return TakenBack(f"its folder could not be given back ({scratch.parent}: cannot open "
                         f"it ({exc.strerror or exc}))", "")
    try:
        # the folder itself, as an entry of the folder above: a link or a FIFO put in its
        # place by an unconfined agent is removed, never followed
        into = visitor.give(parent, scratch.name, scratch.name)
        done = list(visitor.troubles)
        if into:
            done += walk.walk(scratch, visitor)
    except OSError as exc:
        done = [*visitor.troubles, f"{scratch}: {exc.strerror or exc}"]
    finally:
        os.close(parent)
    untaken = (f"the harness could not give back all it left in its folder "
               f"({walk.said(done)})") if done else ""
    return TakenBack(untaken, visitor.said())


class _GiveBack(walk.Visitor):
    """Each entry opened to its owner, or removed; what was done noted for the row."""

    def __init__(self, uid: int) -> None:
        super().__init__()
        self.uid = uid
        self.opened: list[str] = []
        self.removed: list[str] = []
        self.links: list[str] = []

    def visit(self, folder: int, entry: os.DirEntry[str], place: str) -> bool:
        try:  # most entries need nothing: one look, no descriptor
            st = entry.stat(follow_symlinks=False)
        except FileNotFoundError:
            return False
        except OSError:
            st = None  # looked at again when pinned, and said there
        if st is not None and st.st_uid == self.uid and (
                stat.S_ISDIR(st.st_mode) and st.st_mode & FOLDER_BITS == FOLDER_BITS
                or stat.S_ISREG(st.st_mode) and st.st_mode & FILE_BITS == FILE_BITS):
            return stat.S_ISDIR(st.st_mode)
        return self.give(folder, entry.name, place)

    def unopened(self, folder: int, name: str, place: str, exc: OSError) -> None:
        self._delete(folder, name, place, f"cannot open it ({exc.strerror or exc})")

    def give(self, folder: int, name: str, place: str) -> bool:
        """Give back one entry of the open `folder`; whether to walk into it (a folder)."""
        try:
            kind, target = _give(folder, name, self.uid)
            if kind in ("special", "out"):
                os.unlink(name, dir_fd=folder)
        except FileNotFoundError:
            return False  # gone: nothing to give back
        except OSError as exc:
            self._delete(folder, name, place, f"cannot give it back ({exc.strerror or exc})")
            return False
        if kind.startswith("locked"):
            self.opened.append(place)
        elif kind == "special":
            self.removed.append(place)
        elif kind == "out":
            self.links.append(f"{place} -> {walk.shorten(target)}")
        return kind.endswith("folder")

    def _delete(self, folder: int, name: str, place: str, why: str) -> None:
        left = walk.delete_at(folder, name, place)
        self.troubles.append(f"{place}: {why}; " + (
            "deleted" if not left else f"not all deleted: {walk.said(left)}"))

    def said(self) -> str:
        """The row's words for what was given back ("" when nothing was locked or removed)."""
        parts = [f"{what} ({_named(places)})" for what, places in (
            ("opened what it had locked to the harness", self.opened),
            ("removed FIFOs, sockets or device nodes", self.removed),
            ("removed links that could lead out of its folder", self.links)) if places]
        if not parts:
            return ""
        return "its folder was given back to the harness after its turn: " + "; ".join(parts)


def _named(places: list[str]) -> str:
    more = f" and {len(places) - NAMED:,} more" if len(places) > NAMED else ""
    return ", ".join(places[:NAMED]) + more


def _give(folder: int, name: str, uid: int) -> tuple[Kind, str]:
    """Give back one entry (by name in an open folder), pinned where Linux can (O_PATH: a FIFO
    opened so never blocks), by a chmod that follows no link elsewhere (macOS): its kind, and
    a link's target.

    Raises:
        OSError: it cannot be pinned, looked at or changed.
    """
    if not hasattr(os, "O_PATH"):
        return _change(os.stat(name, dir_fd=folder, follow_symlinks=False), name, folder, uid,
                       lambda bits: os.chmod(name, bits, dir_fd=folder, follow_symlinks=False))
    pinned = os.open(name, os.O_PATH | os.O_NOFOLLOW, dir_fd=folder)
    try:
        return _change(os.fstat(pinned), name, folder, uid,
                       lambda bits: os.chmod(f"/proc/self/fd/{pinned}", bits))
    finally:
        os.close(pinned)


def _change(st: os.stat_result, name: str, folder: int, uid: int,
            chmod: Callable[[int], None]) -> tuple[Kind, str]:
    if stat.S_ISLNK(st.st_mode):
        target = os.readlink(name, dir_fd=folder)
        return ("out" if _may_lead_out(target) else "left"), target
    if not (stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode)):
        return "special", ""
    if st.st_uid != uid:
        return "left", ""  # another user's, not the harness's to open: its refusal is the agent's
    folder_ = stat.S_ISDIR(st.st_mode)
    want = FOLDER_BITS if folder_ else FILE_BITS
    if st.st_mode & want != want:
        chmod(stat.S_IMODE(st.st_mode) | want)
    read = stat.S_IRUSR | (stat.S_IXUSR if folder_ else 0)
    locked = st.st_mode & read != read
    if folder_:
        return ("locked folder" if locked else "folder"), ""
    return ("locked file" if locked else "file"), ""


def _may_lead_out(target: str) -> bool:
    """Whether a link's path could resolve outside the folder it is in: absolute, or climbing
    with `..` anywhere (through a link to `.`, `d/..` is the folder above)."""
    return os.path.isabs(target) or ".." in Path(target).parts

__all__ = ["FILE_BITS", "FOLDER_BITS", "TakenBack", "give_back"]
