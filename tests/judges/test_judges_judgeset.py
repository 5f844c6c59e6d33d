"""Building a judgeset from runs, a swap and cheap finishes: labels from the phone, items that
say nothing of their label, frames in order, AgentHorizon's layout, unclean labels left out."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from judges.judges_rig import SWAPPED, TASKS, Made
from PIL import Image

from phoneshell.judges import JudgeError, Sources, build_judgeset, open_judgeset, read_labels
from phoneshell.records import JudgeItem, read_record
from phoneshell.report import agenthorizon


def items(made: Made) -> dict[str, JudgeItem]:
    return {i: made.judgeset.item(i) for i in made.judgeset.manifest.items}


def test_every_label_type_is_counted(made: Made) -> None:
    manifest = made.judgeset.manifest
    assert manifest.counts == {"positive": 2, "failed": 2, "swapped": 1, "attack": 2}
    assert manifest.families == {"open-app": 2}
    assert sorted(manifest.items) == sorted(made.labels)
    assert {(r.label_type, r.label) for r in made.labels.values()} == {
        ("positive", "positive"), ("failed", "negative"), ("swapped", "negative"),
        ("attack", "negative")}
    assert manifest.without_step_frames == 0 and manifest.excluded == ()
    assert {r.agent for r in made.labels.values() if r.origin == "run"} == {
        "solution @ SOL", "null @ NUL"}


def test_nothing_a_judge_sees_names_the_task_the_source_or_the_label(made: Made) -> None:
    secrets = [*TASKS, "SOL", "NUL", "OPEN", "swap-", str(made.runs), "positive", "negative",
               "swapped", "label", "reference finish of calculator"]
    for item_id in made.judgeset.manifest.items:
        folder = made.judgeset.item_dir(item_id)
        assert sorted(p.name for p in folder.iterdir()) == ["frames", "item.json"]
        text = (folder / "item.json").read_text()
        assert [s for s in secrets if s in text] == [], item_id
    assert not list(made.judgeset.folder.glob("items/**/labels*"))


def test_a_swapped_item_shows_the_siblings_finish_under_its_own_instruction(made: Made) -> None:
    shown, played = SWAPPED
    row = next(r for r in made.labels.values() if r.label_type == "swapped")
    assert (row.task_id, row.trajectory_task) == (shown, played)
    item = made.judgeset.item(row.id)
    own = next(i for r in made.labels.values() if r.task_id == shown and r.label == "positive"
               for i in [made.judgeset.item(r.id)])
    assert item.instruction == own.instruction
    assert "Tapped Button 'multiply'" in [s.action for s in item.steps]
    assert item.claim is not None and item.claim.summary == "played the reference finish of [task]"
    assert "opened_in_order" in row.detail  # the phone's reason, kept with the label


def test_frames_run_from_start_to_end_one_per_action(made: Made) -> None:
    for item_id, item in items(made).items():
        after = [f.after_step for f in item.frames]
        assert after == [0, *range(1, len(item.steps) + 1), len(item.steps)], item_id
        assert [f.final for f in item.frames] == [False] * (len(after) - 1) + [True]
        for frame in item.frames:
            image = Image.open(io.BytesIO((made.judgeset.item_dir(item_id) / frame.file)
                                          .read_bytes()))
            assert max(image.size) == 600 and image.size == (frame.width, frame.height)


def test_the_agenthorizon_layout_holds_the_same_items(made: Made) -> None:
    folder = made.judgeset.folder / "agenthorizon"
    labels = agenthorizon.read_manifest(folder / "manifest.jsonl")
    assert labels == {i: r.label for i, r in made.labels.items()}
    for item_id, item in items(made).items():
        data = json.loads((folder / "data" / "jsons" / f"{item_id}.json").read_text())
        assert data["task"]["instruction"] == item.instruction
        assert len(data["steps"]) == len(item.steps) + 1
        assert all((folder / s["screenshot"]).is_file() for s in data["steps"])
        assert (folder / "data" / "markdowns" / f"{item_id}.md").read_text().startswith(
            "# Trajectory Report")


def _edited(source: Path, out: Path, edit: dict[str, object], key: str) -> Path:
    data = json.loads(source.read_text())
    for row in data[key]:
        row.update(edit)
    out.write_text(json.dumps(data))
    return out


def test_finishes_whose_grade_and_task_file_disagree_are_left_out(made: Made,
                                                                  tmp_path: Path) -> None:
    swap = _edited(made.swap, tmp_path / "swap.json", {"compatible": True}, "pairs")
    attack = _edited(made.attack, tmp_path / "attack.json", {"passed": True}, "attacks")
    built = build_judgeset(tmp_path / "set", Sources(runs=(made.runs / "SOL",), swaps=(swap,),
                                                     attacks=(attack,),
                                                     tasks=(str(made.tasks),)))
    assert built.counts == {"positive": 2}
    reasons = sorted(e.reason.split(":")[0].split(",")[0] for e in built.excluded)
    assert reasons == ["the phone passed a cheap finish the task does not list as compatible"] \
        * 2 + ["the task lists the finish as compatible"]


def test_the_same_trajectory_twice_is_one_item(made: Made, tmp_path: Path) -> None:
    # the attack's open-app finishes are the open-app run's attempts, recorded as cheap finishes
    built = build_judgeset(tmp_path / "set", Sources(runs=(made.runs / "OPEN",),
                                                     attacks=(made.attack,),
                                                     tasks=(str(made.tasks),)))
    assert (len(built.items), built.duplicates, built.scored_attempts) == (2, 2, 2)
    with pytest.raises(JudgeError, match="NUL is given twice"):  # its attempts would count twice
        build_judgeset(tmp_path / "set", Sources(runs=(made.runs / "NUL", made.runs / "NUL")))
    again = build_judgeset(tmp_path / "set", Sources(runs=(made.runs / "NUL",)))
    assert len(read_labels(open_judgeset(tmp_path / "set"))) == 2
    assert set(again.items).isdisjoint(built.items)  # ids are random: they tell nothing


def test_bad_sources_name_the_file(made: Made, tmp_path: Path) -> None:
    with pytest.raises(JudgeError, match=f"--run {tmp_path}: .*run.json is missing"):
        build_judgeset(tmp_path / "a", Sources(runs=(tmp_path,)))
    with pytest.raises(JudgeError, match=f"--swap {made.attack}: .*unknown field"):
        build_judgeset(tmp_path / "b", Sources(swaps=(made.attack,), tasks=(str(made.tasks),)))
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "keep.txt").write_text("mine")
    with pytest.raises(JudgeError, match="not empty and holds no judgeset"):
        build_judgeset(tmp_path / "c", Sources(runs=(made.runs / "NUL",)))
    assert read_record(made.judgeset.item_dir(made.judgeset.manifest.items[0]) / "item.json",
                       JudgeItem).version == 1
