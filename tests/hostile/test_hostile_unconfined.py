"""An unconfined (`--sandbox none`) agent is the user the harness runs as: it can read the signing
key, rewrite any file of the run and re-seal it. The CLI plays two such agents on the simulated
iPhone: one that leaves a process in a session of its own (a double fork) to rewrite its failed
row as passed once the run has recorded it and again once the run is over; one that rewrites an
earlier attempt's row and verdict during its own turn and re-seals the run as sandboxed. Neither
changes what `report` says: failed, and not tamper-proof."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from phoneshell.agents import pidns
from phoneshell.records import Verdict, read_record
from phoneshell.runner.folder import read_results

ROOT = Path(__file__).resolve().parents[2]
TASK = ("--task", "settings.about.reach")

AGENT = r'''
"""Claims done without touching the phone; forges the run's record, as asked by argv[1]."""
import json, os, subprocess, sys, time
from pathlib import Path

def forge(run_dir):
    """Every row and verdict passed, run.json sandboxed by bwrap, all re-sealed with the key."""
    from phoneshell.records import (FileSeal, ResultRow, RunManifest, Verdict, chain_of,
                                    read_record, write_record)
    from phoneshell.seal import _sha256, _signature, load_key, sealed_files
    res = run_dir / "results.jsonl"
    rows = [ResultRow.model_validate_json(l) for l in res.read_text().splitlines() if l]
    if not rows:
        return False
    fixed = []
    for r in rows:
        checks = tuple(c.model_copy(update={"passed": True}) for c in r.checks)
        fixed.append(r.model_copy(update={"outcome": "passed", "passed": True,
                                          "checks": checks, "error": ""}))
        vpath = run_dir / "attempts" / r.task_id / str(r.attempt) / "verdict.json"
        if vpath.is_file():
            v = read_record(vpath, Verdict)
            write_record(vpath, v.model_copy(update={"passed": True, "results": checks}))
    data = b"".join(r.to_json().encode() + b"\n" for r in fixed)
    res.write_bytes(data)
    m = read_record(run_dir / "run.json", RunManifest)
    files = {p.relative_to(run_dir).as_posix(): _sha256(p)
             for folder in (run_dir / "attempts").glob("*/*") for p in sealed_files(folder)}
    head, lines, end = chain_of(data)
    logs = tuple(l.model_copy(update={"chain": head, "lines": lines, "bytes": end})
                 if l.path == "results.jsonl" else l for l in m.seal.logs)
    m = m.model_copy(update={"sandbox": "bwrap", "sandbox_note": "", "seal": m.seal.model_copy(
        update={"logs": logs, "files": tuple(FileSeal(path=p, sha256=d)
                                             for p, d in sorted(files.items())),
                "signature": ""})})
    m = m.model_copy(update={"seal": m.seal.model_copy(
        update={"signature": _signature(m, load_key())})})
    write_record(run_dir / "run.json", m)
    return True

scratch = Path(os.environ["PHONESHELL_ATTEMPT_DIR"]).resolve()
run_dir = scratch.parents[3]
notes = Path(sys.argv[2])
if sys.argv[1] == "leave" and os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        (notes / "stray.pid").write_text(os.readlink("/proc/self"))  # its pid outside
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            after = (notes / "after_run").exists()
            try:
                forged = forge(run_dir)
            except Exception:  # the run is writing it: try again
                forged = False
            if forged:
                (notes / ("tampered-after-run" if after else "tampered-during-run")).touch()
                if after:
                    break
            time.sleep(0.05)
    os._exit(0)
if sys.argv[1] == "earlier" and scratch.parent.name == "2":
    (notes / "forged-earlier").write_text(str(forge(run_dir)))
subprocess.call([sys.executable, "-m", "phoneshell", "finish", "--status", "done",
                 "--summary", "did it"])
'''


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """`phoneshell ARGS` as a user runs it, from the checkout."""
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=600)


def play(tmp_path: Path, mode: str, *more: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    """The CLI's run of the forging agent in `mode`, unconfined; its output, and the run."""
    program, notes = tmp_path / "agent.py", tmp_path / "notes"
    program.write_text(AGENT)
    notes.mkdir()
    done = run_cli("run", "environments", *TASK, *more, "--agent",
                   f"command:{sys.executable} {program} {mode} {notes}", "--runs",
                   str(tmp_path / "runs"), "--run-id", "U", "--sandbox", "none")
    return done, tmp_path / "runs" / "U"


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in "ZX"


def reported(run: Path) -> str:
    shown = run_cli("report", str(run))
    assert "does not match" not in shown.stderr, shown.stderr
    return shown.stdout + shown.stderr


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_process_left_in_a_session_of_its_own_dies_with_the_turn(tmp_path: Path) -> None:
    done, run = play(tmp_path, "leave")
    notes = tmp_path / "notes"
    assert done.returncode == 1, done.stdout + done.stderr
    pid = int((notes / "stray.pid").read_text())
    assert not alive(pid), "the turn is over, and the run too: nothing it started may run on"
    (row,) = read_results(run / "results.jsonl")
    assert row.outcome == "failed"
    if pidns.unavailable():  # no PID namespace here: the harness's sweep found it
        assert "it left 1 process(es) running after its turn, outside its process group; " \
               f"killed: pid {pid} (" in row.error
    else:  # the kernel killed it with the agent's PID namespace
        assert "it left process(es) running in its PID namespace when its command line " \
               "ended; the kernel killed them with it" in row.error
    assert done.stdout.strip().splitlines()[-1] == (
        "this run's agents ran UNCONFINED (--sandbox none was given): they could rewrite its "
        "folder, run.json and the signing key during the run and after it; its folder is not "
        "tamper-proof, whatever a report of it says")
    (notes / "after_run").touch()
    time.sleep(1.0)  # it would have forged by now
    assert sorted(p.name for p in notes.iterdir()) == ["after_run", "stray.pid"]
    text = reported(run)
    assert "passed 0/1" in text and "its results are not tamper-proof" in text


@pytest.mark.slow  # a whole program of about ten seconds: CI runs it
def test_an_earlier_row_changed_during_a_turn_is_written_back_and_said(tmp_path: Path) -> None:
    done, run = play(tmp_path, "earlier", "--repeat", "2")
    assert (tmp_path / "notes" / "forged-earlier").read_text() == "True"  # it did, mid-turn
    said = "a file of the run was changed during an unconfined agent's turn"
    assert f"WARNING: {said}: results.jsonl (its rows were written again" in done.stdout
    assert f"WARNING: {said}: attempts/settings.about.reach/1/verdict.json (written again" \
        in done.stdout
    assert f"WARNING: {said}: run.json" in done.stdout
    rows = read_results(run / "results.jsonl")
    assert [(r.attempt, r.outcome) for r in rows] == [(1, "failed"), (2, "failed")]
    verdict = read_record(run / "attempts" / "settings.about.reach" / "1" / "verdict.json",
                          Verdict)
    assert not verdict.passed
    manifest = json.loads((run / "run.json").read_text())
    assert manifest["sandbox"] == "none" and said in manifest["sandbox_note"]
    text = reported(run)
    assert "passed 0/2" in text and "its results are not tamper-proof" in text
    assert said in text
