"""Which sandbox confines a program here (`choose`): bubblewrap, asked before it is chosen whether
it really confines (`SELF_CHECK`: who the program is, what it sees and can write), macOS's
sandbox-exec, or none, said and recorded. What a sandbox shows and hides is `sandbox.Sandbox`'s.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from phoneshell.agents import agent_user, seccomp
from phoneshell.agents.sandbox import CHOICES, Sandbox, environment, shared
from phoneshell.errors import RunError

SELF_CHECK = """
id -u
for setting in /proc/sys/kernel/core_pattern /proc/sys/kernel/modprobe \\
               /proc/sys/kernel/pid_max /proc/sys/fs/file-max /proc/sysrq-trigger; do
  [ -e "$setting" ] && ( exec 3>>"$setting" ) 2>/dev/null && echo "it can write $setting"
done
seen=$(ls /proc | grep -c '^[0-9]')
[ "$seen" -le 8 ] || echo "it sees $seen processes: the machine's, not its own"
[ -e "$1" ] && echo "it sees a file it is not shown ($1)"
( : > "$HOME/.check" ) 2>/dev/null || echo "it cannot write its own folder"
( : > /tmp/.check ) 2>/dev/null || echo "it cannot write /tmp"
[ -z "$2" ] || "$2" - <<'PY' || echo "it can use the kernel's keyrings"
import ctypes, platform, sys
keyctl = {"x86_64": 250, "aarch64": 219}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
got = libc.syscall(keyctl, 0, -4, 0)  # KEYCTL_GET_KEYRING_ID of the user's keyring
sys.exit(0 if got == -1 and ctypes.get_errno() == 1 else 1)  # EPERM: the filter
PY
exit 0
"""
"""What a sandbox is asked before it is chosen, by a program run in it as an agent is: who it
is, which of the kernel's settings it can open for writing (opened, never written), whether it
sees the machine's processes or a file beside its folder ($1), and whether it can write where
an agent writes, and (where a filter is known for this machine: `seccomp`) whether it can use
the kernel's keyrings, which outlive its turn."""


@functools.lru_cache(maxsize=4)
def _bwrap_works(program: str) -> str:
    """"" when bubblewrap confines a program here, else why not: it cannot run (the kernel may
    forbid user namespaces to unprivileged users), or the program in it would be root, could
    write the kernel's settings or sees what it is not shown (then it is no sandbox), or an
    honest agent could not write its folder."""
    why = agent_user.missing()
    if why:
        return why
    place = Path(tempfile.mkdtemp(prefix="phoneshell-sandbox-check-"))
    place.chmod(0o755)  # what is not shown must be kept out by the sandbox, not by a mode
    scratch, unshown = place / "agent", place / "unshown"
    scratch.mkdir()
    unshown.write_text("")
    try:
        probe = Sandbox("bwrap", program=program).wrap(
            ["/bin/sh", "-c", SELF_CHECK, "sh", str(unshown),
             "" if seccomp.available() else sys.executable], "", scratch, Path.cwd())
        done = subprocess.run(probe, capture_output=True, text=True, timeout=30,
                              env=environment(dict(os.environ), scratch, True),
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"bwrap could not run ({exc})"
    finally:
        shutil.rmtree(place, ignore_errors=True)
    if done.returncode != 0:
        return f"bwrap fails here: {done.stderr.strip()[:200]}"
    return _unconfined(done.stdout.splitlines())


def _unconfined(lines: list[str]) -> str:
    """Why what the self-check printed shows a program that is not confined ("" when it is)."""
    said = []
    if not lines or not (lines[0].strip().isascii() and lines[0].strip().isdigit()):
        said.append(f"it could not tell who it runs as ({(lines or ['nothing'])[0][:80]!r})")
    elif int(lines[0]) == 0:
        said.append("the program in it runs as root (uid 0)")
    said += [line.strip() for line in lines[1:] if line.strip()]
    return ("bwrap does not confine a program here: " + "; ".join(said)) if said else ""


def choose(choice: str) -> Sandbox:
    """The sandbox for `--sandbox CHOICE`.

    Raises:
        RunError: an unknown choice, or one named explicitly that this machine cannot give.
    """
    if choice not in CHOICES:
        raise RunError(f"--sandbox {choice!r}: want one of {', '.join(CHOICES)}")
    if choice == "none":
        return Sandbox("none", "--sandbox none was given")
    bwrap = shutil.which("bwrap")
    why = ""
    if choice in ("auto", "bwrap") and sys.platform.startswith("linux"):
        why = "bubblewrap (bwrap) is not installed" if bwrap is None else _bwrap_works(bwrap)
        if bwrap is not None and not why:
            return Sandbox("bwrap", program=bwrap, shares=shared())
    exec_path = shutil.which("sandbox-exec")
    if choice in ("auto", "sandbox-exec") and sys.platform == "darwin" and exec_path:
        return Sandbox("sandbox-exec", program=exec_path, shares=shared())
    if choice == "auto" and not why:
        why = f"no sandbox is known for {sys.platform}"
    elif choice == "sandbox-exec":
        why = "sandbox-exec exists only on macOS"
    if choice != "auto":
        raise RunError(f"--sandbox {choice}: {why}",
                       hint="install bubblewrap and setpriv (apt-get install bubblewrap "
                            "util-linux), or choose --sandbox none to run agents unconfined "
                            "(recorded as such)")
    return Sandbox("unavailable", why)
