"""Errors a user can act on: every one names the file:line, URL or bundle id and says what to try.

The tree stays shallow; subclasses that belong to one room live there (module in brackets)::

    PhoneshellError                 anything the user can fix; has .hint
    ├── UnknownName                 a name missing from a registry (check kind, step, agent, probe)
    ├── TaskFileError               one or more problems in task files (file:line:col each)
    ├── EvidenceError               an evidence folder that cannot be read
    ├── DeviceError                 the phone or WDA did not answer or refused
    │   ├── DeviceUnreachable       nothing answers at the WDA URL
    │   ├── DeviceUnusable          WDA answers but cannot be driven (it rejects every session)
    │   └── DeviceLocked            the phone is locked, so gestures would be dropped
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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


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
    """Nothing answers at the WDA URL."""


class DeviceUnusable(DeviceError):
    """WDA answers, but cannot be driven: it rejects every session, or input never arrives."""


class DeviceLocked(DeviceError):
    """The phone is locked: WDA would answer 200 to gestures and do nothing."""


RIG_DOWN = (DeviceUnreachable, DeviceUnusable, DeviceLocked)
"""Errors that mean the rig, not the agent or the task, is broken: a run stops on them."""


class StepError(PhoneshellError):
    """A step failed or did not take effect; the message names the step and its file:line."""


class BridgeError(PhoneshellError):
    """The bridge could not forward a request or could not write its log."""


class RunError(PhoneshellError):
    """A run cannot start or has to stop (bad options, device held by another run, rig down)."""
