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

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, cast

from phoneshell.audit import Action, AuditEvent, AuditLog, actions, parse_audit
from phoneshell.errors import EvidenceError
from phoneshell.records import Fields, RecordError, to_jsonable
from phoneshell.tree import PageSource

EVIDENCE_VERSION = 1
MANIFEST = "evidence.json"

Role = Literal["final", "scroll"]
ROLES: tuple[Role, ...] = ("final", "scroll")
ClaimStatus = Literal["done", "gave_up", "failed"]
CLAIM_STATUSES: tuple[ClaimStatus, ...] = ("done", "gave_up", "failed")
Flag = Literal["unsettled", "screen_unreadable", "source_truncated", "acted_outside_bridge",
               "audit_torn"]
FLAGS: tuple[Flag, ...] = ("unsettled", "screen_unreadable", "source_truncated",
                           "acted_outside_bridge", "audit_torn")


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
class Foreground:
    """The app in front at capture (`/wda/activeAppInfo`)."""

    bundle_id: str
    name: str = ""
    pid: int = 0


@dataclass(frozen=True)
class Claim:
    """What the agent said it did. Recorded in full and never trusted."""

    status: ClaimStatus
    """done, gave_up or failed."""
    answer: str = ""
    """The information the task asked for, if any; what `answer_contains` reads."""
    summary: str = ""
    """Free text: what the agent says it did."""


@dataclass(frozen=True)
class ProbeReading:
    """A count taken by a harness probe before the agent and after capture."""

    name: str
    """The probe, e.g. "notes_titled"."""
    arg: str = ""
    """What it counted, e.g. the note title."""
    before: int | None = None
    """The count after setup, before the agent acted; None when it could not be read."""
    after: int | None = None
    """The count after capture; None when it could not be read."""
    error: str = ""
    """Why a count is missing."""


@dataclass(frozen=True)
class DeviceRead:
    """A value a harness probe read off the device at capture, e.g. the "Model Number" row."""

    probe: str
    """The probe, e.g. "settings_value"."""
    arg: str = ""
    """What it read, e.g. "Model Number"."""
    value: str | None = None
    """The value shown; None when it could not be read."""
    error: str = ""
    """Why the value is missing."""


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
        (folder / name).write_text(capture.xml, encoding="utf-8")
        sources.append({"file": name, "role": capture.role, "taken_at": capture.taken_at})
    screenshot = None
    if evidence.screenshot_png is not None:
        screenshot = "screenshot.png"
        (folder / screenshot).write_bytes(evidence.screenshot_png)
    audit = None
    if evidence.audited or evidence.events:
        audit = "audit.jsonl"
        (folder / audit).write_text("".join(e.to_json() + "\n" for e in evidence.events),
                                    encoding="utf-8")
    manifest = {
        "version": EVIDENCE_VERSION,
        "task_id": evidence.task_id,
        "captured_at": evidence.captured_at,
        "foreground": to_jsonable(evidence.foreground),
        "sources": sources,
        "screenshot": screenshot,
        "claim": to_jsonable(evidence.claim),
        "probes": to_jsonable(evidence.probes),
        "reads": to_jsonable(evidence.reads),
        "audit": audit,
        "flags": sorted(evidence.flags),
    }
    path = folder / MANIFEST
    path.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _read_foreground(f: Fields) -> Foreground:
    value = Foreground(f.text("bundle_id"), f.text("name", ""), f.integer("pid", 0))
    f.done()
    return value


def read_claim(f: Fields) -> Claim:
    """Read a claim object strictly."""
    value = Claim(cast(ClaimStatus, f.choice("status", CLAIM_STATUSES)), f.text("answer", ""),
                  f.text("summary", ""))
    f.done()
    return value


def _read_probe(f: Fields) -> ProbeReading:
    value = ProbeReading(f.text("name"), f.text("arg", ""), f.opt_integer("before"),
                         f.opt_integer("after"), f.text("error", ""))
    f.done()
    return value


def _read_read(f: Fields) -> DeviceRead:
    raw = f.raw("value")
    if raw is not None and not isinstance(raw, str):
        raise RecordError(f"{f.where}: field 'value' should be a string or null, got {raw!r}")
    value = DeviceRead(f.text("probe"), f.text("arg", ""), raw, f.text("error", ""))
    f.done()
    return value


def load_evidence(folder: Path) -> Evidence:
    """Read an evidence folder strictly.

    Raises:
        EvidenceError: the folder or manifest is missing, malformed or of another version, or a
            file it names is missing.
    """
    path = folder / MANIFEST if folder.is_dir() else folder
    base = path.parent
    if not path.exists():
        raise EvidenceError(f"no evidence at {folder}: {MANIFEST} is missing",
                            hint="pass an attempt's evidence folder, e.g. "
                                 "runs/<run>/attempts/<task>/1/evidence")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise EvidenceError(f"{path}: cannot read the evidence manifest ({exc})") from exc
    try:
        f = Fields(data, str(path))
        f.version("version", EVIDENCE_VERSION)
        task_id = f.text("task_id")
        captured_at = f.number("captured_at")
        foreground = f.obj("foreground", _read_foreground, required=False)
        source_refs = f.objs("sources", _read_source_ref)
        screenshot = f.raw("screenshot")
        claim = f.obj("claim", read_claim, required=False)
        probes = f.objs("probes", _read_probe)
        reads = f.objs("reads", _read_read)
        audit = f.raw("audit")
        flags = f.str_list("flags")
        f.done()
        unknown = sorted(set(flags) - set(FLAGS))
        if unknown:
            raise RecordError(f"{path}: unknown flag(s) {', '.join(unknown)}")
        if screenshot is not None and not isinstance(screenshot, str):
            raise RecordError(f"{path}: field 'screenshot' should be a file name or null")
        if audit is not None and not isinstance(audit, str):
            raise RecordError(f"{path}: field 'audit' should be a file name or null")
    except RecordError as exc:
        raise EvidenceError(str(exc), hint="docs/evidence.md describes the format") from exc
    captures = tuple(Capture(role, _read_file(base, name), taken_at)
                     for name, role, taken_at in source_refs)
    log = AuditLog(())
    if audit:
        log = parse_audit(_read_file(base, audit), str(base / audit))
        if log.problems:
            raise EvidenceError(log.problems[0], hint="docs/audit-log.md describes the format")
    png = (base / screenshot).read_bytes() if screenshot and (base / screenshot).exists() else None
    all_flags = {cast(Flag, x) for x in flags}
    if log.torn_tail:
        all_flags.add("audit_torn")
    return Evidence(task_id=task_id, captured_at=captured_at, foreground=foreground,
                    captures=captures, claim=claim, probes=probes, reads=reads,
                    events=log.events, audited=audit is not None, flags=frozenset(all_flags),
                    screenshot_png=png)


def _read_source_ref(f: Fields) -> tuple[str, Role, float]:
    ref = (f.text("file"), cast(Role, f.choice("role", ROLES)), f.number("taken_at", 0.0))
    f.done()
    return ref


def _read_file(base: Path, name: str) -> str:
    path = (base / name).resolve()
    if base.resolve() not in path.parents:
        raise EvidenceError(f"{base / MANIFEST}: {name!r} points outside the evidence folder")
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise EvidenceError(f"{base / MANIFEST} names {name}, which is missing") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise EvidenceError(f"cannot read {path}: {exc}") from exc

