"""A `--runs` path no run folder can be made in (a file, a path through a file, a name too long,
a link loop or to nothing, a run id naming a file) is refused by every command that takes it,
before any phone starts: `error: --runs PATH: <reason>`, a hint, exit 2, no traceback (red team
102 met NotADirectoryError from the first mkdir, after the simulator had started)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli
from small_disk import small_disk

from phoneshell.errors import RunError
from phoneshell.runner.folder import RUNS_HINT, check_runs_dir

TASK = str(ROOT / "environments" / "settings.about.reach.yaml")
COMMANDS = {
    "run": ("run", TASK, "--agent", "null"),
    "resume": ("run", "--resume", "R"),
    "attack": ("attack", "--task", "settings.about.reach", "--family", "null"),
    "swap": ("swap", "settings.about.reach", "calculator.arithmetic"),
    "baseline": ("baseline", TASK),
    "bridge": ("bridge", "--wda", "http://127.0.0.1:9", "--listen", "127.0.0.1:0"),
}


@pytest.mark.slow  # 15 s of whole programs: the README's command stays quick
@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_refuses_a_runs_path_through_a_file_before_a_phone_starts(
        tmp_path: Path, command: str) -> None:
    afile = tmp_path / "afile"
    afile.write_text("")
    done = run_cli(*COMMANDS[command], "--runs", str(afile / "sub" / "deeper"), timeout=60)
    out = done.stdout + done.stderr
    assert done.returncode == 2, out
    assert "Traceback" not in out and "this is a bug" not in out, out
    assert done.stderr.splitlines()[-2:] == [
        f"error: --runs {afile / 'sub' / 'deeper'}: {afile} is not a folder",
        f"hint: {RUNS_HINT}"], out
    assert "simulated iPhone" not in out and "forwarding" not in out, out  # nothing started


@pytest.mark.slow  # 15 s of whole programs: the README's command stays quick
def test_a_run_id_naming_a_file_in_the_runs_folder_is_refused_with_its_own_hint(
        tmp_path: Path) -> None:
    (tmp_path / "R").write_text("")
    done = run_cli("run", TASK, "--agent", "null", "--runs", str(tmp_path), "--run-id", "R",
                   timeout=60)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.splitlines()[-2:] == [
        f"error: --runs {tmp_path}: {tmp_path / 'R'} is not a folder",
        f"hint: choose another --run-id, or move {tmp_path / 'R'} out of the way"]


def refusal(runs: Path, run_id: str | None = None) -> str:
    with pytest.raises(RunError) as caught:
        check_runs_dir(runs, run_id)
    assert caught.value.message.startswith(f"--runs {runs}: "), caught.value.message
    return caught.value.message.removeprefix(f"--runs {runs}: ")


def test_each_shape_of_a_runs_path_no_folder_can_be_made_at_is_named(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    (tmp_path / "dangling").symlink_to(tmp_path / "gone" / "x")
    assert refusal(Path("/dev/null")) == "/dev/null is not a folder"
    assert refusal(tmp_path / "afile") == f"{tmp_path / 'afile'} is not a folder"
    assert refusal(tmp_path / ("x" * 300)) == os.strerror(36)  # ENAMETOOLONG, never made
    assert refusal(tmp_path / ("a/" * 2100)) == os.strerror(36)  # the whole path too long
    assert not (tmp_path / "a").exists()  # nothing was made on the way
    assert refusal(tmp_path / "loop" / "x").startswith("Too many levels of symbolic links")
    assert refusal(tmp_path / "dangling") == (f"{tmp_path / 'dangling'} is a link to "
                                              f"{tmp_path / 'gone' / 'x'}, which does not exist")


def test_a_folder_or_a_path_where_one_can_be_made_passes_and_leaves_nothing(
        tmp_path: Path) -> None:
    (tmp_path / "runs" / "R").mkdir(parents=True)
    check_runs_dir(tmp_path / "runs")
    check_runs_dir(tmp_path / "runs", "R")  # a run folder already there (a resume's)
    check_runs_dir(tmp_path / "new" / "deeper", "R2")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["runs"]
    assert [p.name for p in (tmp_path / "runs").iterdir()] == ["R"]
    with pytest.raises(RunError, match="bad run id"):
        check_runs_dir(tmp_path / "runs", "../x")


def test_a_read_only_folder_is_refused_as_the_system_would(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        assert refusal(disk / "runs") == f"{disk}: {os.strerror(30)}"  # EROFS, even for root
