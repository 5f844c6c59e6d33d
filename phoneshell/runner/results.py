"""The records of a run: one results row per attempt (results.jsonl) and the manifest (run.json).

Both are versioned JSON, read strictly (docs/runs.md). Rows are appended one line at a time and
flushed, so a crash loses at most the attempt in flight.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, cast

from phoneshell.checks import CheckResult
from phoneshell.evidence import Claim, read_claim
from phoneshell.grade import read_result
from phoneshell.records import Fields, RecordError, dumps, to_jsonable

RESULT_VERSION = 1
RUN_VERSION = 1
Outcome = Literal["passed", "failed", "skipped"]
OUTCOMES: tuple[Outcome, ...] = ("passed", "failed", "skipped")


@dataclass(frozen=True)
class Teardown:
    """How teardown went: it always runs, and its failure is kept, never swallowed."""

    ok: bool
    error: str = ""


@dataclass(frozen=True)
class ResultRow:
    """One attempt of one task."""

    v: int
    run_id: str
    task_id: str
    attempt: int
    """1-based attempt number of this task within the run."""
    agent: str
    outcome: Outcome
    """passed, failed or skipped (not scored)."""
    passed: bool
    skipped: bool
    skip_reason: str
    """Why the attempt was not scored (setup failed, phone locked, WDA unreachable...)."""
    checks: tuple[CheckResult, ...]
    claim: Claim | None
    """The agent's claim in full; never trusted, compared with the grade in reports."""
    started_at: float
    seconds: float
    turns: int = 0
    timed_out: bool = False
    out_of_turns: bool = False
    error: str = ""
    """What went wrong (agent error, or the exception behind a skip)."""
    error_type: str = ""
    teardown: Teardown = Teardown(True)
    evidence: str = ""
    """The evidence folder, relative to the run folder ("" when none was captured)."""
    task_sha256: str = ""
    device: str = ""
    """The label of the phone that ran the attempt (see run.json's devices)."""

    def to_json(self) -> str:
        """This row as one JSON line."""
        return dumps(self)

    @classmethod
    def read(cls, f: Fields) -> ResultRow:
        """Read one row strictly."""
        row = cls(
            v=f.version("v", RESULT_VERSION), run_id=f.text("run_id"),
            task_id=f.text("task_id"), attempt=f.integer("attempt"), agent=f.text("agent"),
            outcome=cast(Outcome, f.choice("outcome", OUTCOMES)), passed=f.flag("passed"),
            skipped=f.flag("skipped"), skip_reason=f.text("skip_reason"),
            checks=f.objs("checks", read_result),
            claim=f.obj("claim", read_claim, required=False),
            started_at=f.number("started_at"), seconds=f.number("seconds"),
            turns=f.integer("turns", 0), timed_out=f.flag("timed_out", False),
            out_of_turns=f.flag("out_of_turns", False), error=f.text("error", ""),
            error_type=f.text("error_type", ""),
            teardown=f.obj("teardown", _read_teardown, required=False) or Teardown(True),
            evidence=f.text("evidence", ""), task_sha256=f.text("task_sha256", ""),
            device=f.text("device", ""))
        f.done()
        if row.passed != (row.outcome == "passed") or row.skipped != (row.outcome == "skipped"):
            raise RecordError(f"{f.where}: outcome {row.outcome!r} disagrees with passed="
                              f"{row.passed}, skipped={row.skipped}")
        return row


def _read_teardown(f: Fields) -> Teardown:
    teardown = Teardown(f.flag("ok"), f.text("error", ""))
    f.done()
    return teardown


def append_result(path: Path, row: ResultRow) -> None:
    """Append one row and flush it to disk before returning."""
    with path.open("a", encoding="utf-8") as out:
        out.write(row.to_json() + "\n")
        out.flush()
        os.fsync(out.fileno())


def read_results(path: Path) -> list[ResultRow]:
    """Every row of a results.jsonl (a torn last line, from a crash, is ignored).

    Raises:
        RecordError: a whole line does not match the schema.
    """
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] != "":
        lines.pop()  # the writer died mid-line: that attempt was never recorded
    rows = []
    for number, line in enumerate(lines, start=1):
        if line.strip():
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise RecordError(f"{path} line {number}: not JSON ({exc.msg})") from exc
            rows.append(ResultRow.read(Fields(data, f"{path} line {number}")))
    return rows


@dataclass(frozen=True)
class TaskRef:
    """A task as the run saw it: which file, and the hash of its bytes."""

    id: str
    file: str
    sha256: str

    @classmethod
    def read(cls, f: Fields) -> TaskRef:
        """Read one task reference strictly."""
        ref = cls(f.text("id"), f.text("file"), f.text("sha256"))
        f.done()
        return ref


DeviceKind = Literal["sim", "url", "usb"]


@dataclass(frozen=True)
class DeviceInfo:
    """A phone the run used."""

    kind: DeviceKind
    """sim (in-process simulated iPhone), url (a WDA URL), usb (a phone found by udid)."""
    label: str
    """How results rows name it: "sim-1", or the first characters of the udid hash."""
    url: str
    model: str = ""
    ios: str = ""
    udid_sha256: str = ""
    """A hash of the udid: enough to tell phones apart, without publishing the udid."""

    @classmethod
    def read(cls, f: Fields) -> DeviceInfo:
        """Read one device strictly."""
        info = cls(cast(DeviceKind, f.choice("kind", ("sim", "url", "usb"))), f.text("label"),
                   f.text("url"), f.text("model", ""), f.text("ios", ""),
                   f.text("udid_sha256", ""))
        f.done()
        return info


@dataclass(frozen=True)
class RunManifest:
    """run.json: what a run was, so its numbers can be traced, continued and reproduced."""

    version: int
    run_id: str
    started_at: float
    phoneshell_version: str
    git_commit: str
    agent: str
    paths: tuple[str, ...]
    """Task files and folders the run was given."""
    task_globs: tuple[str, ...]
    repeat: int
    devices: tuple[DeviceInfo, ...]
    tasks: tuple[TaskRef, ...]
    resumed_at: tuple[float, ...] = ()
    """When `--resume` continued the run."""

    def write(self, path: Path) -> None:
        """Write run.json (pretty, for people)."""
        path.write_text(json.dumps(to_jsonable(self), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> RunManifest:
        """Read run.json strictly.

        Raises:
            RecordError: missing, malformed or of another version.
        """
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise RecordError(f"cannot read {path}: {exc}") from exc
        f = Fields(data, str(path))
        manifest = cls(
            version=f.version("version", RUN_VERSION), run_id=f.text("run_id"),
            started_at=f.number("started_at"), phoneshell_version=f.text("phoneshell_version"),
            git_commit=f.text("git_commit"), agent=f.text("agent"), paths=f.str_list("paths"),
            task_globs=f.str_list("task_globs"), repeat=f.integer("repeat"),
            devices=f.objs("devices", DeviceInfo.read), tasks=f.objs("tasks", TaskRef.read),
            resumed_at=tuple(float(x) for x in cast(list[float], f.raw("resumed_at") or [])))
        f.done()
        return manifest
