"""A judgeset trusts a run folder as a report does: only while it matches its seal, which holds
its trajectory.jsonl and, through each line's sha256, its frames. A changed frame or an added
line is refused, or with `unverified` built from and marked; a frame the seal does not vouch for
is never shown."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from judges.judges_rig import Made
from PIL import Image

from phoneshell.cli import main
from phoneshell.judges import JudgeError, Sources, build_judgeset, open_judgeset, read_labels
from phoneshell.records import RunManifest, TrajectoryFrame, read_lines, read_record
from phoneshell.runner import RunOptions, run_suite
from phoneshell.seal import verify_run
from phoneshell.sim import SimServer


def copied(made: Made, run_id: str, to: Path) -> Path:
    return Path(shutil.copytree(made.runs / run_id, to / run_id))


def frame_files(run_dir: Path) -> list[str]:
    return [f.file for f in read_lines(run_dir / "trajectory.jsonl", TrajectoryFrame) if f.file]


def test_a_run_with_frames_matches_its_seal(made: Made) -> None:
    assert verify_run(made.runs / "SOL") == []
    assert frame_files(made.runs / "SOL")


def test_a_changed_frame_is_refused_or_marked(made: Made, tmp_path: Path) -> None:
    run_dir = copied(made, "SOL", tmp_path)
    changed = frame_files(run_dir)[-1]
    (run_dir / changed).write_bytes((run_dir / frame_files(run_dir)[0]).read_bytes())
    assert verify_run(run_dir) == [f"{changed}: changed since it was sealed"]
    with pytest.raises(JudgeError, match="does not match its seal") as refused:
        build_judgeset(tmp_path / "set", Sources(runs=(run_dir,)))
    assert "--unverified" in refused.value.hint
    built = build_judgeset(tmp_path / "set", Sources(runs=(run_dir,), unverified=True))
    assert built.unverified == len(built.items) == 2
    assert built.sources[0].unverified == (f"{changed}: changed since it was sealed",)
    assert all(row.unverified for row in read_labels(open_judgeset(tmp_path / "set")).values())


def shown_frames(folder: Path) -> list[str]:
    """The sha256 of every frame a judgeset shows, sorted (item ids are random)."""
    return sorted(hashlib.sha256(p.read_bytes()).hexdigest()
                  for p in folder.glob("items/*/frames/*.png"))


def test_lines_the_seal_does_not_hold_are_never_shown(made: Made, tmp_path: Path) -> None:
    run_dir = copied(made, "NUL", tmp_path)
    build_judgeset(tmp_path / "honest", Sources(runs=(run_dir,)))
    Image.new("RGB", (60, 130), "red").save(run_dir / "frames" / "forged.png")
    path = run_dir / "trajectory.jsonl"
    last = read_lines(path, TrajectoryFrame).records[-1]
    forged = last.model_copy(update={"file": "frames/forged.png", "t": last.t - 0.001})
    with path.open("a") as out:  # a later start frame for the last attempt, after the seal
        out.write(forged.to_json() + "\n")
    assert any("added after the last seal" in p for p in verify_run(run_dir))
    build_judgeset(tmp_path / "set", Sources(runs=(run_dir,), unverified=True))
    assert shown_frames(tmp_path / "set") == shown_frames(tmp_path / "honest")


@pytest.mark.slow  # 2.4 s measured: the README's command stays quick
def test_a_resumed_run_goes_on_sealing_its_frames(made: Made, tmp_path: Path, sim: SimServer,
                                                 signing_key: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # the same key, but a record of latest seals of its own: the copy resumed here is a fork
    # of the shared run, which the session's record would then call rolled back
    keys = tmp_path / "keys"
    keys.mkdir(mode=0o700)
    shutil.copy(signing_key, keys / signing_key.name)
    monkeypatch.setenv("PHONESHELL_KEY_FILE", str(keys / signing_key.name))
    run_dir = copied(made, "SOL", tmp_path)
    run_suite(RunOptions(device=sim.url, runs_dir=tmp_path, run_id="SOL", resume=True),
              progress=lambda line: None)  # every attempt scored: nothing runs, it is sealed
    seal = read_record(run_dir / "run.json", RunManifest).seal
    assert seal is not None and "trajectory.jsonl" in [log.path for log in seal.logs]
    assert verify_run(run_dir) == []


def test_the_command_refuses_or_marks_and_judge_warns(made: Made, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = copied(made, "SOL", tmp_path)
    first, last = frame_files(run_dir)[0], frame_files(run_dir)[-1]
    (run_dir / first).write_bytes((run_dir / last).read_bytes())
    args = ["judgeset", "--out", str(tmp_path / "set"), "--run", str(run_dir)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "does not match its seal" in err and "hint:" in err and "--unverified" in err
    assert main([*args, "--unverified"]) == 0
    out, err = capsys.readouterr()
    assert "UNVERIFIED SOL: frames/" in err and "UNVERIFIED: 2 item(s)" in out
    assert main(["judge", str(tmp_path / "set"), "--judge", "command:true"]) == 1
    assert "UNVERIFIED: 2 item(s)" in capsys.readouterr().err
