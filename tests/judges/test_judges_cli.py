"""`phoneshell judgeset` and `phoneshell judge` as a user runs them: exit codes, the lines that
matter, and bad input named with a hint."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import run_cli
from judges.judges_rig import Made

from phoneshell.cli import main

phoneshell = run_cli


@pytest.mark.slow  # 3.8 s measured: the README's command stays quick
def test_judgeset_prints_its_counts_by_label_type(made: Made, tmp_path: Path) -> None:
    done = phoneshell("judgeset", "--out", str(tmp_path / "set"), "--run",
                      str(made.runs / "SOL"), "--run", str(made.runs / "NUL"), "--swap",
                      str(made.swap), "--attack", str(made.attack), "--tasks", str(made.tasks))
    assert done.returncode == 0, done.stderr
    lines = [line.split() for line in done.stdout.splitlines()]
    assert ["positive", "2"] in lines and ["failed", "2"] in lines
    assert ["swapped", "1"] in lines and ["attack", "2"] in lines
    assert ["attack:open-app", "2"] in lines
    again = phoneshell("judgeset", "--out", str(tmp_path / "set"), "--run",
                       str(made.runs / "NUL"), "--format", "json")
    assert again.returncode == 0 and json.loads(again.stdout)["counts"] == {"failed": 2}


def test_bad_input_is_named_with_a_hint(made: Made, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    cases = [
        (["judgeset", "--out", str(tmp_path / "a"), "--run", str(tmp_path)],
         f"error: --run {tmp_path}: {tmp_path} is not a run folder"),
        (["judgeset", "--out", str(tmp_path / "b")], "error: nothing to build from"),
        (["judge", str(tmp_path), "--judge", "command:true"],
         f"error: {tmp_path} is not a judgeset"),
        (["judge", str(made.judgeset.folder), "--judge", "comand:true"],
         "error: unknown judge 'comand'; did you mean 'command'?"),
        (["judge", str(made.judgeset.folder), "--judge", "command:true", "--frames", "0"],
         "error: --frames must be at least 1"),
    ]
    for args, message in cases:  # in process: main() is what the console script runs
        code = main(args)
        out, err = capsys.readouterr()
        assert (code, out) == (2, ""), (args, err)
        assert message in err and "Traceback" not in err and "hint:" in err, err
