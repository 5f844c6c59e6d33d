"""Red team 140 (RT140-4): `phoneshell judge` scored whatever labels.jsonl said. Swapped and
failed negatives relabelled positive made a judge that accepts everything 100% right, while
judgeset.json still recorded the counts it was built with. The labels are held to what
judgeset.json records (their sha256, counts by label type and family, the rest), and a
contradiction is an error naming the file and the line."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from cli_process import run_cli
from judges.judges_rig import Made

phoneshell = run_cli
YES = "import json, sys\nprint(json.dumps({'success': True, 'reasoning': 'fine'}))\n"


def _rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _relabel_negatives(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    for row in rows:
        if row["label_type"] != "positive":
            row["label"], row["label_type"], row["family"] = "positive", "positive", ""
    return rows


def _flip_one_label(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    negative = next(r for r in rows if r["label"] == "negative")
    negative["label"] = "positive"  # its label type still says why it is negative
    return rows


def _swap_two_types(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    failed = next(r for r in rows if r["label_type"] == "failed")
    failed["label_type"] = "swapped"
    return rows


@pytest.mark.slow
@pytest.mark.parametrize("edit", [_relabel_negatives, _flip_one_label, _swap_two_types])
@pytest.mark.parametrize("digest", ["kept", "blanked"])
def test_labels_that_contradict_judgeset_json_are_refused(
        made: Made, tmp_path: Path, edit: object, digest: str) -> None:
    judgeset = tmp_path / "set"
    shutil.copytree(made.judgeset.folder, judgeset)
    program = tmp_path / "yes.py"
    program.write_text(YES)
    judge = f"command:{sys.executable} {program}"
    clean = phoneshell("judge", str(judgeset), "--judge", judge, "--out", str(tmp_path / "a"))
    assert clean.returncode in (0, 1) and "accuracy" in clean.stdout, clean.stderr
    labels = judgeset / "labels.jsonl"
    assert callable(edit)
    labels.write_text("".join(json.dumps(r) + "\n" for r in edit(_rows(labels))))
    if digest == "blanked":  # a set built before the digest was recorded: its counts hold
        manifest = json.loads((judgeset / "judgeset.json").read_text())
        manifest["labels_sha256"] = ""
        (judgeset / "judgeset.json").write_text(json.dumps(manifest))
    done = phoneshell("judge", str(judgeset), "--judge", judge, "--out", str(tmp_path / "b"))
    assert done.returncode == 2, done.stdout + done.stderr
    error = next(line for line in done.stderr.splitlines() if line.startswith("error: "))
    assert error.startswith(f"error: {labels}"), error
    if digest == "blanked":
        assert f"{labels} line " in error, error
    assert "accuracy 100.0%" not in done.stdout
    assert not (tmp_path / "b").exists(), "refused before the judge was asked anything"
