"""A judgeset's labels as a score reads them, held to what judgeset.json recorded when the set
was built: a label edited since (a swapped negative made positive) would turn a judge's wrong
answer right. Never shown to a judge.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping

from phoneshell.judges.judgeset import LABELS, MANIFEST, JudgeSet
from phoneshell.judges.sources import JudgeError
from phoneshell.records import LabelRow, RecordError, read_bytes, read_lines

__all__ = ["read_labels"]


def read_labels(judgeset: JudgeSet) -> dict[str, LabelRow]:
    """The label of every item, held to what judgeset.json recorded when the set was built
    (for scoring only): its ids, the sha256 of labels.jsonl, the counts by label type and by
    attack family, the items without step frames and the unverified ones; and each row's
    label the one its label type means. A score is never made of labels edited since.

    Raises:
        JudgeError: a damaged file, an id twice, or labels that contradict judgeset.json,
            naming the file and, where one row shows it, its line.
    """
    path = judgeset.folder / LABELS
    manifest_path = judgeset.folder / MANIFEST
    rebuild = "labels.jsonl was changed after the judgeset was built; rebuild it with " \
        "`phoneshell judgeset`"
    try:
        lines = read_lines(path, LabelRow)
        digest = hashlib.sha256(read_bytes(path)).hexdigest()
    except RecordError as exc:
        raise JudgeError(str(exc)) from exc
    if lines.problems or lines.torn.strip():
        raise JudgeError(lines.problems[0] if lines.problems else f"{path}: last line cut off")
    manifest = judgeset.manifest
    if manifest.labels_sha256 and digest != manifest.labels_sha256:
        raise JudgeError(f"{path}: its sha256 {digest[:12]} is not the "
                         f"{manifest.labels_sha256[:12]} {manifest_path} records", hint=rebuild)
    recorded: list[tuple[str, Callable[[LabelRow], str], Mapping[str, int]]] = [
        ("label type", lambda row: row.label_type, manifest.counts),
        ("attack family", lambda row: row.family, manifest.families),
        ("items without step frames", lambda row: "" if row.step_frames else "yes",
         {"yes": manifest.without_step_frames}),
        ("unverified items", lambda row: "yes" if row.unverified else "",
         {"yes": manifest.unverified})]
    labels: dict[str, LabelRow] = {}
    seen: dict[str, Counter[str]] = {name: Counter() for name, _key, _counts in recorded}
    for number, row in enumerate(lines, start=1):
        where = f"{path} line {number}"
        if row.id in labels:
            raise JudgeError(f"{where}: item {row.id} is labelled twice")
        if row.id not in judgeset.manifest.items:
            raise JudgeError(f"{where}: item {row.id} is not one {manifest_path} lists",
                             hint=rebuild)
        if (row.label == "positive") != (row.label_type == "positive"):
            raise JudgeError(f"{where}: item {row.id} is labelled {row.label} with label type "
                             f"{row.label_type}", hint=rebuild)
        for name, key, counts in recorded:
            value = key(row)
            if not value:
                continue
            seen[name][value] += 1
            if seen[name][value] > counts.get(value, 0):
                raise JudgeError(f"{where}: one {name} {value!r} more than the "
                                 f"{counts.get(value, 0)} {manifest_path} records",
                                 hint=rebuild)
        labels[row.id] = row
    if set(labels) != set(judgeset.manifest.items):
        raise JudgeError(f"{path} labels {len(labels)} item(s), {manifest_path} "
                         f"lists {len(judgeset.manifest.items)}: not the same items",
                         hint="rebuild the judgeset")
    for name, _key, counts in recorded:  # fewer than recorded: every row is in, so say whole
        short = {k: v for k, v in counts.items() if seen[name][k] != v}
        if short:
            raise JudgeError(f"{path} holds {dict(seen[name])} by {name}; {manifest_path} "
                             f"records {dict(counts)}", hint=rebuild)
    return labels
