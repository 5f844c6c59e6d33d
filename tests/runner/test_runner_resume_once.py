"""A resume checks once that its folder holds the run's latest seal (`seal.refuse_stale`), first
of all, and hands the proof on to the set-aside and the sealer: they check again only a state
the proof is not of. The refusals themselves are tested in test_runner_resume_rollback.py,
test_seal_latest.py and test_seal_folder.py. In process, on the simulated iPhone."""

from __future__ import annotations

from pathlib import Path

import pytest

from phoneshell import seal_latest
from phoneshell.records import RunManifest, read_record
from phoneshell.runner.run import RunOptions, run_suite

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_resume_checks_the_latest_seal_once(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    options = RunOptions(paths=(str(ROOT / "environments"),), runs_dir=tmp_path, run_id="R",
                         task_globs=("settings.about.reach",), agent="null")
    run_suite(options, lambda line: None)
    run = tmp_path / "R"
    with (run / "audit.jsonl").open("ab") as log:  # a crash's leftover: set aside, resealed
        log.write(b'{"written": "after the last seal"}\n')
    started = read_record(run / "run.json", RunManifest).seal
    assert started is not None
    checked: list[int] = []
    real = seal_latest._staleness

    def counted(folder: Path, key: str, manifest: RunManifest, *rest: object) -> list[str]:
        checked.append(manifest.seal.sequence if manifest.seal else 0)
        return real(folder, key, manifest, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(seal_latest, "_staleness", counted)  # called through, never replaced
    lines: list[str] = []
    run_suite(RunOptions(paths=(), runs_dir=tmp_path, run_id="R", resume=True), lines.append)
    assert any("set aside in incomplete/" in line for line in lines), lines
    ended = read_record(run / "run.json", RunManifest).seal
    assert ended is not None and ended.sequence > started.sequence + 1  # the set-aside's, more
    assert checked == [started.sequence]  # once, as the resume begins
