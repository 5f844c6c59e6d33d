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
the program is the harness's own user, which is not root. Without `setpriv` a root harness has
no confined way to run a program (`missing`): never a silent run as root.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

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


def take_back(scratch: Path) -> None:
    """Give everything in the scratch folder back to the harness's user once the program and
    all it started are gone: the host keeps nothing a `nobody` elsewhere could change, and
    the change of owner clears any set-user-ID bit the program set on a file; modes that let
    others write are taken away too. Links are not followed. The walk goes folder by open
    folder, without recursion, so no tree the program left (thousands deep, names past
    PATH_MAX) stops it, and it never raises: what cannot be taken back is left, and the
    scratch folder itself is the harness's again in any case."""
    if not dropping():
        return
    uid, gid = os.geteuid(), os.getegid()
    _own(str(scratch), uid, gid, None)
    try:
        pending = [os.open(scratch, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)]
    except OSError:
        return
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as entries:
                names = [(e.name, e.is_dir(follow_symlinks=False)) for e in entries]
        except OSError:
            names = []
        for name, is_folder in names:
            _own(name, uid, gid, folder)
            if is_folder:
                try:
                    pending.append(os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW,
                                           dir_fd=folder))
                except OSError:
                    continue
        os.close(folder)


def _own(name: str, uid: int, gid: int, folder_fd: int | None) -> None:
    """Chown one entry (by name in an open folder) to the harness, without following a link,
    and take away others' write bit and the set-ID bits."""
    try:
        os.chown(name, uid, gid, dir_fd=folder_fd, follow_symlinks=False)
        mode = os.stat(name, dir_fd=folder_fd, follow_symlinks=False).st_mode
        if not stat.S_ISLNK(mode):
            os.chmod(name, stat.S_IMODE(mode) & ~(stat.S_IWOTH | stat.S_ISUID | stat.S_ISGID),
                     dir_fd=folder_fd)
    except (OSError, NotImplementedError):
        return
