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
* removes every link that leads out of the folder: followed from the folder it is in, link by
  link as a reader's open would (`_leads_out`), it reaches a place outside, or one it cannot
  tell: an absolute path, a `..` above the folder (through `d -> .`, `d/..` is the folder
  above, whatever the words say), another file system. A venv's `bin/python -> /usr/...` goes;
  `node_modules/.bin/x -> ../pkg/cli.js` stays: it resolves below the folder.

Each entry is pinned by a descriptor that follows no link (O_PATH) and changed through it. An
entry on another file system (a mount an unconfined root agent made) is never changed nor
entered (`walk`): the give-back never acts outside the folder.

What the harness did is a note (`TakenBack.given`, the row's `notes`), never the agent's error:
an honest agent's venv or node_modules gets links removed too (red team 133). Every name and
target in it is the agent's, shown quoted when not plain (`walk.shown`). A file left only
read-only (a git clone's objects) was never locked: it gets its write bit without a word. What
cannot be given back or removed is deleted, and fails the attempt, as the take-back does.
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
    """What the agent had locked or left that no reader may meet, given back, removed or left
    alone (a mount): a note in its row, never its error ("" when it had left nothing such)."""


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
        if walk.elsewhere(parent, scratch.name):  # a mount over it: nothing of it is its own
            return TakenBack(f"its folder could not be given back ({scratch}: another file "
                             f"system is mounted there, never entered)", "")
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
        self.top: tuple[int, int] | None = None
        """The folder's own device and inode, once it is known: where a link may lead."""
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
            if self.top is None:  # the folder itself: its links are looked at from it on
                st = os.stat(name, dir_fd=folder, follow_symlinks=False)
                self.top = (st.st_dev, st.st_ino) if stat.S_ISDIR(st.st_mode) else None
            kind, target = _give(folder, name, self.uid, self.top)
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
            self.links.append(f"{place} -> {walk.shown(target)}")
        return kind.endswith("folder")

    def _delete(self, folder: int, name: str, place: str, why: str) -> None:
        left = walk.delete_at(folder, name, place)
        self.troubles.append(f"{place}: {why}; " + (
            "deleted" if not left else f"not all deleted: {walk.said(left)}"))

    def said(self) -> str:
        """The row's note on what was given back ("" when nothing was locked, removed or
        mounted)."""
        parts = [f"{what} ({_named(places)})" for what, places in (
            ("opened what it had locked to the harness", self.opened),
            ("removed FIFOs, sockets or device nodes", self.removed),
            ("removed links leading out of its folder", self.links),
            ("left alone what another file system mounted in it holds, never entered",
             self.mounts)) if places]
        if not parts:
            return ""
        return "its folder was given back to the harness after its turn: " + "; ".join(parts)


def _named(places: list[str]) -> str:
    """The first `NAMED` places (each already `walk.shown`), and how many more."""
    more = f" and {len(places) - NAMED:,} more" if len(places) > NAMED else ""
    return ", ".join(places[:NAMED]) + more


def _give(folder: int, name: str, uid: int, top: tuple[int, int] | None) -> tuple[Kind, str]:
    """Give back one entry (by name in an open folder), pinned where Linux can (O_PATH: a FIFO
    opened so never blocks), by a chmod that follows no link elsewhere (macOS): its kind, and
    a link's target.

    Raises:
        OSError: it cannot be pinned, looked at or changed.
    """
    if not hasattr(os, "O_PATH"):
        return _change(os.stat(name, dir_fd=folder, follow_symlinks=False), name, folder, uid,
                       lambda bits: os.chmod(name, bits, dir_fd=folder, follow_symlinks=False),
                       top)
    pinned = os.open(name, os.O_PATH | os.O_NOFOLLOW, dir_fd=folder)
    try:
        return _change(os.fstat(pinned), name, folder, uid,
                       lambda bits: os.chmod(f"/proc/self/fd/{pinned}", bits), top)
    finally:
        os.close(pinned)


def _change(st: os.stat_result, name: str, folder: int, uid: int,
            chmod: Callable[[int], None], top: tuple[int, int] | None) -> tuple[Kind, str]:
    if stat.S_ISLNK(st.st_mode):
        target = os.readlink(name, dir_fd=folder)
        return ("out" if top is None or _leads_out(folder, target, top) else "left"), target
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


LINKS_FOLLOWED = 40
"""How many links one link's path may go through before it is taken to lead out (Linux's own
limit for a path)."""


def _leads_out(folder: int, target: str, top: tuple[int, int]) -> bool:
    """Whether a link in the open `folder` with path `target`, followed as a reader's open
    would (each link on the way read and followed too), leads out of the tree whose top is
    `top` (its device and inode), or where nobody can tell: an absolute path, `..` from the
    top, another file system, a folder it cannot open, too many links. A path that stops at
    something absent, or goes on below a file, leads nowhere: it stays.

    Not by its words: `node_modules/.bin/x -> ../pkg/cli.js` climbs and stays below; with
    `a/z -> ..`, `a/w -> z/../..` reads as `a`'s sibling, yet leads above the top."""
    parts = target.split("/")
    if target.startswith("/"):
        return True
    at = os.dup(folder)
    followed = 0
    try:
        while parts:
            part = parts.pop(0)
            if part in ("", "."):
                continue
            st = os.fstat(at)
            if part == "..":
                if (st.st_dev, st.st_ino) == top:
                    return True
                step = os.open("..", walk.FOLDER, dir_fd=at)
            else:
                try:
                    entry = os.stat(part, dir_fd=at, follow_symlinks=False)
                except (FileNotFoundError, NotADirectoryError):
                    return False
                if entry.st_dev != st.st_dev:
                    return True
                if stat.S_ISLNK(entry.st_mode):
                    followed += 1
                    inner = os.readlink(part, dir_fd=at)
                    if followed > LINKS_FOLLOWED or inner.startswith("/"):
                        return True
                    parts[:0] = inner.split("/")
                    continue
                if not stat.S_ISDIR(entry.st_mode):
                    return False  # a file (what follows it cannot be opened)
                step = os.open(part, walk.FOLDER, dir_fd=at)
            os.close(at)
            at = step
        return False
    except OSError:
        return True  # a folder it cannot open or look at: nobody can tell where it leads
    finally:
        os.close(at)


__all__ = ["FILE_BITS", "FOLDER_BITS", "TakenBack", "give_back"]
