"""What a grade may read: one attempt's evidence, in memory and as a folder on disk.

The folder format (docs/evidence.md) is the only input of grading, so any recorded attempt can
be graded again later, or graded as another task. Never touches the device.

    evidence/
      evidence.json        the manifest (version 1): foreground app, captures, claim, probes...
      sources/NN-ROLE.xml  page sources in the order they were taken
      screenshot.png       the screen at capture (optional)
      audit.jsonl          the attempt's slice of the run's audit log (optional)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from phoneshell.audit import Action, AuditLog, actions
from phoneshell.errors import EvidenceError
from phoneshell.records import (
    AuditEvent,
    Claim,
    DeviceRead,
    EvidenceManifest,
    Flag,
    Foreground,
    Lines,
    ProbeReading,
    RecordError,
    RecordTooBig,
    Role,
    SourceRef,
    parse_lines,
    read_bytes,
    read_record,
    write_record,
    write_text_atomic,
)
from phoneshell.records.layout import AUDIT
from phoneshell.tree import PageSource

MANIFEST = "evidence.json"
MAX_SOURCE_BYTES = 32 * 1024 * 1024
"""The largest page source read from an evidence folder (real ones are well under 1 MiB)."""

__all__ = ["MANIFEST", "Capture", "Claim", "DeviceRead", "Evidence", "Foreground",
           "ProbeReading", "load_evidence", "save_evidence"]


@dataclass(frozen=True)
class Capture:
    """One page source taken at capture time."""

    role: Role
    """`final`: the end state as left by the agent; `scroll`: taken while scrolling it."""
    xml: str
    """The source exactly as WDA returned it."""
    taken_at: float
    """Unix time of the read."""
    source: PageSource = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "source", PageSource.parse(self.xml))


@dataclass(frozen=True)
class Evidence:
    """Everything one attempt left to grade by. Build it with the device, or `load_evidence`."""

    task_id: str
    """The task the attempt was run as (it may be graded as another)."""
    captured_at: float
    """Unix time the capture began."""
    foreground: Foreground | None = None
    """The app in front at capture; None when it could not be read."""
    captures: tuple[Capture, ...] = ()
    """Page sources in the order they were taken; the first `final` is the end state."""
    claim: Claim | None = None
    """The agent's claim; None when it reported none."""
    probes: tuple[ProbeReading, ...] = ()
    reads: tuple[DeviceRead, ...] = ()
    events: tuple[AuditEvent, ...] = ()
    """The attempt's audit events, every phase."""
    audited: bool = False
    """Whether a bridge logged the attempt (so no events means no actions, not no log)."""
    flags: frozenset[Flag] = frozenset()
    """Conditions the capture noticed (unsettled screen, unreadable screen...)."""
    screenshot_png: bytes | None = field(default=None, repr=False)

    @property
    def final(self) -> Capture | None:
        """The end-state source, or None when none was captured."""
        return next((c for c in self.captures if c.role == "final"), None)

    def all_flags(self) -> frozenset[Flag]:
        """Recorded flags plus what the sources themselves show (cut off, unreadable)."""
        flags = set(self.flags)
        for capture in self.captures:
            if not capture.source.complete:
                flags.add("source_truncated")
            if capture.role == "final" and not capture.source.readable:
                flags.add("screen_unreadable")
        if self.final is None:
            flags.add("screen_unreadable")
        return frozenset(flags)

    def agent_actions(self) -> tuple[Action, ...]:
        """The agent's actions (phase `agent` only), intent and outcome joined, in order."""
        return tuple(a for a in actions(self.events) if a.phase == "agent")

    def probe(self, name: str, arg: str) -> ProbeReading | None:
        """The reading of probe `name` for `arg`, if it was taken."""
        return next((p for p in self.probes if p.name == name and p.arg == arg), None)

    def read(self, probe: str, arg: str) -> DeviceRead | None:
        """The value probe `probe` read for `arg`, if it was taken."""
        return next((r for r in self.reads if r.probe == probe and r.arg == arg), None)


def _source_name(order: int, role: Role) -> str:
    return f"sources/{order:02d}-{role}.xml"


def save_evidence(evidence: Evidence, folder: Path) -> Path:
    """Write `evidence` as a folder (created if needed); return the manifest's path."""
    (folder / "sources").mkdir(parents=True, exist_ok=True)
    sources = []
    for order, capture in enumerate(evidence.captures):
        name = _source_name(order, capture.role)
        write_text_atomic(folder / name, capture.xml)
        sources.append(SourceRef(file=name, role=capture.role, taken_at=capture.taken_at))
    screenshot = None
    if evidence.screenshot_png is not None:
        screenshot = "screenshot.png"
        write_text_atomic(folder / screenshot, evidence.screenshot_png)
    audit = None
    if evidence.audited or evidence.events:
        audit = AUDIT  # the attempt's slice of the run's log, under the log's own name
        write_text_atomic(folder / audit, "".join(e.to_json() + "\n" for e in evidence.events))
    manifest = EvidenceManifest(
        task_id=evidence.task_id, captured_at=evidence.captured_at,
        foreground=evidence.foreground, sources=tuple(sources), screenshot=screenshot,
        claim=evidence.claim, probes=evidence.probes, reads=evidence.reads, audit=audit,
        flags=tuple(sorted(evidence.flags)))
    path = folder / MANIFEST
    write_record(path, manifest)
    return path


def load_evidence(folder: Path) -> Evidence:
    """Read an evidence folder strictly.

    Raises:
        EvidenceError: the folder or manifest is missing, malformed or of another version, or a
            file it names is missing or not a regular file.
    """
    path = folder / MANIFEST if folder.is_dir() else folder
    base = path.parent
    if not path.exists():
        raise EvidenceError(f"no evidence at {folder}: {MANIFEST} is missing",
                            hint="pass an attempt's evidence folder, e.g. "
                                 "runs/<run>/attempts/<task>/1/evidence")
    try:
        manifest = read_record(path, EvidenceManifest)
    except RecordError as exc:
        raise EvidenceError(str(exc), hint="docs/evidence.md describes the format") from exc
    captures = tuple(Capture(ref.role, _read_text(base, ref.file), ref.taken_at)
                     for ref in manifest.sources)
    log: AuditLog = Lines(())
    if manifest.audit:
        log = parse_lines(_read_file(base, manifest.audit), AuditEvent, str(base / manifest.audit))
        if log.problems:
            raise EvidenceError(log.problems[0], hint="docs/audit-log.md describes the format")
    png = _read_file(base, manifest.screenshot) if manifest.screenshot else None
    all_flags: set[Flag] = set(manifest.flags)
    if log.torn:
        all_flags.add("audit_torn")
    return Evidence(task_id=manifest.task_id, captured_at=manifest.captured_at,
                    foreground=manifest.foreground, captures=captures, claim=manifest.claim,
                    probes=manifest.probes, reads=manifest.reads, events=log.records,
                    audited=manifest.audit is not None, flags=frozenset(all_flags),
                    screenshot_png=png)


def _read_file(base: Path, name: str, limit: int = MAX_SOURCE_BYTES) -> bytes:
    """A file the manifest names: inside the folder, regular, under the limit."""
    path = (base / name).resolve()
    if base.resolve() not in path.parents:
        raise EvidenceError(f"{base / MANIFEST}: {name!r} points outside the evidence folder")
    if not path.exists():
        raise EvidenceError(f"{base / MANIFEST} names {name}, which is missing")
    try:
        return read_bytes(path, limit)
    except RecordTooBig as exc:
        raise EvidenceError(f"{exc}: this attempt's evidence cannot be read",
                            hint="an attempt's slice of the audit log is this big only from a "
                                 "run made before every line, and every agent's turn, had a "
                                 "bounded share of the log; `phoneshell report` still reports "
                                 "the run's recorded results") from exc
    except RecordError as exc:
        raise EvidenceError(str(exc), hint="an evidence folder holds only regular files") from exc


def _read_text(base: Path, name: str) -> str:
    try:
        return _read_file(base, name).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EvidenceError(f"cannot read {base / name}: not UTF-8 ({exc})") from exc
