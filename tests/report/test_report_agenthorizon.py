"""Swap results exported in AgentHorizon's format and scored strictly: every manifest id in its
class's denominator, a missing or non-boolean verdict counted as incorrect."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from report.report_rig import ROOT, phoneshell

from phoneshell.report.agenthorizon import item_id, score

TASKS = ("multi.app_switch", "calculator.arithmetic", "weather.open", "weather.read_temperature")


@pytest.fixture(scope="module")
def swap_files(reference: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """`phoneshell swap --format json` on four tasks: graded with the strengthened suite
    (rejects the incompatible pair) and with the reference checks (accepts it)."""
    base = tmp_path_factory.mktemp("swap")
    (base / "ref").mkdir()
    (base / "env").mkdir()
    for task_id in TASKS:
        shutil.copy(reference / "phoneshell-environments" / f"{task_id.replace('.', '_')}.yaml",
                    base / "ref")
        shutil.copy(ROOT / "environments" / f"{task_id}.yaml", base / "env")
    out = {}
    for name, args in (("suite", ["--pairs-from", str(base / "ref"), str(base / "env")]),
                       ("reference", ["--implied", str(base / "ref"), "--solutions",
                                      str(base / "env")])):
        done = phoneshell("swap", *args, "--device", "sim", "--runs", str(base / "runs"),
                          "--format", "json")
        assert done.returncode in (0, 1), done.stderr
        (base / f"{name}.json").write_text(done.stdout)
        out[name] = base / f"{name}.json"
    return out


def manifest(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "manifest.jsonl").read_text().splitlines()]


@pytest.mark.slow  # 1.6 s measured: the README's command stays quick
def test_export_writes_the_manifest_and_one_verdict_per_item(swap_files: dict[str, Path],
                                                             tmp_path: Path) -> None:
    out = tmp_path / "ah"
    done = phoneshell("report", "--swap", str(swap_files["suite"]), "--agenthorizon", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = manifest(out)
    assert {(r["paired_id"], r["original_id"], r["label"]) for r in rows} == {
        ("multi.app_switch", "calculator.arithmetic", "negative"),
        ("weather.open", "weather.read_temperature", "positive")}
    for row in rows:
        assert row["trajectory_id"] == item_id(row["paired_id"], row["original_id"])
        assert row["instruction_id"] == row["paired_id"]
        verdict = json.loads((out / "results" / f"{row['trajectory_id']}.json").read_text())
        assert verdict["success"] is (row["label"] == "positive")  # the suite gets both right
    assert "strict score: positive 1/1 = 100.0%, negative 1/1 = 100.0%, balanced 100.0%" in \
        done.stdout
    assert "the swap JSON's accuracies agree" in done.stdout
    record = json.loads((out / "export.json").read_text())
    assert (record["items"], record["positives"], record["negatives"]) == (2, 1, 1)
    again = phoneshell("report", "--swap", str(swap_files["suite"]), "--agenthorizon", str(out))
    assert again.returncode == 0 and manifest(out) == rows  # ids are stable


def test_the_reference_checks_accept_the_swapped_finish(swap_files: dict[str, Path],
                                                        tmp_path: Path) -> None:
    done = phoneshell("report", "--swap", str(swap_files["reference"]), "--agenthorizon",
                      str(tmp_path / "ah"), "--format", "json")
    assert done.returncode == 0, done.stderr
    scored = json.loads(done.stdout)["agenthorizon"]
    # the reference files mark nothing compatible: both pairs are negatives, both accepted
    assert (scored["positives"], scored["negatives"], scored["neg_correct"]) == (0, 2, 0)
    assert (scored["pos_accuracy"], scored["neg_accuracy"], scored["balanced_accuracy"]) == \
        (None, 0.0, None)
    assert scored["agrees_with_swap"] is True
    stated = json.loads(swap_files["reference"].read_text())
    assert (stated["neg_accuracy"], stated["balanced_accuracy"]) == (0.0, None)


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_missing_and_non_boolean_verdicts_count_as_incorrect(swap_files: dict[str, Path],
                                                             tmp_path: Path) -> None:
    out = tmp_path / "ah"
    assert phoneshell("report", "--swap", str(swap_files["suite"]), "--agenthorizon",
                      str(out)).returncode == 0
    positive, negative = sorted(manifest(out), key=lambda r: r["label"] != "positive")
    (out / "results" / f"{positive['trajectory_id']}.json").unlink()
    (out / "results" / f"{negative['trajectory_id']}.json").write_text(
        json.dumps({"success": "false"}))  # a string, not a boolean
    got = score(out)
    assert (got.items, got.positives, got.negatives) == (2, 1, 1)  # the denominators hold
    assert (got.pos_accuracy, got.neg_accuracy, got.balanced_accuracy) == (0.0, 0.0, 0.0)
    assert got.missing == (positive["trajectory_id"],)
    assert got.invalid == (negative["trajectory_id"],)
    done = phoneshell("report", "--agenthorizon", str(out))
    assert done.returncode == 0  # scoring alone states no figures to disagree with
    assert "counted incorrect: 1 missing verdict(s), 1 not a boolean" in done.stdout
    (out / "results" / "not-an-item.json").write_text(json.dumps({"success": True}))
    stray = phoneshell("report", "--agenthorizon", str(out))
    assert stray.returncode == 2 and "not-an-item.json is not an item" in stray.stderr


@pytest.mark.slow  # 1.7 s measured: the README's command stays quick
def test_unscored_pairs_and_figures_that_disagree(tmp_path: Path) -> None:
    pairs = [{"implied": "a", "by": "b", "compatible": True, "accepted": True, "by_passed": True},
             {"implied": "b", "by": "a", "compatible": True, "accepted": False,
              "by_passed": False, "scored": False, "skip_reason": "b's finish did not pass as b"},
             {"implied": "c", "by": "a", "compatible": False, "accepted": False,
              "by_passed": True}]
    right = tmp_path / "right.json"
    right.write_text(json.dumps({"version": 1, "pairs": pairs, "pos_accuracy": 0.5,
                                 "neg_accuracy": 1.0, "balanced_accuracy": 0.75,
                                 "evidence": "runs/x"}))
    done = phoneshell("report", "--swap", str(right), "--agenthorizon", str(tmp_path / "r"))
    assert done.returncode == 0, done.stdout + done.stderr
    unscored = json.loads((tmp_path / "r" / "results" / f"{item_id('b', 'a')}.json").read_text())
    assert unscored["success"] is None and unscored["status"] == "not_scored"
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"version": 1, "pairs": pairs, "pos_accuracy": 1.0,
                                 "neg_accuracy": 1.0, "balanced_accuracy": 1.0,
                                 "evidence": "runs/x"}))
    done = phoneshell("report", "--swap", str(wrong), "--agenthorizon", str(tmp_path / "w"))
    assert done.returncode == 1
    assert "DISAGREE: pos_accuracy: the swap JSON says 1.0, the strict score is 0.5" in \
        done.stdout


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_bad_swap_input_exits_2(tmp_path: Path) -> None:
    twice = tmp_path / "twice.json"
    pair = {"implied": "a", "by": "b", "compatible": True, "accepted": True, "by_passed": True}
    twice.write_text(json.dumps({"version": 1, "pairs": [pair, pair], "pos_accuracy": 1.0,
                                 "neg_accuracy": None, "balanced_accuracy": None,
                                 "evidence": "runs/x"}))
    unversioned = tmp_path / "unversioned.json"
    unversioned.write_text(json.dumps({"pairs": [pair]}))
    old = phoneshell("report", "--swap", str(unversioned), "--agenthorizon", str(tmp_path / "u"))
    assert old.returncode == 2 and "missing field 'version'" in old.stderr
    done = phoneshell("report", "--swap", str(twice), "--agenthorizon", str(tmp_path / "x"))
    assert done.returncode == 2 and "appears twice" in done.stderr
    alone = phoneshell("report", "--swap", str(twice))
    assert alone.returncode == 2 and "--swap needs --agenthorizon" in alone.stderr
    occupied = tmp_path / "occupied"
    occupied.mkdir()
    (occupied / "notes.txt").write_text("mine")
    right = tmp_path / "one.json"
    right.write_text(json.dumps({"version": 1, "pairs": [pair], "pos_accuracy": 1.0,
                                 "neg_accuracy": None, "balanced_accuracy": None,
                                 "evidence": "runs/x"}))
    done = phoneshell("report", "--swap", str(right), "--agenthorizon", str(occupied))
    assert done.returncode == 2 and "is not empty and holds no earlier export" in done.stderr


def _export(tmp_path: Path) -> tuple[Path, Path]:
    """A small swap JSON (2 positive pairs, 1 negative) exported; return it and the folder."""
    pairs = [{"implied": "a", "by": "b", "compatible": True, "accepted": True, "by_passed": True},
             {"implied": "b", "by": "a", "compatible": True, "accepted": True, "by_passed": True},
             {"implied": "c", "by": "a", "compatible": False, "accepted": True,
              "by_passed": True}]
    swap = tmp_path / "swap.json"
    swap.write_text(json.dumps({"version": 1, "pairs": pairs, "pos_accuracy": 1.0,
                                "neg_accuracy": 0.0, "balanced_accuracy": 0.5,
                                "evidence": "runs/x"}))
    folder = tmp_path / "ah"
    done = phoneshell("report", "--swap", str(swap), "--agenthorizon", str(folder))
    assert done.returncode == 0, done.stdout + done.stderr
    clean = phoneshell("report", "--agenthorizon", str(folder))
    assert clean.returncode == 0 and "negative 0/1 = 0.0%" in clean.stdout, clean.stderr
    return swap, folder


def test_a_label_changed_after_the_export_is_refused_naming_the_file(tmp_path: Path) -> None:
    """RT140-3: a negative the judge wrongly accepted, relabelled positive, scored 100%: the
    manifest is held to the sha256 and counts export.json records."""
    _swap, folder = _export(tmp_path)
    path = folder / "manifest.jsonl"
    path.write_text(path.read_text().replace('"negative"', '"positive"'))
    done = phoneshell("report", "--agenthorizon", str(folder))
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"error: {path}: its sha256" in done.stderr and str(folder / "export.json") in \
        done.stderr
    assert "100.0%" not in done.stdout


def test_an_item_dropped_with_export_json_edited_to_match_is_refused(tmp_path: Path) -> None:
    """The manifest rewritten with its digest recomputed, but the counts left: refused too."""
    _swap, folder = _export(tmp_path)
    path = folder / "manifest.jsonl"
    rows = [r for r in manifest(folder) if r["label"] == "positive"]
    text = "".join(json.dumps(r) + "\n" for r in rows)
    path.write_text(text)
    (folder / "results" / f"{item_id('c', 'a')}.json").unlink()
    record = json.loads((folder / "export.json").read_text())
    record["manifest_sha256"] = hashlib.sha256(text.encode()).hexdigest()
    (folder / "export.json").write_text(json.dumps(record))
    done = phoneshell("report", "--agenthorizon", str(folder))
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"error: {path} holds 2 items; {folder / 'export.json'} records 3" in done.stderr


def test_a_swap_file_changed_since_its_export_is_refused_naming_it(tmp_path: Path) -> None:
    swap, folder = _export(tmp_path)
    swap.write_text(swap.read_text().replace('"neg_accuracy": 0.0', '"neg_accuracy": 0.00'))
    done = phoneshell("report", "--agenthorizon", str(folder))
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"error: {swap}: its sha256" in done.stderr
