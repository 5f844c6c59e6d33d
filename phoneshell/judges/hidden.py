"""What a judge must never see, found wherever it lies: the judgeset, the judge run's folder, and
the run folders and results files the set was built from, with the run folders those results
files name.

A judgeset records its sources as absolute paths (built before: as given, relative to the
folder it was built in). Judged from another folder, a relative path read from there named
nothing, and was dropped: a red team's judge, shown the project folder, walked it and answered
each item with the verdict of the attempt it came from (100%). So a source is looked for where
it was recorded (a relative one: beside the judgeset, in it, and in the current folder), and,
for a judgeset moved or copied with its runs, under each folder above the judgeset by the
trailing parts of its path, taken only where its results file has the hash the set recorded.
Everything found is hidden. A confined judge whose set has a source found nowhere is refused:
it may lie anywhere the judge can read, and a score that could be its verdicts is no score.
"""

from __future__ import annotations

import os
from pathlib import Path

from phoneshell.judges.judgeset import JudgeSet
from phoneshell.judges.sources import JudgeError, _locate, _report, results_sha256
from phoneshell.records import AttackReport, SetSource, SwapReport

__all__ = ["kept_from_judges", "located"]


def _same_results(place: Path, sha256: str) -> bool:
    """Whether the results file at `place` has the hash the set recorded (one that cannot be
    read has not)."""
    try:
        return results_sha256(place) == sha256
    except JudgeError:
        return False


def located(source: SetSource, judgeset: Path) -> list[Path]:
    """Every place the source lies (see the module docstring), real paths."""
    given = Path(source.path)
    near = [given] if given.is_absolute() else [judgeset.parent / given, judgeset / given,
                                                Path.cwd() / given]
    found = [p for p in near if p.exists()]
    parts = given.parts[1:] if given.is_absolute() else given.parts
    tails = [Path(*parts[-n:]) for n in range(1, len(parts) + 1)]
    for above in judgeset.resolve().parents:
        for tail in tails:
            place = above / tail
            if place.exists() and source.sha256 and _same_results(place, source.sha256):
                found.append(place)
    return list(dict.fromkeys(Path(os.path.realpath(p)) for p in found))


def _evidence(source: SetSource, place: Path) -> list[Path]:
    """The run folder a swap or attack results file names (its evidence)."""
    if source.origin == "run" or not place.is_file():
        return []
    try:
        report = _report(place, SwapReport if source.origin == "swap" else AttackReport)
    except JudgeError:
        return []
    folder = _locate(report.evidence, place)
    return [folder.resolve()] if folder.is_dir() else []


def kept_from_judges(judgeset: JudgeSet, out: Path, confined: bool) -> tuple[Path, ...]:
    """What a judge must never see: the judgeset (labels, other items, other judges' scores),
    this run's folder, and every place of what the set was built from.

    Raises:
        JudgeError: `confined`, and a source is found nowhere.
    """
    kept = [judgeset.folder.resolve(), out.resolve()]
    for source in judgeset.manifest.sources:
        places = located(source, judgeset.folder)
        if not places and confined:
            raise JudgeError(
                f"{judgeset.folder / 'judgeset.json'} was built from {source.origin} "
                f"{source.path}, which is not there (nor beside the judgeset, nor here): a "
                "judge could read its verdicts wherever it lies now, and its score would "
                "not be the judge's",
                hint="put it back where the judgeset says, or judge with --sandbox none "
                     "(its scores are then marked not tamper-proof)")
        kept += [*places, *(e for p in places for e in _evidence(source, p))]
    return tuple(dict.fromkeys(kept))
