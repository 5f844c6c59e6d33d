"""A folder refused before anything believes it is said for what it is, in the words of the
command refusing it (red team 123): not a run folder at all (a mistyped path, a folder inside a
run); a run stopped between two seals (SIGKILL, a power cut: whole lines after the sealed ones,
an attempt folder no seal holds anything of), whose hint is `--resume`; or a run changed after it
ran (a torn last line, a change inside sealed bytes, a file added to a sealed attempt). No hint
names an option its command does not have."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from cli_process import run_cli
from test_seal import sealed_run

from phoneshell.errors import RunError
from phoneshell.runner.folder import writing
from phoneshell.seal import verify_run
from phoneshell.seal_refusal import require_verified

KILLED = "what it holds past its seal was written after the run last sealed it: the run was " \
         "stopped before it sealed what it wrote last (killed?), or lines were added to it; " \
         "if it was stopped, `phoneshell run --resume R --runs {runs}` sets that aside and goes on"
CHANGED = "its files were changed after the run"


def killed(run: Path) -> None:
    """What a harness killed in an attempt leaves: whole lines after the sealed ones, and the
    next attempt's folder, never sealed."""
    with (run / "audit.jsonl").open("ab") as log:
        log.write(b'{"a": 3}\n{"a": 4}\n')
    evidence = run / "attempts" / "t" / "2" / "evidence"
    evidence.mkdir(parents=True)
    (evidence / "evidence.json").write_text("{}")


def torn(run: Path) -> None:
    with (run / "audit.jsonl").open("ab") as log:
        log.write(b'{"a": 3}\n{"a": ')


def edited_inside(run: Path) -> None:
    killed(run)
    (run / "audit.jsonl").write_bytes((run / "audit.jsonl").read_bytes().replace(b"2", b"5", 1))


def added_to_a_sealed_attempt(run: Path) -> None:
    killed(run)
    (run / "attempts" / "t" / "1" / "evidence" / "extra.json").write_text("{}")


@pytest.mark.slow  # 1.9 s measured: the README's command stays quick
def test_a_run_killed_between_two_seals_is_told_from_an_edit(tmp_path: Path) -> None:
    run, _, _ = sealed_run(tmp_path)
    killed(run)
    report = run_cli("report", str(run))
    assert report.returncode == 2, report.stderr
    assert "audit.jsonl: 18 byte(s) (2 line(s)) were added after the last seal" in report.stderr
    assert f"hint: {KILLED.format(runs=tmp_path)}; `--unverified` reports it anyway, " \
           "marked" in report.stderr
    assert CHANGED not in report.stderr
    graded = run_cli("grade", str(run / "attempts" / "t" / "1" / "evidence"), "--task",
                     "calculator.arithmetic")
    assert graded.returncode == 2 and KILLED.format(runs=tmp_path) in graded.stderr
    assert "`--unverified` grades it anyway" in graded.stderr, graded.stderr


def test_a_copied_run_is_never_told_to_resume_another_folder(tmp_path: Path) -> None:
    """Red team 125: `--resume R` of a copy named otherwise goes on with the folder named R."""
    run, _, _ = sealed_run(tmp_path)
    killed(run)
    copy = run.rename(tmp_path / "R-copy")
    with pytest.raises(RunError) as refused:
        require_verified(copy, verify_run(copy), False, print, anyway="ANYWAY")
    hint = refused.value.hint or ""
    assert "or lines were added to it" in hint and "--resume" not in hint, hint


@pytest.mark.parametrize("edit", [torn, edited_inside, added_to_a_sealed_attempt])
def test_a_change_the_kill_cannot_leave_stays_a_change(tmp_path: Path,
                                                       edit: Callable[[Path], None]) -> None:
    run, _, _ = sealed_run(tmp_path)
    edit(run)
    with pytest.raises(RunError, match="does not match its seal") as refused:
        require_verified(run, verify_run(run), False, print, anyway="ANYWAY")
    assert refused.value.hint == f"{CHANGED}; ANYWAY"


def test_a_run_being_written_is_said_to_be(tmp_path: Path) -> None:
    run, _, _ = sealed_run(tmp_path)
    killed(run)
    with writing(run, "R"), pytest.raises(RunError) as refused:
        require_verified(run, verify_run(run), False, print, anyway="ANYWAY")
    assert refused.value.hint.startswith("it is still being written, by ")
    assert "try again when that run ends; ANYWAY" in refused.value.hint


@pytest.mark.slow  # three whole programs, 9 s
def test_a_replay_of_no_run_says_so_and_names_no_option_run_lacks(tmp_path: Path) -> None:
    run, _, _ = sealed_run(tmp_path / "runs")

    def replayed(source: Path) -> str:
        done = run_cli("run", "environments", "--task", "calculator.arithmetic", "--agent",
                       f"replay:{source}", "--runs", str(tmp_path / "new"))
        assert done.returncode == 2, done.stdout + done.stderr
        assert "--unverified" not in done.stderr, done.stderr
        assert not (tmp_path / "new").exists() or not any((tmp_path / "new").iterdir())
        return done.stderr

    said = replayed(tmp_path / "nothing")
    assert f"error: {tmp_path / 'nothing'} is not a run folder: there is no such folder" in said
    assert "does not match its seal" not in said
    said = replayed(run / "attempts")
    assert f"{run / 'attempts'} is not a run folder: {run / 'attempts' / 'run.json'} is " \
           f"missing" in said
    assert f"it is inside the run folder {run}" in said
    torn(run)
    said = replayed(run)
    assert "does not match its seal" in said
    assert f"hint: {CHANGED}; a replay needs the run as phoneshell wrote and sealed it" in said
