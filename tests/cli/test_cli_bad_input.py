"""Bad input never crashes or hangs a command: each case ends in a clear `file:line` error, or a
refusal naming the limit, with exit code 1 or 2 and no traceback, and nothing else is lost."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sources import El, evidence

from phoneshell.evidence import save_evidence

ROOT = Path(__file__).resolve().parents[2]
GOOD = ("name: {id}\ninstruction: Open Settings.\nchecks:\n"
        "  - foreground_app: com.apple.Preferences\n")


def phoneshell(*args: str, cwd: Path = ROOT, timeout: float = 120
               ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=timeout)


def task_file(folder: Path, task_id: str, extra: str = "", name: str = "") -> Path:
    path = folder / (name or f"{task_id}.yaml")
    path.write_text(f"id: {task_id}\n" + GOOD.format(id=task_id) + extra, encoding="utf-8")
    return path


def clean(done: subprocess.CompletedProcess[str]) -> str:
    """Both streams, after asserting that nothing crashed."""
    out = done.stdout + done.stderr
    assert "Traceback" not in out and "this is a bug" not in out, out
    return out


@pytest.mark.slow  # 6 s of whole programs: the README's command stays quick
def test_a_non_finite_number_is_an_error_at_its_line_in_every_command(tmp_path: Path) -> None:
    bad = task_file(tmp_path, "bad", "timeout_seconds: .nan\n")
    where = f"{bad}:6:18: error: `timeout_seconds` of the task is .nan; it should be a finite " \
            "number"
    implied = phoneshell("implications", str(tmp_path))
    assert implied.returncode == 2 and where in clean(implied)
    save_evidence(evidence(El(label="General")), tmp_path / "ev")
    graded = phoneshell("grade", str(tmp_path / "ev"), "--task", str(bad))
    assert graded.returncode == 2 and where in clean(graded)
    swapped = phoneshell("swap", "bad", "bad", "--tasks", str(tmp_path), "--runs",
                         str(tmp_path / "runs"))
    assert swapped.returncode == 2 and where in clean(swapped)
    spellings = (".inf", "-.inf", ".NaN", "1.0e+400")  # the last overflows to inf
    files = [task_file(tmp_path, f"t{n}", f"timeout_seconds: {value}\n")
             for n, value in enumerate(spellings)]
    checked = phoneshell("check-tasks", str(bad), *map(str, files))
    out = clean(checked)
    assert checked.returncode == 1 and where in out
    for path, value in zip(files, spellings, strict=True):
        assert f"{path}:6:18: error: `timeout_seconds` of the task is {value}; it should be a " \
               "finite number" in out


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_broken_file_is_left_out_and_the_other_tasks_still_run(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    shutil.copy(ROOT / "environments" / "settings.about.reach.yaml", tasks)
    task_file(tasks, "broken", "timeout_seconds: .nan\n")
    done = phoneshell("run", str(tasks), "--task", "settings.about.reach", "--runs",
                      str(tmp_path / "runs"), "--run-id", "R")
    out = clean(done)
    assert done.returncode == 1, out  # every attempt passed, but a file was left out
    assert f"{tasks / 'broken.yaml'}:6:18: error: `timeout_seconds`" in done.stdout
    assert "[1/1] settings.about.reach" in done.stdout and "passed" in done.stdout
    assert f"left out 1 task file(s) with errors (listed above): {tasks / 'broken.yaml'}" in \
        done.stdout
    rows = (tmp_path / "runs" / "R" / "results.jsonl").read_text().splitlines()
    assert [json.loads(r)["outcome"] for r in rows] == ["passed"]
    # grading by id finds the good task although the folder holds a broken file
    ev = tmp_path / "runs" / "R" / "attempts" / "settings.about.reach" / "1" / "evidence"
    graded = phoneshell("grade", str(ev), "--task", "settings.about.reach", "--tasks", str(tasks))
    assert graded.returncode == 0, clean(graded)


def test_deep_nesting_is_refused_where_it_starts(tmp_path: Path) -> None:
    flow = tmp_path / "flow.yaml"
    flow.write_text("id: flow\nname: F\ninstruction: i\nchecks: " + "[" * 100_000 + "]" * 100_000)
    block = tmp_path / "block.yaml"
    block.write_text("id: block\nname: B\ninstruction: i\nchecks:\n"
                     + "".join(" " * i + "- \n" for i in range(300)))
    done = phoneshell("check-tasks", str(flow), str(block))
    out = clean(done)
    assert done.returncode == 1
    assert f"{flow}:4:58: error: not valid YAML: nested more than 50 levels deep" in out
    assert f"{block}:54:50: error: not valid YAML: nested more than 50 levels deep" in out


def test_ids_are_checked_as_folder_names_and_size_is_bounded(tmp_path: Path) -> None:
    long_id = task_file(tmp_path, "a" * 300, name="long.yaml")
    newline = tmp_path / "newline.yaml"
    newline.write_text('id: "abc\\n"\n' + GOOD.format(id="abc"))
    big = task_file(tmp_path, "big", "notes: " + "x" * (2 * 1024 * 1024) + "\n")
    started = time.monotonic()
    done = phoneshell("check-tasks", str(long_id), str(newline), str(big))
    out = clean(done)
    assert done.returncode == 1 and time.monotonic() - started < 30
    assert f"{long_id}:1:5: error: task id is 300 characters long; the limit is 100" in out
    assert f"{newline}:1:5: error: task id 'abc\\n' should use letters, digits" in out
    assert f"{big}: error: cannot read the task file: 2,097," in out
    assert "is over the limit of 1,048,576" in out


@pytest.mark.slow  # 2.5 s measured: the README's command stays quick
def test_a_catastrophic_regex_fails_its_check_instead_of_hanging(tmp_path: Path) -> None:
    # `type: TextField`: what was typed into the field counts only when the check asks for it
    task = task_file(tmp_path, "typed", "  - {kind: regex_on_screen, text: '(a+)+$', "
                                        "type: TextField}\n"
                                        "  - {kind: regex_on_screen, text: '(a|a)+$', "
                                        "type: TextField}\n")
    save_evidence(evidence(El(type="TextField", value="a" * 34 + "!")), tmp_path / "ev")
    done = phoneshell("grade", str(tmp_path / "ev"), "--task", str(task), timeout=60)
    clean(done)
    assert done.returncode == 1
    assert "FAIL  regex_on_screen '(a+)+$' in a TextField: /(a+)+$/ matched nothing" in done.stdout
    assert ("FAIL  regex_on_screen '(a|a)+$' in a TextField: /(a|a)+$/: the search took over 1s "
            "(at the value "
            "of TextField") in done.stdout


def test_a_fifo_as_page_source_is_refused_not_waited_on(tmp_path: Path) -> None:
    task = task_file(tmp_path, "t")
    save_evidence(evidence(El(label="General")), tmp_path / "ev")
    final = tmp_path / "ev" / "sources" / "00-final.xml"
    final.unlink()
    os.mkfifo(final)
    done = phoneshell("grade", str(tmp_path / "ev"), "--task", str(task), timeout=60)
    assert done.returncode == 2
    assert f"error: {final}: not a regular file" in clean(done)


def test_a_repeat_beyond_what_a_run_plans_is_refused_before_anything_runs(tmp_path: Path) -> None:
    """Red team 102: `--repeat 100000000` planned its attempts for 32 s, 2.6 GB, printing
    nothing, and left a run folder that `report` then read for minutes."""
    started = time.monotonic()
    done = phoneshell("run", "environments", "--task", "notes.search", "--repeat", "100000000",
                      "--runs", str(tmp_path))
    assert done.returncode == 2
    assert "100,000,000 attempts per task is more than a run plans (10,000 at most)" \
        in clean(done)
    assert time.monotonic() - started < 30 and not any(tmp_path.iterdir())
