"""A confined judge never sees the runs its judgeset was built from, wherever it is judged from
and wherever the set and its runs went (red team 46: a set built with `--run runs/REF` and
judged from the folder above, that folder shared, let a judge read every attempt's verdict.json
and score 100%); a source found nowhere is refused; a judge's output is kept as an agent's is,
the first and last 4 MiB, however much it prints. All through the CLI, under bubblewrap."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli
from judges.judges_rig import Made

from phoneshell.agents.sandbox import Sandbox
from phoneshell.judges.command import OUTPUT_KEPT
from phoneshell.records import JudgeRun, read_record

HUNTER = textwrap.dedent(r"""
    import json, os, sys
    json.load(sys.stdin)
    found = []
    for top, folders, files in os.walk(sys.argv[1]):
        found += [os.path.join(top, f) for f in files
                  if f in ("verdict.json", "results.jsonl", "labels.jsonl")]
    print(json.dumps({"success": True, "reasoning": "saw " + " ".join(sorted(found)[:3])
                                                     if found else "saw nothing"}))
""")


@pytest.fixture
def work(made: Made, tmp_path: Path) -> Path:
    """A project folder holding two runs, and a judgeset built there from `runs/SOL` and
    `runs/NUL` as given (relative), by the CLI."""
    folder = tmp_path / "work"
    for run in ("SOL", "NUL"):
        shutil.copytree(made.runs / run, folder / "runs" / run)
    done = run_cli("judgeset", "--out", "JS", "--run", "runs/SOL", "--run", "runs/NUL",
                   cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder


def judge(judgeset: Path, out: Path, share: Path, cwd: Path,
          spec: str | None = None) -> subprocess.CompletedProcess[str]:
    hunter = cwd / "hunter.py"
    hunter.write_text(HUNTER)
    return run_cli("judge", str(judgeset), "--judge",
                   spec or f"command:{sys.executable} {hunter} {share}", "--out", str(out),
                   cwd=cwd, env={"PHONESHELL_SANDBOX_SHARE": str(share)})


def seen(out: Path) -> set[str]:
    return {json.loads(p.read_text())["reasoning"] for p in (out / "results").glob("*.json")}


@pytest.mark.slow  # 2.4 s measured: the README's command stays quick
def test_sources_are_recorded_absolute_and_hidden_judged_from_elsewhere(
        bwrap: Sandbox, work: Path, tmp_path: Path) -> None:
    sources = json.loads((work / "JS" / "judgeset.json").read_text())["sources"]
    assert [s["path"] for s in sources] == [str(work / "runs" / r) for r in ("SOL", "NUL")]
    done = judge(Path("work/JS"), tmp_path / "J", work, tmp_path)  # from the folder above
    assert done.returncode in (0, 1), done.stderr  # 1: the judge was wrong on some item
    assert seen(tmp_path / "J") == {"saw nothing"}
    assert read_record(tmp_path / "J" / "judge.json", JudgeRun).sandbox == "bwrap"


@pytest.mark.slow  # 2.5 s measured: the README's command stays quick
def test_an_older_judgeset_with_relative_sources_is_read_beside_itself(
        bwrap: Sandbox, work: Path, tmp_path: Path) -> None:
    manifest = work / "JS" / "judgeset.json"
    plain = json.loads(manifest.read_text())
    for source in plain["sources"]:
        source["path"] = str(Path(source["path"]).relative_to(work))  # as built before
        del source["agent"]  # and before its runs' attempts were recorded
    del plain["scored_attempts"]
    manifest.write_text(json.dumps(plain))
    done = judge(Path("work/JS"), tmp_path / "J", work, tmp_path)
    assert done.returncode in (0, 1), done.stderr  # 1: the judge was wrong on some item
    assert seen(tmp_path / "J") == {"saw nothing"}


@pytest.mark.slow  # 2.5 s measured: the README's command stays quick
def test_a_judgeset_copied_with_its_runs_hides_the_copies(
        bwrap: Sandbox, work: Path, tmp_path: Path) -> None:
    copy = tmp_path / "elsewhere" / "copy"
    shutil.copytree(work, copy)
    done = judge(copy / "JS", tmp_path / "J", copy, tmp_path)
    assert done.returncode in (0, 1), done.stderr  # 1: the judge was wrong on some item
    assert seen(tmp_path / "J") == {"saw nothing"}


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_source_found_nowhere_is_refused_confined(
        bwrap: Sandbox, work: Path, tmp_path: Path) -> None:
    moved = tmp_path / "moved"
    (work / "runs").rename(moved)  # the runs went somewhere the set cannot know
    done = judge(work / "JS", tmp_path / "J", tmp_path, tmp_path)
    assert done.returncode != 0
    assert f"was built from run {work / 'runs' / 'SOL'}, which is not there" in done.stderr
    assert not (tmp_path / "J").exists()
    unconfined = run_cli("judge", str(work / "JS"), "--judge", "command:echo '{}'", "--out",
                         str(tmp_path / "U"), "--sandbox", "none", cwd=tmp_path)
    assert "not tamper-proof" in unconfined.stdout, unconfined.stderr  # judged, marked


@pytest.mark.slow  # 1.6 s measured: the README's command stays quick
def test_a_share_inside_a_source_is_refused(bwrap: Sandbox, work: Path,
                                            tmp_path: Path) -> None:
    done = judge(work / "JS", tmp_path / "J", work / "runs" / "SOL" / "attempts", tmp_path)
    assert done.returncode != 0
    assert (f"PHONESHELL_SANDBOX_SHARE names {work / 'runs' / 'SOL' / 'attempts'}, which lies "
            f"inside {work / 'runs' / 'SOL'}") in done.stderr


FLOOD_BYTES = 300 << 20
MEASURED = textwrap.dedent("""
    import resource, subprocess, sys
    done = subprocess.run(sys.argv[1:], capture_output=True)
    sys.stdout.write(f"{done.returncode} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}")
""")


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_judge_that_floods_its_stdout_is_kept_to_its_bound(
        bwrap: Sandbox, made: Made, tmp_path: Path) -> None:
    """300 MiB an item: the harness keeps 8 MiB of it, and still reads the answer at its end."""
    spec = f"command:head -c {FLOOD_BYTES} /dev/zero; echo; echo '{{\"success\": true}}'"
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, sys.executable, "-m", "phoneshell", "judge",
         str(made.judgeset.folder), "--judge", spec, "--out", str(tmp_path / "J")],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    code, peak_kib = map(int, done.stdout.split())
    assert code in (0, 1), done.stderr
    print(f"peak RSS {peak_kib >> 10} MiB")
    assert peak_kib < 200 << 10, f"the harness grew to {peak_kib >> 10} MiB"
    answers = [json.loads(p.read_text()) for p in (tmp_path / "J" / "results").glob("*.json")]
    assert answers and all(a["status"] == "ok" and a["success"] for a in answers)
    raw = json.loads(next((tmp_path / "J" / "raw").glob("*.json")).read_text())
    assert raw["stdout"].endswith('{"success": true}\n') and len(raw["stdout"]) <= OUTPUT_KEPT
