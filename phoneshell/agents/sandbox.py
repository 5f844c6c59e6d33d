"""The sandbox a `command:` agent runs in: its own scratch folder, a read-only system, the network.

An agent with a shell will take any shortcut it can reach, so the program sees only:

* a read-only system (`/usr`, the libraries, the few files of `/etc` programs and TLS need),
  the Python it runs on and phoneshell's own package (for `phoneshell finish` and `mcp`, and
  for an agent that drives the phone with phoneshell's client code), less the parts that hold
  tasks or their answers (`PACKAGE_HIDDEN`: the shipped task files, the simulated iPhone's app
  models, the attack families);
* the files named on its command line (read-only), and the task file when the harness hands it
  on (`PHONESHELL_EXPOSE_TASK_FILE=1`, reference programs only);
* extra read-only paths listed in `PHONESHELL_SANDBOX_SHARE` (`:`-separated: an agent's own
  config or binaries);
* its scratch folder, writable, also its HOME;
* the network, because models are remote APIs: which is why every local endpoint (the bridge,
  a simulator the harness started) needs a secret the agent is not given.

It never sees the project, `environments/`, `/var/run/usbmuxd` or other processes, nor the
folders of the run's task files (`Sandbox.hidden`), the signing key, the runs folder or any run
folder sealed here (`Sandbox.secrets`, `unseen.py`), even where they lie inside what it is shown
(a share, the Python's prefix); a share that is one of them, or lies inside one, is refused.
On Linux that is bubblewrap (`bwrap`: new mount, PID, IPC and UTS namespaces, all capabilities
dropped, the kernel's settings in `/proc/sys` read-only, killed with its parent; run as `nobody`,
never as root, when the harness is root: `agent_user.py`); on macOS `sandbox-exec` with a
generated profile (file access as above; it cannot hide other processes, and is not tested
here). `--sandbox none` runs the program unconfined; so does a machine with neither, and the run
says so and records it (`run.json`'s `sandbox`).
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from phoneshell.agents import agent_user, pidns, seccomp, unseen
from phoneshell.agents.give_back import TakenBack, give_back
from phoneshell.errors import RunError
from phoneshell.records import SandboxKind

SandboxChoice = Literal["auto", "bwrap", "sandbox-exec", "none"]
CHOICES: tuple[SandboxChoice, ...] = ("auto", "bwrap", "sandbox-exec", "none")
SHARE_ENV = "PHONESHELL_SANDBOX_SHARE"
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_FILES = ("resolv.conf", "hosts", "host.conf", "nsswitch.conf", "gai.conf", "passwd",
             "group", "localtime", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "ssl",
             "ca-certificates", "ca-certificates.conf", "pki", "protocols", "services",
             "mime.types", "os-release", "alternatives")
"""What of /etc programs need (names, TLS roots, the loader): not shadow, not ssh keys."""
PACKAGE_HIDDEN = ("suite", "sim", "attack")
"""The parts of phoneshell's package an agent never sees, for they hold tasks or their answers:
the task files shipped with it (`suite`), the simulated iPhone (`sim`: its app models hold every
page's words and every value a task asks for) and the attack families (`attack`: finishes made
from task files). Nothing `phoneshell finish`, `phoneshell mcp` or the client code
(`phoneshell.device`, `phoneshell.agents.tools`) imports lies in them."""
HARNESS_PREFIX = "PHONESHELL_"
"""The harness's variables begin so; the caller's are never passed to an agent but those in
`AGENT_CONFIG` (the agent's own are set for it: `command.CommandAgent.environment`). Fail
closed: a variable the harness grows later (a simulated phone's seed, a token, where the phones
are) stays the harness's without anyone listing it."""
AGENT_CONFIG = frozenset({"PHONESHELL_OPENAI_API_KEY", "PHONESHELL_OPENAI_BASE_URL",
                          "PHONESHELL_OPENAI_RETRIES", "PHONESHELL_VISION",
                          "PHONESHELL_VISION_KEEP"})
"""The caller's variables of this name an agent may be given: a model's endpoint and key and how
it looks at screens, for an agent program that runs phoneshell's own model loop."""


@dataclass(frozen=True)
class Sandbox:
    """How command agents are confined."""

    kind: SandboxKind
    """bwrap, sandbox-exec, none (asked for) or unavailable (nothing here can)."""
    note: str = ""
    """Why agents run unconfined ("" when they do not)."""
    program: str = ""
    """The sandbox's own executable."""
    shares: tuple[Path, ...] = field(default=())
    """Extra read-only paths (`PHONESHELL_SANDBOX_SHARE`)."""
    hidden: tuple[Path, ...] = field(default=())
    """Folders kept from the agent even where they lie inside what it is shown: those of the
    run's task files (`hiding`), besides the package's own (`PACKAGE_HIDDEN`)."""
    secrets: tuple[Path, ...] = field(default=())
    """Files and folders kept from it whole, wherever they lie (`unseen`: the signing key, the
    runs folder, every run folder sealed here, a judge's judgeset and sources): even a file
    its command line names stays hidden there."""

    @property
    def confines(self) -> bool:
        """Whether programs run confined."""
        return self.kind in ("bwrap", "sandbox-exec")

    def hiding(self, task_paths: Sequence[str | Path], secrets: Sequence[Path] = (),
               runs_dir: Path | None = None) -> Sandbox:
        """This sandbox, keeping from the program the folders of a run's task files (`PATHS`: a
        folder, or a file's folder), the harness's secrets (`unseen.harness_secrets`: the key,
        `runs_dir`, the run folders sealed here) and `secrets`, wherever they lie.

        Raises:
            RunError: confined, a share is one of them or lies inside one.
        """
        folders = {Path(p).resolve() if Path(p).is_dir() else Path(p).resolve().parent
                   for p in task_paths}
        kept = {*self.secrets, *unseen.harness_secrets(runs_dir),
                *(Path(os.path.realpath(p)) for p in secrets)}
        if self.confines:
            unseen.refuse_shared(self.shares, sorted({*folders, *kept}))
            marked = unseen.marked_in(self.shares)  # what it was never told of
            unseen.refuse_shared(self.shares, sorted(marked))
            kept.update(marked)
        return replace(self, hidden=tuple(sorted({*self.hidden, *folders})),
                       secrets=tuple(sorted(kept)))

    def named_secret(self, command: str, cwd: Path) -> tuple[Path, Path] | None:
        """The first file the command line names among what a confined program never sees
        (`secrets`: a runs folder, a sealed run, the key, a judge's judgeset), with the secret
        it is or lies in; None when it names none, or the program runs unconfined."""
        if not self.confines:
            return None
        kept = [Path(os.path.realpath(h)) for h in self.secrets]
        for named in named_files(command, cwd):
            for secret in kept:
                if named == secret or secret in named.parents:
                    return named, secret
        return None

    def refuse_named_secrets(self, command: str, cwd: Path) -> None:
        """Refuse a command line that names a file among what a confined program never sees
        (`named_secret`): it would find it missing and fail for nothing it did, where a clear
        word before the run costs nothing.

        Raises:
            RunError: confined, and the command line names such a file.
        """
        named = self.named_secret(command, cwd)
        if named:
            raise RunError(f"the agent's command line names {named[0]}, inside {named[1]}, "
                           "which agents never see (run folders hold the checks other "
                           "attempts were graded by)",
                           hint="keep the agent's program outside the runs folder (--runs)")

    def wrap(self, argv: Sequence[str], command: str, scratch: Path, cwd: Path,
             reads: Sequence[Path] = ()) -> list[str]:
        """The command line that runs `argv` in the sandbox; with bubblewrap under a root
        harness, as `agent_user.AGENT_UID`, to whom `scratch` is given; unconfined, in a PID
        namespace of its own where Linux allows (`pidns`: bubblewrap makes its own).

        Raises:
            PermissionError: the harness is root and cannot run the program as anyone else
                (`agent_user.missing`): it never runs as root in the sandbox.

        Args:
            command: the agent's command line, whose files it may read.
            scratch: the agent's writable folder.
            cwd: the folder the program starts in (its command line's relative paths).
            reads: more files it may read (the task file, when handed on), hidden or not.
        """
        shown = [*_runtime(), *self.shares]
        parts = _package_hidden()
        places = [*_system_places(), *shown]
        # bubblewrap shows nothing but `places`: a folder to hide that holds the package (a
        # run of `.` in a checkout) is out of sight already, and must not stand in for the
        # package's hidden parts, which lie inside what is shown
        asked = [h for h in (*self.hidden, *self.secrets)
                 if os.path.lexists(h) and (self.kind != "bwrap" or _inside(h, places))]
        hidden = _outermost([*parts, *asked])
        files = self._files(command, cwd, parts)
        if self.kind == "bwrap":
            hidden = [h for h in hidden if _inside(h, places)]
            inner = agent_user.become(list(argv))  # never root inside: before the folder is given
            agent_user.give(scratch)
            return seccomp.wrap([self.program,
                                 *_bwrap_args(scratch, cwd, shown, hidden, [*files, *reads]),
                                 "--", *inner])  # no keyrings: they outlive the turn
        if self.kind == "sandbox-exec":
            return [self.program, "-p",
                    sandbox_profile(scratch, shown, hidden, [*files, *reads]), *argv]
        return pidns.wrap(list(argv))  # unconfined: a PID namespace of its own, where Linux allows

    def take_back(self, scratch: Path) -> TakenBack:
        """After the program's turn, with all it started gone: its scratch folder is the
        harness's user's again (given to the program by `wrap`), and readable by it whatever
        the sandbox (`give_back`: what it locked opened, what no reader may meet removed)."""
        untaken = agent_user.take_back(scratch) if self.kind == "bwrap" else ""
        given = give_back(scratch)
        return TakenBack("; ".join(filter(None, (untaken, given.untaken))), given.given)

    def needs(self, command: str, cwd: Path, reads: Sequence[Path] = ()) -> list[Path]:
        """What the program must be able to read, where the sandbox runs it as a user other
        than the harness's (`agent_user`: [] elsewhere): the files its command line names and
        those handed on, the Python, and phoneshell's own package (`phoneshell finish`)."""
        if self.kind != "bwrap" or not agent_user.dropping():
            return []
        package = [p / "__init__.py" for p in _package_dir("phoneshell")]
        return [*self._files(command, cwd, _package_hidden()), *reads,
                Path(sys.executable).resolve(), *package]

    def _files(self, command: str, cwd: Path, parts: Sequence[Path]) -> list[Path]:
        return [f for f in named_files(command, cwd)
                if not _kept(f, [*parts, *self.secrets], self.hidden)]


def environment(env: dict[str, str], scratch: Path, confined: bool) -> dict[str, str]:
    """The agent's environment: the caller's (its API keys included), without the harness's
    own variables (every `HARNESS_PREFIX` name but `AGENT_CONFIG`); confined, HOME and TMPDIR
    are the sandbox's."""
    kept = {k: v for k, v in env.items()
            if not k.startswith(HARNESS_PREFIX) or k in AGENT_CONFIG}
    if confined:
        kept.update(HOME=str(scratch), TMPDIR="/tmp")
    return kept


def named_files(command: str, cwd: Path) -> list[Path]:
    """Existing regular files named by the words of a command line (`python my_agent.py`):
    the program needs to read them. Folders are not opened up this way."""
    try:
        words = shlex.split(command)
    except ValueError:  # unbalanced quotes: the shell will say so; look at the plain words
        words = command.split()
    found = []
    for word in words:
        path = Path(word) if os.path.isabs(word) else cwd / word
        try:
            if path.is_file():
                found.append(path.resolve())
        except (OSError, ValueError):  # a word too long for a name (a script given inline)
            continue
    return found


def _package_dir(name: str) -> list[Path]:
    spec = importlib.util.find_spec(name)
    origin = spec.origin if spec is not None else None
    return [Path(origin).resolve().parent] if origin else []


def _package_hidden() -> list[Path]:
    """The parts that hold tasks or answers (`PACKAGE_HIDDEN`) of this phoneshell and of any
    other installed where the agent looks (an older one in the base Python), where they really
    lie (in a checkout, `suite` is a link to `environments/`)."""
    prefixes = dict.fromkeys(map(Path, (sys.prefix, sys.base_prefix, "/usr", "/usr/local")))
    packages = {*_package_dir("phoneshell"),
                *(Path(entry) / "phoneshell" for entry in sys.path if entry),
                *(found for prefix in prefixes for pattern in INSTALLED
                  for found in prefix.glob(pattern))}
    return sorted({(package / part).resolve() for package in packages
                   for part in PACKAGE_HIDDEN if (package / part).exists()})


INSTALLED = ("lib/python3*/site-packages/phoneshell", "lib/python3*/dist-packages/phoneshell",
             "lib/python3/dist-packages/phoneshell")
"""Where a Python prefix installs phoneshell."""


def _inside(path: Path, places: Sequence[Path]) -> bool:
    return any(path == place or place in path.parents for place in places)


def _outermost(places: Sequence[Path]) -> list[Path]:
    """`places` without those inside another (hidden once with it)."""
    unique = list(dict.fromkeys(places))
    return [p for p in unique if not any(o != p and o in p.parents for o in unique)]


def _kept(path: Path, parts: Sequence[Path], task_folders: Sequence[Path]) -> bool:
    """Whether a file the command line names is kept from the agent all the same: anything in
    the package's hidden parts, and task files (YAML) in the run's task folders. A program of
    its own may sit beside the task files, and stays readable."""
    return _inside(path, parts) or (path.suffix in (".yaml", ".yml")
                                    and _inside(path, task_folders))


def _system_places() -> list[Path]:
    return [Path(p).resolve() for p in SYSTEM_DIRS if os.path.isdir(p)]


def _runtime() -> list[Path]:
    """What any agent program needs to run: this Python, and phoneshell's own code (for
    `phoneshell finish` and `phoneshell mcp`; in an editable install it lives in the project,
    of which nothing else is opened)."""
    places = {Path(sys.base_prefix), Path(sys.prefix), Path(sys.executable).resolve().parent,
              *_package_dir("phoneshell"), *_package_dir("bridge")}
    return sorted(places)


TMP_BYTES = 1 << 30
"""The most the agent's /tmp may hold (a tmpfs: memory): with no limit, an agent filling it
takes the machine's memory, and the harness with it."""
SHM_BYTES = 64 << 20
"""The most its /dev/shm may hold (POSIX shared memory and semaphores: Python's
multiprocessing), as much as a container's default."""
HIDDEN_BYTES = 1 << 16
"""The size of the empty folder laid over a hidden one (read-only once made)."""
KERNEL_SETTINGS = ("/proc/sys", "/proc/sysrq-trigger")
"""What of a fresh /proc is the whole machine's, made read-only: the kernel's settings (a
core_pattern pipe runs a program as root on the host) and SysRq (reboot, crash). The agent is
not root and could not write them anyway (`agent_user`); this holds if it ever were."""


def _bwrap_args(scratch: Path, cwd: Path, shown: Sequence[Path], hidden: Sequence[Path],
                files: Sequence[Path]) -> list[str]:
    """Bind the system and the `shown` folders read-only; lay an empty, read-only folder over
    each `hidden` one inside them (binds come in order, so a later one covers an earlier); then
    bind the `files`, which show even inside a hidden folder. The folders made on the way to
    a bind can be passed by anyone (`_folders_to`); /tmp and /dev/shm are anyone's, as on a
    host."""
    args = ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
            "--die-with-parent", "--new-session", *agent_user.bwrap_caps(), "--proc", "/proc"]
    for place in KERNEL_SETTINGS:
        args += ["--ro-bind-try", place, place]
    args += ["--dev", "/dev", "--perms", "1777", "--size", str(SHM_BYTES), "--tmpfs", "/dev/shm",
             "--perms", "1777", "--size", str(TMP_BYTES), "--tmpfs", "/tmp"]
    for place in SYSTEM_DIRS:
        if os.path.islink(place):
            args += ["--symlink", os.readlink(place), place]
        elif os.path.isdir(place):
            args += ["--ro-bind", place, place]
    # /etc is made, not bound: made implicitly by its files' binds it would be 0700, which the
    # agent's user cannot pass (no names, no TLS roots, no passwd entry for itself)
    args += ["--dir", "/etc"]
    for name in ETC_FILES:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    made: set[Path] = {Path("/etc")}
    for path in shown:
        args += [*_folders_to(path, made), "--ro-bind-try", str(path), str(path)]
    for path in hidden:  # a file (the key) is covered by an empty one
        args += (["--size", str(HIDDEN_BYTES), "--tmpfs", str(path)] if path.is_dir()
                 else ["--ro-bind", "/dev/null", str(path)])
    made = set()  # a hidden folder's tmpfs lies over what was made inside it
    for path in files:
        args += [*_folders_to(path, made), "--ro-bind-try", str(path), str(path)]
    args += [*_folders_to(scratch, made), "--bind", str(scratch), str(scratch),
             "--dir", str(cwd), "--chdir", str(cwd)]
    for path in hidden:  # read-only once what shows inside it has its place made
        args += ["--remount-ro", str(path)] if path.is_dir() else []
    return args


def _folders_to(path: Path, made: set[Path]) -> list[str]:
    """`--dir` for each folder above `path` that exists on the host and is not in `made` yet:
    where the sandbox has none, bubblewrap would make it 0700, which only root can pass; made
    so, it is 0755. Where the folder is there already (inside a bind) it is left as it is."""
    args: list[str] = []
    for folder in reversed(path.parents[:-1]):  # from the top, "/" left out
        if folder not in made and folder.is_dir():
            made.add(folder)
            args += ["--dir", str(folder)]
    return args


def sandbox_profile(scratch: Path, shown: Sequence[Path], hidden: Sequence[Path] = (),
                    files: Sequence[Path] = ()) -> str:
    """A `sandbox-exec` profile (macOS): read the system and `shown` but nothing in `hidden`,
    read `files` wherever they are, write only `scratch` (and `/tmp`, which is shared), use the
    network but not usbmuxd's socket. A later rule overrides an earlier one: the denials follow
    what they cut from, and what shows inside them follows the denials."""
    def quoted(path: Path | str) -> str:
        return '"' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"'

    readable = ["/usr", "/bin", "/sbin", "/System", "/Library", "/private/etc", "/dev",
                "/private/var/db/timezone", *map(str, shown)]
    lines = ["(version 1)", "(deny default)", "(allow process-fork)", "(allow process-exec)",
             "(allow signal (target same-sandbox))", "(allow sysctl-read)", "(allow mach-lookup)",
             "(allow ipc-posix-shm)", "(allow network*)",
             '(deny network-outbound (remote unix-socket (path-literal "/var/run/usbmuxd")))',
             '(allow file-read-metadata (literal "/"))',
             *(f"(allow file-read* (subpath {quoted(p)}))" for p in readable),
             '(allow file-read* file-write* (subpath "/private/tmp"))',
             *(f"(deny file-read* file-write* (subpath {quoted(p)}))" for p in hidden),
             f"(allow file-read* file-write* (subpath {quoted(scratch)}))",
             *(f"(allow file-read* (literal {quoted(p)}))" for p in files)]
    return "\n".join(lines) + "\n"


def shared() -> tuple[Path, ...]:
    """The extra paths `PHONESHELL_SANDBOX_SHARE` shows a confined program."""
    raw = os.environ.get(SHARE_ENV, "")
    return tuple(Path(p).expanduser().resolve() for p in raw.split(os.pathsep) if p)
