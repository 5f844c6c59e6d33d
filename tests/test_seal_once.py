"""The seal and resume paths do each piece of work once: the key's mode is read once a seal,
and a resume checks once that its folder holds the run's latest seal (the refusals themselves
are tested in test_seal_latest.py and test_seal_folder.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_seal import row, sealed_run

from phoneshell.seal import key_path


def test_a_seal_reads_the_key_s_mode_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run, sealer, manifest = sealed_run(tmp_path)
    key, real_stat, seen = str(key_path()), os.stat, []

    def stat(path: object, *args: object, **kwargs: object) -> os.stat_result:
        if os.fspath(path) == key:  # type: ignore[arg-type]
            seen.append(path)
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", stat)  # the os call counted, never replaced
    line = row("t", 2)
    with (run / "results.jsonl").open("a") as out:
        out.write(line.to_json() + "\n")
    sealer.add_result(line)
    assert sealer.seal(manifest).seal is not None
    assert len(seen) == 1
