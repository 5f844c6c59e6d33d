"""The host user a confined program runs as: never root, whoever runs the harness.

Dropping every capability does not make root harmless. A process whose uid is 0 still passes
every file-permission check that the owner bits of root's files allow, and a fresh `/proc` holds
the kernel's tunables (`/proc/sys`), owned by root and writable by their owner: a red team's
agent, uid 0 in bubblewrap with no capabilities, wrote `kernel.core_pattern` as a pipe to a
script of its own, crashed one of its processes, and the kernel ran the script as real root on
the host, outside every namespace; it read the harness's command line and the task file. A user
namespace mapping the agent's uid 0 onto the host's 0 does not help: the kernel checks the
host's uid.

So when the harness runs as root, bubblewrap itself still runs as root (it binds folders only
root can open: a test's 0700 temporary folder, a Python under `/root`), but the program inside
runs as `AGENT_UID`: bubblewrap keeps only the capabilities to change user (`BWRAP_CAPS`), and
`setpriv` (util-linux) becomes that user with no groups, no capabilities left in any set, and the
bounding set empty, then runs the program. Its scratch folder is given to that user for its turn
(`give`) and taken back after it (`take_back`). When the harness is not root nothing changes:
the program is the harness's own user, which is not root. Whoever ran it, the folder is then
made readable to the harness's user again (`give_back`, whatever the sandbox). Without
`setpriv` a root harness has no confined way to run a program (`missing`): never a silent run
as root.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from phoneshell.agents import walk

AGENT_UID = AGENT_GID = 65534
"""Who a confined program is when the harness is root: `nobody`, which owns no file of the
system, so the program can write nothing outside its scratch folder and its own `/tmp`."""
SETPRIV_PATH = os.pathsep.join(("/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin"))
"""Where `setpriv` is looked for: the system folders, which every sandbox shows."""
BWRAP_CAPS = ("--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID",
              "--cap-add", "CAP_SETPCAP")
"""What a root bubblewrap hands the program it starts (`setpriv`): enough to become
`AGENT_UID` and to empty the bounding set (CAP_SETPCAP), nothing else; `setpriv` drops them
all before the agent's program runs."""


def dropping() -> bool:
    """Whether confined programs must be made another user: the harness is root."""
    return os.geteuid() == 0


def _setpriv() -> str | None:
    return shutil.which("setpriv", path=SETPRIV_PATH)


def missing() -> str:
    """Why a root harness cannot run a confined program as `AGENT_UID` ("" when it can, or
    need not)."""
    if not dropping() or _setpriv():
        return ""
    return ("the harness runs as root and setpriv (util-linux) is not installed, so an agent "
            "would run as root in the sandbox, where root can rewrite the kernel's settings "
            "and escape it")


def bwrap_caps() -> list[str]:
    """bubblewrap's capability options: none at all, or (root) only what `setpriv` needs."""
    return list(BWRAP_CAPS) if dropping() else ["--cap-drop", "ALL"]


def become(argv: list[str]) -> list[str]:
    """`argv`, run as `AGENT_UID` when the harness is root (inside the sandbox).

    Raises:
        PermissionError: the harness is root and `setpriv` is missing (`missing`): never run
            the program as root instead.
    """
    if not dropping():
        return argv
    setpriv = _setpriv()
    if setpriv is None:
        raise PermissionError(missing())
    return [setpriv, f"--reuid={AGENT_UID}", f"--regid={AGENT_GID}", "--clear-groups",
            "--inh-caps=-all", "--bounding-set=-all", "--", *argv]


def who() -> str:
    """The confined program's user, as a row says it."""
    if dropping():
        return f"uid {AGENT_UID}, not the harness's root"
    return f"uid {os.geteuid()}, the harness's own"


def give(scratch: Path) -> None:
    """Make the scratch folder the program's own (its HOME, its claim, its turns file)."""
    if dropping():
        os.chown(scratch, AGENT_UID, AGENT_GID, follow_symlinks=False)


def take_back(scratch: Path) -> str:
    """Give everything in the scratch folder back to the harness's user once the program and
    all it started are gone: the host keeps nothing a `nobody` elsewhere could change, and
    the change of owner clears any set-user-ID bit the program set on a file; modes that let
    others write are taken away too. Links are not followed. The walk is `walk.walk` (by open
    folder, a bounded number of descriptors however deep or wide the tree, names past
    PATH_MAX), and each entry is looked at again once taken back. What cannot be taken back
    (or reached to be) is deleted, and why is returned: the attempt fails with it. It never
    raises.

    Returns:
        What could not be taken back ("" when all was, or when nothing was given).
    """
    if not dropping():
        return ""
    mine = _TakeBack(os.geteuid(), os.getegid())
    try:
        top = os.open(scratch, walk.FOLDER)
    except OSError as exc:
        troubles = [f"{scratch}: cannot open it ({exc.strerror or exc})"]
    else:
        try:
            why = _own(".", mine.uid, mine.gid, top)  # the folder itself, by its handle
            troubles = ([f"{scratch}: {why}"] if why else []) + walk.walk(top, mine)
        except OSError as exc:
            troubles = [f"{scratch}: {exc.strerror or exc}"]
        finally:
            os.close(top)
    if not troubles:
        return ""
    return (f"the harness could not take back all it left in its folder "
            f"({walk.said(troubles)})")


class _TakeBack(walk.Visitor):
    """Each entry the harness's, checked; what is not (and what cannot be opened) deleted."""

    def __init__(self, uid: int, gid: int) -> None:
        super().__init__()
        self.uid, self.gid = uid, gid

    def visit(self, folder: int, entry: os.DirEntry[str], place: str) -> bool:
        why = _own(entry.name, self.uid, self.gid, folder)
        if not why:
            return entry.is_dir(follow_symlinks=False)  # known from its look in `_own`
        self._delete(folder, entry.name, place, why)
        return False

    def unopened(self, folder: int, name: str, place: str, exc: OSError) -> None:
        self._delete(folder, name, place, f"cannot open it ({exc.strerror or exc})")

    def _delete(self, folder: int, name: str, place: str, why: str) -> None:
        left = walk.delete_at(folder, name, place)
        self.troubles.append(f"{place}: {why}; " + (
            "deleted" if not left else f"not all deleted: {walk.said(left)}"))


ACLS = ("system.posix_acl_access", "system.posix_acl_default")
"""The extended attributes that grant access beyond the mode bits: a named user's or group's
entry (`user:65534:rwx`) survives a chown and a chmod, and a folder's default ACL passes on to
what is made in it later. The program may set them on what it owns; the take-back removes
them."""


def _own(name: str, uid: int, gid: int, folder_fd: int) -> str:
    """Take one entry (by name in an open folder) back for the harness: chown it, remove its
    ACLs, take away others' write bit and the set-ID bits, and look again; why it is not the
    harness's alone now ("" when it is). The entry is pinned by a descriptor that does not
    follow a link (O_PATH), and every change goes through that descriptor, so an entry
    swapped for a link meanwhile (by a process of the agent's user elsewhere) is never
    followed. It never raises."""
    try:
        pinned = os.open(name, os.O_PATH | os.O_NOFOLLOW, dir_fd=folder_fd)
    except FileNotFoundError:
        return ""  # gone: nothing left to take back
    except OSError as exc:
        return f"cannot take it back ({exc.strerror or exc})"
    try:
        return _own_pinned(name, pinned, uid, gid, folder_fd)
    except FileNotFoundError:
        return ""
    except Exception as exc:  # noqa: BLE001 - any failure is this entry's, said and deleted
        return f"cannot take it back ({getattr(exc, 'strerror', None) or exc})"
    finally:
        os.close(pinned)


def _own_pinned(name: str, pinned: int, uid: int, gid: int, folder_fd: int) -> str:
    bits = stat.S_IWOTH | stat.S_ISUID | stat.S_ISGID
    if stat.S_ISLNK(os.fstat(pinned).st_mode):
        # A link's own owner; a link has no mode or ACL that grants anything.
        os.chown(name, uid, gid, dir_fd=folder_fd, follow_symlinks=False)
        now = os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
        if stat.S_ISLNK(now.st_mode) and (now.st_uid, now.st_gid) != (uid, gid):
            return f"still owned by uid {now.st_uid}, gid {now.st_gid}"
        return "" if stat.S_ISLNK(now.st_mode) else "it changed while it was taken back"
    inode = f"/proc/self/fd/{pinned}"  # the pinned inode itself, whatever its name is now
    os.chown(inode, uid, gid)
    for acl in set(ACLS) & set(os.listxattr(inode)):
        os.removexattr(inode, acl)
    mode = os.fstat(pinned).st_mode
    if mode & bits:
        os.chmod(inode, stat.S_IMODE(mode) & ~bits)
    now = os.fstat(pinned)
    if (now.st_uid, now.st_gid) != (uid, gid):
        return f"still owned by uid {now.st_uid}, gid {now.st_gid}"
    if now.st_mode & bits:
        return f"its mode is still {stat.S_IMODE(now.st_mode):o}"
    if set(ACLS) & set(os.listxattr(inode)):
        return "it still carries an ACL"
    return ""
