"""Swap results in AgentHorizon's format, and AgentHorizon's strict scoring of such an export.

A swap pair (A implied by B) is one item: B's finish shown with A's instruction. It is positive
when the pair is compatible (B's finish legitimately satisfies A) and negative otherwise; the
grader's verdict is whether it accepted B's finish as A. The export is a label manifest
(`manifest.jsonl`, one row per item, a stable UUID each), one verdict file per item
(`results/<id>.json`, `{"success": bool}`), and `export.json` (what it came from).

Scoring is strict: every manifest id is in its class's denominator, and a missing file, a file
that is not JSON, or a `success` that is not a JSON boolean counts as incorrect. An export's
labels are held to what export.json recorded when they were written (the manifest's sha256 and
counts, the swap file's sha256): an edited label would turn a judge's wrong answer right.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from phoneshell.records import (
    HorizonItem,
    RecordError,
    SwapReport,
    SwapResult,
    read_bytes,
    read_lines,
    write_text_atomic,
)
from phoneshell.report.runs import ReportError

EXPORT_VERSION = 1
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "phoneshell:swap")
"""The namespace of item ids: uuid5(NAMESPACE, "A<-B") is the same on every export."""
MANIFEST = "manifest.jsonl"
RESULTS = "results"
EXPORT = "export.json"
Label = Literal["positive", "negative"]


@dataclass(frozen=True)
class SwapResults:
    """A swap JSON file, and the hash of its bytes (recorded in the export)."""

    report: SwapReport
    sha256: str

    @property
    def pairs(self) -> tuple[SwapResult, ...]:
        """Every pair in the file."""
        return self.report.pairs


@dataclass(frozen=True)
class Score:
    """A strict AgentHorizon score of an export."""

    items: int
    positives: int
    negatives: int
    pos_correct: int
    neg_correct: int
    pos_accuracy: float | None
    """pos_correct / positives (null when there are none)."""
    neg_accuracy: float | None
    balanced_accuracy: float | None
    """(pos_accuracy + neg_accuracy) / 2; null unless both classes have items."""
    missing: tuple[str, ...]
    """Manifest ids with no verdict file (counted incorrect)."""
    invalid: tuple[str, ...]
    """Manifest ids whose file is not JSON or whose success is not a boolean (incorrect)."""


def item_id(implied: str, by: str) -> str:
    """The stable UUID of the item "B's finish graded as A"."""
    return str(uuid.uuid5(NAMESPACE, f"{implied}<-{by}"))


def read_swap(path: Path) -> SwapResults:
    """Read `phoneshell swap --format json` output (a versioned `SwapReport`).

    Raises:
        ReportError: the file is missing, not a swap report, or names a pair twice.
    """
    try:
        raw = read_bytes(path)
        report = SwapReport.parse(raw, str(path))
    except RecordError as exc:
        raise ReportError(f"cannot read swap results: {exc}",
                          hint="pass the output of `phoneshell swap ... --format json`") from exc
    seen: set[tuple[str, str]] = set()
    for pair in report.pairs:
        if (pair.implied, pair.by) in seen:
            raise ReportError(f"{path}: the pair {pair.implied} <- {pair.by} appears twice",
                              hint="each (implied, by) pair is one item")
        seen.add((pair.implied, pair.by))
    return SwapResults(report, hashlib.sha256(raw).hexdigest())


def export(swap: SwapResults, source: Path, folder: Path) -> Path:
    """Write the manifest, one verdict file per item and export.json into `folder`.

    A folder holding an earlier export (export.json) is replaced; any other non-empty folder
    is refused.

    Raises:
        ReportError: `folder` is not empty and holds no earlier export.
    """
    results = folder / RESULTS
    if folder.exists() and any(folder.iterdir()):
        if not (folder / EXPORT).is_file():
            raise ReportError(f"{folder} is not empty and holds no earlier export",
                              hint="choose a new folder for --agenthorizon")
        for old in results.glob("*.json") if results.is_dir() else ():
            old.unlink()
    results.mkdir(parents=True, exist_ok=True)
    lines = []
    for pair in swap.pairs:
        tid = item_id(pair.implied, pair.by)
        accepted = pair.accepted if pair.scored else None
        lines.append(json.dumps({
            "trajectory_id": tid, "label": "positive" if pair.compatible else "negative",
            "original_id": pair.by, "paired_id": pair.implied, "instruction_id": pair.implied,
        }))
        verdict = {"success": accepted, "reasoning": (
            f"{pair.by}'s finish graded as {pair.implied}: "
            + {True: "accepted", False: "rejected", None: "not scored"}[accepted]
            + (f" ({pair.skip_reason})" if pair.skip_reason else "")),
            "status": "ok" if accepted is not None else "not_scored"}
        write_text_atomic(results / f"{tid}.json", json.dumps(verdict) + "\n")
    text = "".join(line + "\n" for line in lines)
    write_text_atomic(folder / MANIFEST, text)
    record = {"version": EXPORT_VERSION, "source": str(source), "source_sha256": swap.sha256,
              "manifest_sha256": hashlib.sha256(text.encode()).hexdigest(),
              "items": len(lines), "positives": sum(p.compatible for p in swap.pairs),
              "negatives": sum(not p.compatible for p in swap.pairs)}
    write_text_atomic(folder / EXPORT, json.dumps(record, indent=2) + "\n")
    return folder / MANIFEST


def read_manifest(path: Path) -> dict[str, Label]:
    """Manifest ids and their labels, in file order (other fields are AgentHorizon's and
    ours, not needed to score).

    Raises:
        ReportError: missing, malformed, an unknown label, or an id twice.
    """
    labels: dict[str, Label] = {}
    try:
        lines = read_lines(path, HorizonItem)
    except RecordError as exc:
        raise ReportError(f"cannot read the label manifest {path}: {exc}") from exc
    if lines.problems or lines.torn.strip():
        raise ReportError(lines.problems[0] if lines.problems
                          else f"{path}: the last line has no newline (cut off?)")
    for number, item in enumerate(lines, start=1):
        if item.trajectory_id in labels:
            raise ReportError(f"{path}: id {item.trajectory_id} appears twice (item {number})",
                              hint="every manifest id is one item")
        labels[item.trajectory_id] = item.label
    return labels


def _export_record(folder: Path) -> dict[str, object] | None:
    """export.json of `folder` as a JSON object, or None when there is none (a judgeset's
    AgentHorizon layout has none: it is not an export of swap results).

    Raises:
        ReportError: export.json cannot be read, or is not a JSON object.
    """
    path = folder / EXPORT
    if not path.exists():
        return None
    try:
        data = json.loads(read_bytes(path))
    except (RecordError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReportError(f"cannot read {path}: {exc}",
                          hint="export again: --swap SWAP_JSON --agenthorizon DIR") from exc
    if not isinstance(data, dict):
        raise ReportError(f"{path} is not a JSON object",
                          hint="export again: --swap SWAP_JSON --agenthorizon DIR")
    return data


def check_export(folder: Path, labels: dict[str, Label]) -> None:
    """Hold `folder`'s manifest to what its export.json recorded: the manifest's sha256, the
    item counts, and the swap file's sha256 while that file is where it was.

    Raises:
        ReportError: a digest or count that does not match, naming the file.
    """
    record = _export_record(folder)
    if record is None:
        return
    export, manifest = folder / EXPORT, folder / MANIFEST
    again = "the file was changed after the export; export again from the swap JSON"
    digest = hashlib.sha256(read_bytes(manifest)).hexdigest()
    if record.get("manifest_sha256") != digest:
        raise ReportError(f"{manifest}: its sha256 {digest[:12]} is not the "
                          f"{str(record.get('manifest_sha256'))[:12]} {export} records: the "
                          "labels were changed after the export", hint=again)
    positives = sum(1 for v in labels.values() if v == "positive")
    for name, counted in (("items", len(labels)), ("positives", positives),
                          ("negatives", len(labels) - positives)):
        if record.get(name) != counted:
            raise ReportError(f"{manifest} holds {counted} {name}; {export} records "
                              f"{record.get(name)}", hint=again)
    source = record.get("source")
    if isinstance(source, str) and Path(source).is_file():
        found = hashlib.sha256(read_bytes(Path(source))).hexdigest()
        if found != record.get("source_sha256"):
            raise ReportError(f"{source}: its sha256 {found[:12]} is not the "
                              f"{str(record.get('source_sha256'))[:12]} {export} records for "
                              "the swap JSON it was exported from",
                              hint="export again from the swap JSON as it is now")


def _verdict(path: Path) -> bool | None:
    """A verdict file's success, or None when it is missing, not JSON or not a boolean."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    success = data.get("success") if isinstance(data, dict) else None
    return success if isinstance(success, bool) else None


def score(folder: Path) -> Score:
    """Score `folder` (manifest.jsonl and results/) strictly.

    Raises:
        ReportError: a verdict file whose id is not in the manifest (files named `_*` are
            notes, not verdicts, as for AgentHorizon's analyzer); a manifest or swap file
            that does not match export.json's digests or counts (`check_export`).
    """
    labels = read_manifest(folder / MANIFEST)
    check_export(folder, labels)
    results = folder / RESULTS
    found = {p.stem for p in results.glob("*.json")} if results.is_dir() else set()
    unknown = sorted(n for n in found - set(labels) if not n.startswith("_"))
    if unknown:
        raise ReportError(f"{results}/{unknown[0]}.json is not an item of {folder / MANIFEST}"
                          + (f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""),
                          hint="a strict score refuses verdicts for ids outside the manifest")
    correct = {"positive": 0, "negative": 0}
    missing, invalid = [], []
    for tid, label in labels.items():
        if tid not in found:
            missing.append(tid)
            continue
        success = _verdict(results / f"{tid}.json")
        if success is None:
            invalid.append(tid)
        elif success == (label == "positive"):
            correct[label] += 1
    positives = sum(1 for v in labels.values() if v == "positive")
    negatives = len(labels) - positives
    pos = correct["positive"] / positives if positives else None
    neg = correct["negative"] / negatives if negatives else None
    return Score(len(labels), positives, negatives, correct["positive"], correct["negative"],
                 pos, neg, (pos + neg) / 2 if pos is not None and neg is not None else None,
                 tuple(missing), tuple(invalid))


def same(x: float | None, y: float | None) -> bool:
    """Whether two accuracies agree (both absent, or equal to 1e-9)."""
    return (x is None and y is None) or (x is not None and y is not None
                                         and abs(x - y) <= 1e-9)


def disagreements(swap: SwapResults, got: Score) -> list[str]:
    """Where the strict score differs from the figures the swap JSON states ([] when none)."""
    out = []
    for name, stated, scored in (("pos_accuracy", swap.report.pos_accuracy, got.pos_accuracy),
                                 ("neg_accuracy", swap.report.neg_accuracy, got.neg_accuracy),
                                 ("balanced_accuracy", swap.report.balanced_accuracy,
                                  got.balanced_accuracy)):
        if not same(stated, scored):
            out.append(f"{name}: the swap JSON says {stated}, the strict score is {scored}")
    return out
