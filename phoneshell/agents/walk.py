"""The one walk over a tree an agent wrote (its scratch folder): by open folder, in bounded
descriptors, and saying what it could not walk. Every look at such a tree goes through it: its
size and file count (`bounds`), the take-back after its turn (`agent_user`), its deletion.

A tree an agent leaves is built against the walker. A walk by path fails below PATH_MAX (4,096
bytes: seventeen 250-character names), and one that skipped what it could not open let a red
team's agent hide 150,000 files and 1.5 GiB there. A walk holding a descriptor for every folder
it had still to enter ran out of them on a folder of 30,000 folders, and the take-back skipped
what it could not open: set-user-ID files of `nobody` stayed in the run folder. So this walk
holds one folder open at a time (and, for a moment, the one it goes to, and the copy
`os.scandir` reads from): it goes down by name (`openat` relative to the folder it is in, never
following a link) and back up by `..`, checked to be the very folder it came down from (its
device and inode); a tree moved under it is walked again from the top (`TRIES` times, then
that is a trouble). Its queues hold names, never descriptors, so neither width nor depth costs
descriptors, and no path is ever longer than one name. What it cannot open or list is never
passed over in silence: it is a trouble the caller sees and acts on (over the limits, taken
back or deleted, and said in the attempt's row). An entry gone before it was reached is not
there to count: that is no trouble.

It never leaves the file system the tree is on. An unconfined root agent bind-mounted a folder
of the host into its own (its mounts are the host's: red team 133), and the give-back after its
turn changed the bits of what was there and removed its FIFOs and links. An entry on another
file system than the folder it is in (a mount point, `elsewhere`) is never visited nor entered:
the visitor is told of it (`Visitor.mounted`), and a tree whose top is such a mount is not
walked at all (a trouble). Every place a walk names is as the agent chose it, so it is shown
quoted when it is not plain (`shown`): a name cannot pass for the harness's own words.
"""

from __future__ import annotations

import contextlib
import errno
import os
from dataclasses import dataclass, field
from pathlib import Path

from phoneshell.untrusted import named

FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
"""How a folder is opened: never through a link, never left open across an exec."""
TRIES = 3
"""How often a walk starts again from the top when the tree moved under it."""
PLACE_CHARS = 160
"""How much of an entry's place (its path below the top) a trouble shows."""


class Moved(Exception):
    """The tree changed under the walk: a folder's `..` is not where it came down from, or
    what was listed as a folder is a folder no more."""


class Visitor:
    """What a walk does with each entry (`visit`) and each folder it is done with (`leave`);
    what it could not do goes into `troubles`, each naming the entry's place."""

    def __init__(self) -> None:
        self.troubles: list[str] = []
        self.mounts: list[str] = []
        """The places of the entries on another file system, never visited nor entered."""

    def start(self) -> None:
        """Begin (again, when the tree moved under the last try): nothing seen yet."""
        self.troubles = []
        self.mounts = []

    def visit(self, folder: int, entry: os.DirEntry[str], place: str) -> bool:
        """Do what the walk is for with one entry of the open `folder`; whether the walk goes
        into it (a folder, not a link to one)."""
        raise NotImplementedError

    def leave(self, folder: int, name: str, place: str) -> None:
        """Everything below `name` (a folder in the open `folder`) was walked."""

    def unopened(self, folder: int, name: str, place: str, exc: OSError) -> None:
        """The folder `name` in the open `folder` could not be opened to walk what is in it."""
        self.troubles.append(f"{place}: cannot open it ({exc.strerror or exc})")

    def mounted(self, folder: int, name: str, place: str) -> None:
        """The entry `name` of the open `folder` is on another file system (a mount): never
        visited, never entered."""
        self.mounts.append(place)


@dataclass
class _Level:
    name: str
    place: str
    ident: tuple[int, int]
    below: list[str] = field(default_factory=list)
    """The folders in it still to walk: names, never descriptors."""


def walk(top: Path | int, visitor: Visitor) -> list[str]:
    """Walk every entry below `top` (a folder by path, or open: it stays open), top down;
    the visitor's troubles, [] when it walked all of it.

    Raises:
        OSError: `top` itself cannot be opened. Whatever `visitor` raises ends the walk (all
            it opened closed) and goes to the caller.
    """
    owned = not isinstance(top, int)
    fd = os.open(top, FOLDER) if not isinstance(top, int) else top
    try:
        if _mount_top(fd):
            return [f"{shown(str(top) if owned else '.')}: another file system is mounted "
                    f"there, never walked"]
        for _ in range(TRIES):
            visitor.start()
            try:
                _walk(fd, visitor)
                return visitor.troubles
            except Moved as exc:
                moved = str(exc)
        return [*visitor.troubles, f"{moved}: the tree kept changing while it was walked "
                                   f"({TRIES} tries)"]
    finally:
        if owned:
            os.close(fd)


def _mount_top(fd: int) -> bool:
    """Whether the open folder `fd` is on another file system than the folder above it."""
    above = os.open("..", FOLDER, dir_fd=fd)
    try:
        return os.fstat(above).st_dev != os.fstat(fd).st_dev
    finally:
        os.close(above)


def _walk(top: int, visitor: Visitor) -> None:
    st = os.fstat(top)
    stack = [_Level("", "", (st.st_dev, st.st_ino))]
    fd = top
    try:
        _list(fd, stack[-1], visitor, st.st_dev)
        while stack:
            level = stack[-1]
            if level.below:
                name = level.below.pop()
                place = f"{level.place}/{name}" if level.place else name
                try:
                    inner = os.open(name, FOLDER, dir_fd=fd)
                except FileNotFoundError:
                    continue  # gone: nothing there to walk
                except OSError as exc:
                    if exc.errno in (errno.ENOTDIR, errno.ELOOP):
                        raise Moved(f"{shown(place)} is no folder now") from exc
                    visitor.unopened(fd, name, shown(place), exc)
                    continue
                if os.fstat(inner).st_dev != stack[0].ident[0]:  # mounted since it was listed
                    os.close(inner)
                    visitor.mounted(fd, name, shown(place))
                    continue
                if fd != top:
                    os.close(fd)
                fd = inner
                st = os.fstat(fd)
                stack.append(_Level(name, place, (st.st_dev, st.st_ino)))
                _list(fd, stack[-1], visitor, stack[0].ident[0])
                continue
            stack.pop()
            if not stack:
                return
            fd = _up(fd, top, stack[-1], len(stack) == 1)
            visitor.leave(fd, level.name, shown(level.place))
    finally:
        if fd != top:
            os.close(fd)


def _list(fd: int, level: _Level, visitor: Visitor, disk: int) -> None:
    """Visit each entry of the open folder `fd` on the file system `disk` (a device number),
    noting the folders to walk into; one on another is the visitor's to be told of."""
    try:
        with os.scandir(fd) as entries:
            for entry in entries:
                place = shown(f"{level.place}/{entry.name}" if level.place else entry.name)
                try:
                    if entry.stat(follow_symlinks=False).st_dev != disk:
                        visitor.mounted(fd, entry.name, place)
                        continue
                except FileNotFoundError:
                    continue  # gone: nothing there
                except OSError:
                    pass  # not looked at: the visitor looks again, and says why it cannot
                if visitor.visit(fd, entry, place):
                    level.below.append(entry.name)
    except OSError as exc:
        visitor.troubles.append(f"{shown(level.place or '.')}: cannot list it "
                                f"({exc.strerror or exc})")


def _up(fd: int, top: int, parent: _Level, at_top: bool) -> int:
    """The open folder above `fd` (closed), which must be `parent`; at the top, `top` itself
    (the caller's descriptor, kept open). On `Moved`, `fd` is still open."""
    try:
        above = os.open("..", FOLDER, dir_fd=fd)
    except OSError as exc:
        raise Moved(f"{shown(parent.place or '.')} cannot be gone back up to "
                    f"({exc.strerror})") from exc
    try:
        st = os.fstat(above)
        if (st.st_dev, st.st_ino) != parent.ident:
            raise Moved(f"{shown(parent.place or '.')} was moved")
    except BaseException:
        os.close(above)
        raise
    os.close(fd)
    if at_top:
        os.close(above)
        return top
    return above


def shorten(place: str) -> str:
    """An entry's place as a trouble shows it: its start and end, with how many folders
    deep it is when that is too long to show."""
    if len(place) <= PLACE_CHARS:
        return place
    half = PLACE_CHARS // 2
    return f"{place[:half]}...({place.count('/')} folders deep)...{place[-half:]}"


def shown(place: str) -> str:
    """An entry's place (as the agent named it) as a row may show it: shortened, and quoted
    when it is not plain (`untrusted.named`), so no name reads as the harness's words."""
    return named(shorten(place))


def elsewhere(folder: int, name: str) -> bool:
    """Whether the entry `name` of the open `folder` is on another file system (a mount point),
    never to be changed nor entered (False when it is gone).

    Raises:
        OSError: it cannot be looked at.
    """
    try:
        st = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return st.st_dev != os.fstat(folder).st_dev


class _Delete(Visitor):
    def visit(self, folder: int, entry: os.DirEntry[str], place: str) -> bool:
        try:
            if entry.is_dir(follow_symlinks=False):
                # a folder its owner closed (0000): the harness's user may open it again
                with contextlib.suppress(OSError, NotImplementedError):
                    os.chmod(entry.name, 0o700, dir_fd=folder, follow_symlinks=False)
                return True
            os.unlink(entry.name, dir_fd=folder)
        except FileNotFoundError:
            pass
        except OSError as exc:
            self.troubles.append(f"{place}: cannot delete it ({exc.strerror or exc})")
        return False

    def mounted(self, folder: int, name: str, place: str) -> None:
        self.troubles.append(f"{place}: another file system is mounted there, never entered")

    def leave(self, folder: int, name: str, place: str) -> None:
        try:
            os.rmdir(name, dir_fd=folder)
        except FileNotFoundError:
            pass
        except OSError as exc:
            self.troubles.append(f"{place}: cannot delete the folder ({exc.strerror or exc})")


def delete(top: Path) -> list[str]:
    """Delete everything below `top` (left, empty); what could not be deleted and why."""
    try:
        return walk(top, _Delete())
    except FileNotFoundError:
        return []
    except OSError as exc:
        return [f"{top}: cannot open it ({exc.strerror or exc})"]


def delete_at(folder: int, name: str, place: str) -> list[str]:
    """Delete the entry `name` of the open `folder`, and all below it when it is a folder;
    what could not be deleted and why ([] when it is gone)."""
    try:
        os.unlink(name, dir_fd=folder)
        return []
    except FileNotFoundError:
        return []
    except (IsADirectoryError, PermissionError):
        pass  # a folder (Linux says EISDIR; POSIX lets it say EPERM)
    except OSError as exc:
        return [f"{place}: cannot delete it ({exc.strerror or exc})"]
    try:
        if elsewhere(folder, name):
            return [f"{place}: another file system is mounted there, never entered"]
    except OSError as exc:
        return [f"{place}: cannot look at it ({exc.strerror or exc})"]
    with contextlib.suppress(OSError, NotImplementedError):
        os.chmod(name, 0o700, dir_fd=folder, follow_symlinks=False)
    try:
        inner = os.open(name, FOLDER, dir_fd=folder)
    except OSError as exc:
        troubles = [f"{place}: cannot open it to delete it ({exc.strerror or exc})"]
    else:
        try:
            troubles = [f"{place}/{t}" for t in walk(inner, _Delete())]
        finally:
            os.close(inner)
    try:
        os.rmdir(name, dir_fd=folder)
    except FileNotFoundError:
        pass
    except OSError as exc:
        troubles.append(f"{place}: cannot delete the folder ({exc.strerror or exc})")
    return troubles


class _Past(Exception):
    """A size passed its limit at the entry named."""


class _Sizes(Visitor):
    """Adds up the sizes the entries say they are (`st_size`, which a sparse file sets past
    its blocks), up to a limit."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__()
        self.max_bytes, self.size = max_bytes, 0

    def start(self) -> None:
        super().start()
        self.size = 0

    def visit(self, folder: int, entry: os.DirEntry[str], place: str) -> bool:
        try:
            self.size += entry.stat(follow_symlinks=False).st_size
            inside = entry.is_dir(follow_symlinks=False)
        except OSError:
            return False  # gone, or not to be looked at (a count of its blocks says so)
        if self.size > self.max_bytes:
            raise _Past(place)
        return inside


def past_size(top: Path, max_bytes: int) -> str | None:
    """Where, walking `top`, its entries' sizes (`st_size`) add up past `max_bytes` (None:
    they do not, or `top` cannot be walked)."""
    try:
        walk(top, _Sizes(max_bytes))
    except _Past as past:
        return str(past)
    except OSError:
        return None
    return None


def said(troubles: list[str]) -> str:
    """A row's words for a walk's troubles: the first, and how many more."""
    more = f" and {len(troubles) - 1:,} more" if len(troubles) > 1 else ""
    return f"{troubles[0]}{more}"


__all__ = ["FOLDER", "TRIES", "Moved", "Visitor", "delete", "delete_at", "elsewhere",
           "past_size", "said", "shorten", "shown", "walk"]
