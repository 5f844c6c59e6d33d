"""Errors a user can act on: every one names the file:line, URL or bundle id and says what to try.

The tree stays shallow; subclasses that belong to one room live there (module in brackets)::

    PhoneshellError                 anything the user can fix; has .hint
    ├── UnknownName                 a name missing from a registry (check kind, step, agent, probe)
    ├── TaskFileError               one or more problems in task files (file:line:col each)
    ├── EvidenceError               an evidence folder that cannot be read
    ├── DeviceError                 the phone or WDA did not answer or refused
    │   ├── DeviceUnreachable       nothing answers at the WDA URL
    │   ├── DeviceUnusable          WDA answers but cannot be driven (it rejects every session)
    │   ├── DeviceLocked            the phone is locked, so gestures would be dropped
    │   ├── WdaHiccup               WDA could not take a snapshot or screenshot: asked again,
    │   │                           it may [device.wda_link]
    │   └── ScrollRefused           a drag the capture made to scroll the end screen was
    │                               refused: no failed read [device.capture]
    ├── StepError                   a setup/teardown/solution step failed or had no effect
    ├── ProbeError                  a probe could not read its count or value [device.probes]
    ├── BridgeError                 the bridge could not forward or log
    │   ├── AuditWriteError         the audit log cannot be written: the action is refused
    │   │                           [bridge.audit_log]
    │   ├── ShareSpent              an agent's turn used up its share of the log: refused
    │   │                           [bridge.shares]
    │   └── ForwardError            a request could not be forwarded to WDA [bridge.upstream]
    │       └── UpstreamDown        nothing answers upstream [bridge.upstream]
    ├── RunError                    a run cannot start or continue (bad options, lock held)
    │   ├── RigDown                 the phone stopped taking input mid-run [runner.rig]
    │   ├── DiskShort               the disk lost the harness's room, not by the agent's doing:
    │   │                           the attempt is not scored [agents.bounds]
    │   ├── OutputRefused           the rig refused the copy of a program's output (a
    │   │                           file-size limit, EIO): the run folder's
    │   │                           [agents.capped_output]
    │   ├── LockHeld                another process holds a device's or run's lock
    │   │                           [phones.lock]
    │   └── RunInterrupted          Ctrl-C, SIGTERM or SIGHUP stopped the run; the hint
    │                               says how to resume [runner.run]
    ├── ReportError                 a run folder or export a report cannot read [report.runs]
    │   └── UnreadableRun           run.json or results.jsonl cannot be read (too big, damaged):
    │                               a report of several runs names it and goes on [report.runs]
    ├── JudgeError                  a judgeset that cannot be built or read, a judge run that
    │                               cannot start or resume [judges.sources]
    └── AppNotInstalled             the simulated iPhone has no such app [sim.phone]

Code above the boundary that met a library's exception only ever sees these.

No message names a phone, bridge or simulator URL whole: `shown_url` is how one is named (its
scheme, host and port), and `without_url` takes a URL out of another library's words. A bridge's
`/t/TOKEN` path, an agent's grant and a simulator's secret routes each drive the phone, and
messages end up printed, in results.jsonl and in the audit log.
"""

from __future__ import annotations

import errno
import http.client
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit


def shown_url(url: str) -> str:
    """A WDA, bridge or simulator URL as a message may name it: its scheme, host and port
    (`http://127.0.0.1:8100`, `http+usbmux://UDID:8100`), never its path, query or user info,
    which may hold a secret that drives the phone."""
    try:
        parts = urlsplit(url)
    except ValueError:  # not a URL urllib can split (an unclosed "[", say): none of it shown
        parts = urlsplit("")
    netloc = parts.netloc.rpartition("@")[2]
    return f"{parts.scheme}://{netloc}" if parts.scheme and netloc else "(a URL not shown)"


def without_url(text: str, url: str) -> str:
    """`text` with `url` in it named as `shown_url` names it, and its path taken out wherever
    it stands alone (another library's words quote the URL it was asked, or the path alone:
    facebook-wda's errors, http.client's refusal of a path it cannot send)."""
    base = url.rstrip("/")
    if not base:
        return text
    text = text.replace(base, shown_url(base))
    try:
        parts = urlsplit(base)
        secret = parts.path.rstrip("/")
        user = parts.netloc.rpartition("@")[0]
    except ValueError:
        return text
    for part in (secret, user):
        if len(part) > 1:
            text = text.replace(part, "")
    return text


class PhoneshellError(Exception):
    """Base of every error a user can fix.

    Args:
        message: what went wrong, naming the file:line, URL or bundle id.
        hint: the next thing to try.
    """

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message


class UnknownName(PhoneshellError, KeyError):
    """A name that is not in a registry, with close matches and the command that lists all."""

    def __init__(self, kind: str, name: str, close: Sequence[str], list_command: str) -> None:
        message = f"unknown {kind} {name!r}"
        if close:
            message += f"; did you mean {close[0]!r}?"
        super().__init__(message, hint=f"`{list_command}` lists every {kind}")
        self.kind = kind
        self.name = name
        self.close = tuple(close)


@dataclass(frozen=True)
class Problem:
    """One problem found in a task file, pinned to a place a person can open."""

    file: str
    """Path of the task file as given."""
    line: int
    """1-based line of the offending node (0 when the file could not be read)."""
    column: int
    """1-based column of the offending node."""
    message: str
    """What is wrong and what is accepted."""
    severity: str = "error"
    """`error` (the file is rejected) or `warning` (it loads, but probably not as meant)."""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        return f"{where}: {self.severity}: {self.message}"


class TaskFileError(PhoneshellError):
    """Task files that failed validation; carries every problem found, not just the first."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        errors = [p for p in problems if p.severity == "error"]
        head = f"{len(errors)} error(s) in task files" if len(errors) != 1 else str(errors[0])
        super().__init__(head, hint="`phoneshell check-tasks PATH` lists every problem")
        self.problems = tuple(problems)


class EvidenceError(PhoneshellError):
    """An evidence folder that is missing, malformed or of an unknown version."""


class DeviceError(PhoneshellError):
    """The phone (WDA) refused, errored or gave an answer that makes no sense."""


class DeviceUnreachable(DeviceError):
    """Nothing answers at the WDA URL.

    Args:
        refused: nothing listens: the connection was refused, or closed before any answer came
            (WDA is gone, or crashed on the request); False: no answer came in time (a hung
            WDA, or one busy past the timeout).
    """

    def __init__(self, message: str, hint: str = "", refused: bool = False) -> None:
        super().__init__(message, hint)
        self.refused = refused


class DeviceUnusable(DeviceError):
    """WDA answers, but cannot be driven: it rejects every session, or input never arrives."""


class DeviceLocked(DeviceError):
    """The phone is locked: WDA would answer 200 to gestures and do nothing."""


CLOSED_UNANSWERED: tuple[type[BaseException], ...] = (
    ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected)
"""Transport failures of a connection closed before an answer came (a WDA that crashed on the
request resets it): with a refused connection, what says nothing listens (`nothing_listens`)."""


def nothing_listens(exc: BaseException) -> bool:
    """Whether a transport failure says nothing listens for WDA: the connection refused, or
    closed before an answer came (a WDA that crashed on the request resets it); over USB,
    usbmuxd refusing the phone's port, no longer having the phone, or not running. A timeout
    says no such thing: WDA may be busy, or hung."""
    if isinstance(exc, (ConnectionRefusedError, *CLOSED_UNANSWERED)):
        return True
    if not type(exc).__module__.startswith("wda."):
        return False
    from wda.usbmux.exceptions import BadDevError, MuxConnectError  # only what raised one

    return isinstance(exc, (BadDevError, MuxConnectError))


NOTHING_LISTENS = "nothing_listens"
"""The key a bridge's 502 error carries, true, when it found nothing listening for WDA (refused,
reset: gone) rather than WDA slow to answer; `device.Phone` reads it as `nothing_listens` says."""


RIG_DOWN = (DeviceUnreachable, DeviceUnusable, DeviceLocked)
"""Errors that mean the rig, not the agent or the task, is broken: a run stops on them."""
DISK_FULL = (errno.ENOSPC, errno.EDQUOT)
"""The errnos of a disk (or a quota) with no room left."""
REFUSED = (errno.EACCES, errno.EPERM, errno.EROFS)
"""The errnos of a file the system refuses this user (its mode, a read-only mount)."""
STORAGE = (*DISK_FULL, errno.EFBIG, errno.EIO, errno.EROFS)
"""The errnos of storage that will not take a write, whatever file it was for (a full disk, a
file-size limit, an I/O error, a read-only mount): a run stops on them (`runner.unwritten`)."""
MENDS = {errno.EFBIG: "a file-size limit (`ulimit -f`, a CI's RLIMIT_FSIZE) is below what it "
                      "needed: raise it",
         errno.EIO: "its storage reported an I/O error: check the disk",
         errno.EROFS: "its file system is mounted read-only: give a folder that takes writes"}
"""What stands behind each storage errno but a full disk's, and what mends it."""


def mend(error: OSError) -> str:
    """What stands behind a storage error (`STORAGE`) and what mends it, for a hint."""
    if error.errno in DISK_FULL:
        return "its disk is full: free some space"
    return MENDS.get(error.errno or 0, "mend the storage")


class StepError(PhoneshellError):
    """A step failed or did not take effect; the message names the step and its file:line."""


class BridgeError(PhoneshellError):
    """The bridge could not forward a request or could not write its log."""


class RunError(PhoneshellError):
    """A run cannot start or has to stop (bad options, device held by another run, rig down)."""
