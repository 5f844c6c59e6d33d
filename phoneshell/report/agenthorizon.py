"""Swap results in AgentHorizon's format, and AgentHorizon's strict scoring of such an export.

A swap pair (A implied by B) is one item: B's finish shown with A's instruction. It is positive
when the pair is compatible (B's finish legitimately satisfies A) and negative otherwise; the
grader's verdict is whether it accepted B's finish as A. The export is a label manifest
(`manifest.jsonl`, one row per item, a stable UUID each), one verdict file per item
(`results/<id>.json`, `{"success": bool}`), and `export.json` (what it came from).

Scoring is strict: every manifest id is in its class's denominator, and a missing file, a file
that is not JSON, or a `success` that is not a JSON boolean counts as incorrect.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from phoneshell.records import Fields, RecordError
from phoneshell.report.runs import ReportError

EXPORT_VERSION = 1
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "phoneshell:swap")
"""The namespace of item ids: uuid5(NAMESPACE, "A<-B") is the same on every export."""
MANIFEST = "manifest.jsonl"
RESULTS = "results"
EXPORT = "export.json"
Label = Literal["positive", "negative"]


@dataclass(frozen=True)
class SwapPair:
    """One pair of `phoneshell swap --format json`."""

    implied: str
    """A: the task whose instruction (and checks) the finish is graded as."""
    by: str
    """B: the task whose finish was replayed."""
    compatible: bool
    """B's finish legitimately satisfies A's instruction (a positive item)."""
    accepted: bool | None
    """Grading B's finish as A passed; None when the pair was not scored (B's own finish did
    not pass as B, or could not be replayed), which a strict score counts as wrong."""
    skip_reason: str = ""
    """Why the pair was not scored ("" when it was)."""


@dataclass(frozen=True)
class SwapResults:
    """A swap JSON file: its pairs and the accuracies it states."""

    pairs: tuple[SwapPair, ...]
    pos_accuracy: float | None
    neg_accuracy: float | None
    balanced_accuracy: float | None
    sha256: str


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


def _read_pair(f: Fields) -> SwapPair:
    accepted = f.raw("accepted")
    if accepted is not None and not isinstance(accepted, bool):
        raise RecordError(f"{f.where}: field 'accepted' should be true, false or null")
    scored = f.flag("scored", True)
    return SwapPair(f.text("implied"), f.text("by"), f.flag("compatible"),
                    accepted if scored else None, f.text("skip_reason", ""))


def _figure(f: Fields, key: str) -> float | None:
    value = f.raw(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RecordError(f"{f.where}: field {key!r} should be a number or null, got {value!r}")
    return float(value)


def read_swap(path: Path) -> SwapResults:
    """Read `phoneshell swap --format json` output (fields beyond the documented ones are
    ignored, so a newer swap with more detail still exports).

    Raises:
        ReportError: the file is missing, not JSON, lacks a field, or names a pair twice.
    """
    try:
        raw = path.read_bytes()
        f = Fields(json.loads(raw), str(path))
        pairs = f.objs("pairs", _read_pair, required=True)
        pos, neg, balanced = (_figure(f, k) for k in ("pos_accuracy", "neg_accuracy",
                                                       "balanced_accuracy"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecordError) as exc:
        raise ReportError(f"cannot read swap results {path}: {exc}",
                          hint="pass the output of `phoneshell swap ... --format json`") from exc
    seen: set[tuple[str, str]] = set()
    for pair in pairs:
        if (pair.implied, pair.by) in seen:
            raise ReportError(f"{path}: the pair {pair.implied} <- {pair.by} appears twice",
                              hint="each (implied, by) pair is one item")
        seen.add((pair.implied, pair.by))
    return SwapResults(pairs, pos, neg, balanced, hashlib.sha256(raw).hexdigest())


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
        lines.append(json.dumps({
            "trajectory_id": tid, "label": "positive" if pair.compatible else "negative",
            "original_id": pair.by, "paired_id": pair.implied, "instruction_id": pair.implied,
        }))
        verdict = {"success": pair.accepted, "reasoning": (
            f"{pair.by}'s finish graded as {pair.implied}: "
            + {True: "accepted", False: "rejected", None: "not scored"}[pair.accepted]
            + (f" ({pair.skip_reason})" if pair.skip_reason else "")),
            "status": "ok" if pair.accepted is not None else "not_scored"}
        (results / f"{tid}.json").write_text(json.dumps(verdict) + "\n", encoding="utf-8")
    text = "".join(line + "\n" for line in lines)
    (folder / MANIFEST).write_text(text, encoding="utf-8")
    record = {"version": EXPORT_VERSION, "source": str(source), "source_sha256": swap.sha256,
              "manifest_sha256": hashlib.sha256(text.encode()).hexdigest(),
              "items": len(lines), "positives": sum(p.compatible for p in swap.pairs),
              "negatives": sum(not p.compatible for p in swap.pairs)}
    (folder / EXPORT).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return folder / MANIFEST


def read_manifest(path: Path) -> dict[str, Label]:
    """Manifest ids and their labels, in file order (other fields are AgentHorizon's and
    ours, not needed to score).

    Raises:
        ReportError: missing, malformed, an unknown label, or an id twice.
    """
    labels: dict[str, Label] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportError(f"cannot read the label manifest {path}: {exc}") from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            f = Fields(json.loads(line), f"{path} line {number}")
            tid = f.text("trajectory_id")
            label = f.choice("label", ("positive", "negative"))
        except (json.JSONDecodeError, RecordError) as exc:
            raise ReportError(f"{path} line {number}: {exc}") from exc
        if tid in labels:
            raise ReportError(f"{path} line {number}: id {tid} appears twice",
                              hint="every manifest id is one item")
        labels[tid] = "positive" if label == "positive" else "negative"
    return labels


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
            notes, not verdicts, as for AgentHorizon's analyzer).
    """
    labels = read_manifest(folder / MANIFEST)
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
    for name, stated, scored in (("pos_accuracy", swap.pos_accuracy, got.pos_accuracy),
                                 ("neg_accuracy", swap.neg_accuracy, got.neg_accuracy),
                                 ("balanced_accuracy", swap.balanced_accuracy,
                                  got.balanced_accuracy)):
        if not same(stated, scored):
            out.append(f"{name}: the swap JSON says {stated}, the strict score is {scored}")
    return out
