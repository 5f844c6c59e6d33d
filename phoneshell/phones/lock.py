"""One run per phone: an exclusive lock per device, across processes, that says who holds it.

API (the runner takes one per phone before driving it):

    with DeviceLock(spec.lock_key, run_id="R"):      # or .acquire() ... .release()
        ...                                          # RunError if another process holds it
    DeviceLock(key).holder() -> Holder | None        # who holds it now, without taking it

The lock is `fcntl.flock` on `<lock dir>/<key>.lock`; the file holds the holder as JSON (pid,
run id, command, since, key). The kernel drops a flock when its process ends, however it ends
(exit, crash, SIGKILL), so a lock left by a dead process is simply taken: the file's old
contents are overwritten. The file descriptor is not inherited by child processes (Python opens
files close-on-exec), so an agent subprocess that outlives its run cannot keep the phone.

Lock directory: `$PHONESHELL_LOCK_DIR`, else `$XDG_RUNTIME_DIR/phoneshell/locks`, else
`~/.cache/phoneshell/locks`. Locks are per user unless every user points at one directory.
POSIX only (fcntl).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import stat
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from phoneshell.errors import RunError
from phoneshell.untrusted import named, one_line

ENV_LOCK_DIR = "PHONESHELL_LOCK_DIR"


class LockHeld(RunError):
    """Another process (or another DeviceLock here) holds the lock."""


@dataclass(frozen=True)
class Holder:
    """Who holds a device lock."""

    pid: int
    run_id: str
    command: str
    """The holder's command line."""
    since: str
    """When it took the lock (ISO 8601, local time with offset)."""
    key: str
    held_by: tuple[tuple[int, int], ...] = ()
    """(pid, uid) of each process the kernel says holds the lock (`/proc/locks`; () where it
    cannot tell): the file says what its writer wrote, this who holds it. Never written."""

    def describe(self) -> str:
        """One line for an error message: what the lock file says, quoted where it is not one
        printable line (anyone who reaches a run folder can write it), and who the kernel says
        holds the lock, with their uid (any user who can read a folder can flock it)."""
        run = f"run {named(self.run_id)}, " if self.run_id else ""
        said = (f"pid {self.pid} ({run}since {one_line(self.since)}): {one_line(self.command)}"
                if self.pid else "a process that named no holder in its lock file")
        if not self.held_by:
            return said
        if [pid for pid, _ in self.held_by] == [self.pid]:
            return f"{said} (uid {self.held_by[0][1]})"
        held = ", ".join(f"pid {pid} of uid {uid}" if uid >= 0 else f"pid {pid}"
                         for pid, uid in self.held_by)
        return f"{held} (who holds the lock, says the kernel; its lock file names {said})"


def lock_dir() -> Path:
    """Where device locks live (see the module docstring)."""
    if os.environ.get(ENV_LOCK_DIR):
        return Path(os.environ[ENV_LOCK_DIR])
    if os.environ.get("XDG_RUNTIME_DIR"):
        return Path(os.environ["XDG_RUNTIME_DIR"]) / "phoneshell" / "locks"
    return Path.home() / ".cache" / "phoneshell" / "locks"


class DeviceLock:
    """An exclusive lock on one device, held until `release` or the end of the process.

    Args:
        key: what names the device (`DeviceSpec.lock_key`: a udid or host:port).
        run_id: the run taking it, shown to anyone who finds the phone taken.
        directory: where the lock file goes (default: `lock_dir()`).
        command: what to show as the holder's command (default: this process's argv).
    """

    def __init__(self, key: str, run_id: str = "", *, directory: Path | None = None,
                 command: str | None = None, lock_directory: bool = False) -> None:
        if not key:
            raise ValueError("a device lock needs a key")
        self.key = key
        self.run_id = run_id
        self.command = command if command is not None else " ".join(sys.argv)
        self.path = (directory or lock_dir()) / f"{_safe(key)}.lock"
        self.lock_directory = lock_directory
        """flock the folder itself, the file holding only who holds it: a run folder's lock
        file can be removed by anyone who reaches the folder, the folder not while it holds a
        run."""
        self._fd: int | None = None
        self._folder_fd: int | None = None

    @property
    def _what(self) -> str:
        return "run's lock" if self.lock_directory else "device lock"

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd is not None

    def acquire(self) -> DeviceLock:
        """Take the lock, or fail at once naming who has it.

        Raises:
            RunError: another process (or another DeviceLock here) holds it; or the lock
                directory cannot be written.
            OSError: the holder could not be written into the lock file (a full disk: its
                errno kept, the file named); the lock is not held then.
        """
        if self._fd is not None:
            return self
        for _ in range(_RETRIES):
            fd = self._open()
            locked = self._folder(fd) if self.lock_directory else fd
            try:
                fcntl.flock(locked, fcntl.LOCK_EX | fcntl.LOCK_NB)
                still = _still_the_path(locked, self.path.parent if locked != fd else self.path)
            except BlockingIOError:
                holder = _read_holder(fd, locked)
                _close(fd, locked)
                who = holder.describe() if holder else "a process that is still starting"
                raise LockHeld(f"device {self.key} is in use by {who}",
                               hint="wait for that run to finish, or stop it; two runs must "
                                    f"never drive one phone (lock file {self.path})") from None
            except OSError:  # closing drops a flock taken: none is left behind
                _close(fd, locked)
                raise
            if still:
                break
            _close(fd, locked)  # removed or replaced while we waited: lock what it is now
        else:
            raise RunError(f"the lock file {self.path} keeps being removed or replaced",
                           hint="something else writes that folder; stop it, then try again")
        self._fd = fd
        self._folder_fd = locked if locked != fd else None
        try:
            self._write_holder(fd)
        except OSError as exc:
            # Held, the lock would stay taken by nobody's object until the process ends, and
            # a later acquire here (a resume, a retry once there is room) find itself in the
            # way: what was taken is given back, and the file left empty names no holder.
            self.release()
            raise OSError(exc.errno, f"cannot write who holds the {self._what} into it, so "
                                     f"it was not taken: {exc.strerror or exc}",
                          str(self.path)) from exc
        return self

    def _write_holder(self, fd: int) -> None:
        """Write this process as the holder into the lock file open at `fd`."""
        me = Holder(os.getpid(), self.run_id, self.command,
                    time.strftime("%Y-%m-%dT%H:%M:%S%z"), self.key)
        data = json.dumps({k: v for k, v in asdict(me).items() if k != "held_by"}).encode()
        os.ftruncate(fd, 0)
        if os.pwrite(fd, data, 0) != len(data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))  # cut short: a full disk

    def _folder(self, fd: int) -> int:
        """A descriptor of the lock file's folder, to flock (`lock_directory`)."""
        try:
            return os.open(self.path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
                           | os.O_CLOEXEC)
        except OSError as exc:
            os.close(fd)
            raise RunError(f"cannot open the folder {self.path.parent} to lock it: "
                           f"{exc.strerror or exc}") from exc

    def _open(self) -> int:
        """The lock file, opened without following a link (`open_lock_file`).

        Raises:
            RunError: it cannot be made, or is a link or not a regular file.
        """
        hint = f"set {ENV_LOCK_DIR} for device locks to a folder you can write"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RunError(f"cannot create the {self._what} {self.path}: its folder cannot be "
                           f"made ({exc.strerror or exc})", hint=hint) from exc
        try:
            return open_lock_file(self.path)
        except OSError as exc:
            raise RunError(f"cannot create the {self._what} {self.path}: "
                           f"{exc.strerror or exc} (a lock file is a regular file, never a "
                           "link: none is followed)", hint=f"remove it, or {hint}") from exc

    def release(self) -> None:
        """Give the lock up (the file stays, empty; removing it would race a new taker)."""
        fd, self._fd = self._fd, None
        folder, self._folder_fd = self._folder_fd, None
        if fd is None:
            return
        try:
            os.ftruncate(fd, 0)
        finally:
            os.close(fd)  # closing the last descriptor drops the flock
            if folder is not None:
                os.close(folder)

    def holder(self) -> Holder | None:
        """Who holds the lock now (None when nobody does)."""
        try:
            fd = open_lock_file(self.path, os.O_RDONLY)
        except OSError:  # none, or a link or a FIFO: held by nobody through it
            return None
        locked = fd
        try:
            if self.lock_directory:
                locked = os.open(self.path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                fcntl.flock(locked, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return _read_holder(fd, locked)
            fcntl.flock(locked, fcntl.LOCK_UN)
            return None
        except OSError:
            return None
        finally:
            _close(fd, locked)

    def __enter__(self) -> DeviceLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _close(fd: int, locked: int) -> None:
    """Close a lock file and the folder locked for it (the same descriptor, or not)."""
    os.close(fd)
    if locked != fd:
        os.close(locked)


def _safe(key: str) -> str:
    """A file name for a key: udids pass unchanged; `host:port` and URLs are made safe."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", key)[:200]


_RETRIES = 5
"""How often a lock file removed or replaced between its open and its flock is opened again."""


def open_lock_file(path: Path, flags: int = os.O_RDWR | os.O_CREAT) -> int:
    """A lock file's descriptor: never through a symbolic link (the holder is written into it,
    as whoever runs the harness: a link planted in a run folder would have that written over
    the file it names), never a FIFO or a device (which would block or be written to).

    Raises:
        OSError: it is a link (ELOOP), or not a regular file.
    """
    fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EINVAL, "not a regular file")
    return fd


def _still_the_path(fd: int, path: Path) -> bool:
    """Whether the locked file is still the one `path` names: a lock file removed (or replaced)
    while held would let the next taker lock a new file at the same path, and two hold it."""
    try:
        now = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)


def _read_holder(fd: int, locked: int) -> Holder | None:
    """The holder written in a lock file, with who the kernel says holds the lock on `locked`
    (None while the file names nobody and the kernel names nobody either)."""
    held_by = kernel_holders(locked)
    try:
        raw = os.pread(fd, 65536, 0)
        data = json.loads(raw.decode())
        return Holder(int(data["pid"]), str(data["run_id"]), str(data["command"]),
                      str(data["since"]), str(data["key"]), held_by)
    except (OSError, ValueError, KeyError, TypeError):
        return Holder(0, "", "", "", "", held_by) if held_by else None


def kernel_holders(fd: int) -> tuple[tuple[int, int], ...]:
    """(pid, uid) of each process holding a flock on the file or folder open at `fd`, from
    Linux's /proc/locks (uid -1 when its process cannot be read; () elsewhere)."""
    try:
        info = os.fstat(fd)
        with open("/proc/locks", encoding="ascii", errors="replace") as file:
            text = file.read()
    except OSError:
        return ()
    where = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    found: list[tuple[int, int]] = []
    for line in text.splitlines():
        parts = line.split()  # "1: FLOCK ADVISORY WRITE <pid> <maj>:<min>:<inode> 0 EOF"
        if len(parts) < 6 or parts[1] != "FLOCK" or parts[5] != where \
                or not (parts[4].isascii() and parts[4].isdigit()):
            continue  # another kind of lock, a waiter ("1: -> FLOCK ..."), or another file
        pid = int(parts[4])
        try:
            uid = os.stat(f"/proc/{pid}").st_uid
        except OSError:
            uid = -1
        if (pid, uid) not in found:
            found.append((pid, uid))
    return tuple(found)


__all__ = ["DeviceLock", "ENV_LOCK_DIR", "Holder", "LockHeld", "kernel_holders", "lock_dir",
           "open_lock_file"]
