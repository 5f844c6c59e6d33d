"""What the harness knows a scored program (a command agent, a command judge) must never see,
wherever it lies: one list, laid over what the sandbox shows (`Sandbox.hiding`).

A secret kept only by lying outside what the sandbox shows stops being kept the moment a share
(`PHONESHELL_SANDBOX_SHARE`) or the Python's prefix holds it: a red team shared the project
folder with its agent and read the earlier runs' verdicts (the checks: the answer key) in
`runs/`, and shared it with a judge, which matched its item to an attempt and answered that
attempt's verdict. So every secret the harness knows of is hidden by name, inside a share or
not:

* the signing key (`seal_key.key_path`) and its record of latest seals (`<key>.latest/`);
* the run's runs folder, and every run folder this machine sealed with that key (the records
  in `<key>.latest/` name the folder each seal was written into), whichever runs folder or
  project it lies in;
* what the caller adds: the task files' folders (a run), the judgeset, the judge run's folder
  and the runs and results files the judgeset was built from (a judge: `judges/hidden.py`).

A share may also hold what the harness was never told of: a copy of a run, another key's runs,
an attack's or a swap's evidence folder, another judge's run. So each share is looked through
once (`marked_in`), and every folder in it that holds what only the harness writes (`MARKERS`: a
run's run.json, results.jsonl or verdict.json, the bridge's audit.jsonl, a judgeset's or a
judge run's record) is hidden whole, and so is any signing key found by its file name. A share
too large to look through (`SCAN_ENTRIES`) is refused: what it holds cannot be vouched for.

A share that contains one of them is shown less it; a share that is one of them, or lies
inside one, would show nothing else, and is refused by name (`refuse_shared`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from phoneshell.errors import RunError
from phoneshell.records import TRAJECTORY_FILE
from phoneshell.records.layout import AUDIT, MANIFEST, RESULTS, VERDICT
from phoneshell.seal_key import key_path
from phoneshell.seal_latest import RECORD_BYTES, latest_folder

__all__ = ["MARKERS", "SCAN_ENTRIES", "harness_secrets", "marked_in", "refuse_shared",
           "sealed_folders"]

MARKERS = frozenset({MANIFEST, RESULTS, VERDICT, AUDIT, TRAJECTORY_FILE,
                     "judgeset.json", "labels.jsonl", "judge.json", "score.json"})
"""Files only the harness writes, in the folders a scored program must never see."""
KEY_NAME = "run-signing.key"
SCAN_ENTRIES = 500_000
"""The most entries a share is looked through for them."""


def sealed_folders(latest: Path) -> list[Path]:
    """The run folders this machine sealed runs in, as the records in `latest` name them (those
    that still exist); a record that cannot be read names none."""
    try:
        names = sorted(os.listdir(latest))
    except OSError:
        return []
    found: dict[Path, None] = {}
    for name in names:
        if not name.endswith(".json") or name.startswith("."):
            continue
        try:
            fd = os.open(latest / name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            with os.fdopen(fd, "rb") as handle:
                folder = json.loads(handle.read(RECORD_BYTES)).get("folder")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(folder, str) and folder and os.path.isdir(folder):
            found[Path(folder).resolve()] = None
    return list(found)


def harness_secrets(runs_dir: Path | None = None) -> list[Path]:
    """The harness's own secrets (see the module docstring), real paths: the key and its records
    even before they exist (the run makes the key before its first attempt), the runs folder and
    every run folder sealed here."""
    key = Path(os.path.realpath(key_path()))
    latest = latest_folder(key)
    places = [key, latest, *sealed_folders(latest)]
    if runs_dir is not None:
        places.append(Path(runs_dir).resolve())
    return list(dict.fromkeys(places))


def refuse_shared(shares: Iterable[Path], secrets: Sequence[Path]) -> None:
    """Refuse a share that is one of `secrets` or lies inside one: it would show a program
    nothing but what it must never see.

    Raises:
        RunError: naming the share and the secret.
    """
    for share in shares:
        real = Path(os.path.realpath(share))
        for secret in secrets:
            if real == secret or secret in real.parents:
                where = "is" if real == secret else "lies inside"
                raise RunError(
                    f"PHONESHELL_SANDBOX_SHARE names {share}, which {where} {secret}: what a "
                    "scored program must never see (the signing key, a runs folder or run "
                    "folder, the task files' folder, a judgeset or what it was built from)",
                    hint="share only the program's own files (its config, its binaries), "
                         "or a folder that holds these: they are hidden inside it")


def marked_in(shares: Iterable[Path]) -> list[Path]:
    """The folders inside `shares` that hold one of `MARKERS`, and the signing keys there
    (see the module docstring); a share that is itself such a folder is among them.

    Raises:
        RunError: a share holds more than `SCAN_ENTRIES` entries.
    """
    found: list[Path] = []
    for share in shares:
        seen = 0
        for top, folders, files in os.walk(share):  # links are not followed
            seen += len(folders) + len(files)
            if seen > SCAN_ENTRIES:
                raise RunError(
                    f"PHONESHELL_SANDBOX_SHARE names {share}, which holds more than "
                    f"{SCAN_ENTRIES:,} files and folders: too many to look through for runs, "
                    "judgesets and keys a scored program must never see",
                    hint="share only the program's own files (its config, its binaries)")
            if MARKERS.intersection(files):
                found.append(Path(os.path.realpath(top)))
                folders[:] = []
                continue
            found += [Path(os.path.realpath(os.path.join(top, KEY_NAME)))] if KEY_NAME in files \
                else []
    return found
