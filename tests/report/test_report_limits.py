"""A record too big, or unreadable, costs only its own run: a report (text, JSON, HTML), a grade
or a judgeset of it beside other runs names it, with the file and its size, and reports the
rest, never a traceback. The run folders are older runs', written directly and sealed again,
as a bridge that did not bound its lines left them."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pytest
from report.report_rig import phoneshell

from phoneshell.records import (
    MAX_LINE_BYTES,
    MAX_RECORD_BYTES,
    AuditEvent,
    RunManifest,
    Target,
    chain_of,
    read_record,
)
from phoneshell.runner.folder import read_results
from phoneshell.seal import Sealer, load_key, sealed_files, verify_run


def reseal(run: Path) -> None:
    """Seal a run folder again as it now is (what the runner would have sealed)."""
    audit, results = (run / "audit.jsonl").read_bytes(), (run / "results.jsonl").read_bytes()
    sealer = Sealer(run, load_key(), lambda: chain_of(audit), chain_of(results))
    for folder in sorted({p.parent.parent if p.parent.name == "evidence" else p.parent
                          for p in (run / "attempts").rglob("*") if p.is_file()}):
        if sealed_files(folder):
            sealer.add_attempt(folder)
    sealer.seal(read_record(run / "run.json", RunManifest))
    assert verify_run(run) == []


def old_run(runs: dict[str, Path], tmp_path: Path) -> Path:
    """The solution run, as if its first attempt's agent had typed a note of 900,000
    characters, 75 times over, and once more to 2 MiB: every line holding the note whole, as
    the bridge wrote them before its lines were bounded (67 MB in all; the first 38 of them in
    the attempt's evidence too, 34 MB)."""
    run = tmp_path / "OLD"
    shutil.copytree(runs["SOL"], run)
    row = read_results(run / "results.jsonl")[0]
    template = AuditEvent(run_id="SOL", task_id=row.task_id, attempt=1, phase="agent", seq=0,
                          t=row.started_at + 1, kind="type", stage="intent",
                          params={"text": "x" * 1000})
    with (run / "audit.jsonl").open("ab") as log, \
            (run / row.evidence / "audit.jsonl").open("ab") as evidence:
        for n, length in enumerate([900_000] * 75 + [2 * MAX_LINE_BYTES], start=10_000):
            note = Target(type="XCUIElementTypeTextView", label="Note", value="x" * length)
            line = template.model_copy(update={"seq": n, "target": note}).to_json().encode()
            log.write(line + b"\n")
            if n < 10_038:
                evidence.write(line + b"\n")
    assert (run / "audit.jsonl").stat().st_size > MAX_RECORD_BYTES
    reseal(run)
    return run


# Not slow: it reseals a copy of the session's SOL run under SOL's id, which moves this
# machine's latest seal of SOL past the copy the slow stage's unreadable-run test reports; in
# one session with it, that report refuses SOL as rolled back. The README's stage keeps it apart.
def test_an_older_run_with_a_log_too_big_to_hold_is_reported_with_the_rest(
        runs: dict[str, Path], tmp_path: Path) -> None:
    run = old_run(runs, tmp_path)
    done = phoneshell("report", str(runs["NUL"]), str(run), "--html", str(tmp_path / "r.html"))
    assert done.returncode == 1, done.stderr
    assert "null @ NUL" in done.stdout and "solution @ SOL" in done.stdout
    assert "passed 8/8 = 100.0% of scored" in done.stdout
    assert re.search(f"warning: {re.escape(str(run / 'audit.jsonl'))} line [0-9]+: "
                     r"2,0[0-9,]+ bytes is over the limit of 1,048,576 for one line; not read; "
                     "timelines may miss actions", done.stdout), done.stdout
    page = (tmp_path / "r.html").read_text()
    assert "x" * 1000 not in page  # the 75 lines it could read, in the attempt's timeline:
    assert page.count("<td>agent</td><td>type</td><td>text=xxx") == 75
    evidence = run / read_results(run / "results.jsonl")[0].evidence
    said = (f"{evidence / 'audit.jsonl'}: {(evidence / 'audit.jsonl').stat().st_size:,} bytes "
            "is over the limit of 33,554,432 for a record file: this attempt's evidence cannot "
            "be read")
    assert said in html.unescape(page)  # where its screenshot would be
    graded = phoneshell("grade", str(evidence), "--task", "calculator.chain", "--tasks",
                        str(runs["SOL"].parent.parent / "tasks"))
    assert graded.returncode == 2 and graded.stderr.startswith(f"error: {said}\nhint: an "
                                                               "attempt's slice of the audit")


def big_results(runs: dict[str, Path], tmp_path: Path) -> Path:
    """The null run, its results.jsonl grown past what a reader holds (by a blank line: the
    rows are still the run's), sealed again."""
    run = tmp_path / "BIG"
    shutil.copytree(runs["NUL"], run)
    with (run / "results.jsonl").open("ab") as results:
        results.write(b" " * MAX_RECORD_BYTES + b"\n")
    reseal(run)
    return run


@pytest.mark.slow  # a whole program of about ten seconds: CI runs it
def test_a_run_that_cannot_be_read_is_named_and_the_others_reported(
        runs: dict[str, Path], tmp_path: Path) -> None:
    run = big_results(runs, tmp_path)
    size = (run / "results.jsonl").stat().st_size
    said = f"{run / 'results.jsonl'}: {size:,} bytes is over the limit of 67,108,864"
    done = phoneshell("report", str(runs["SOL"]), str(run))
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith(f"{run}  UNREADABLE, not counted: {said}")
    assert "passed 8/8 = 100.0% of scored" in done.stdout and "Traceback" not in done.stderr
    document = json.loads(phoneshell("report", str(runs["SOL"]), str(run), "--format",
                                     "json").stdout)
    assert [a["run_id"] for a in document["agents"]] == ["SOL"]
    assert document["unreadable"] == [{"run_dir": str(run),
                                       "error": said + " for a record file"}]
    alone = phoneshell("report", str(run))
    assert alone.returncode == 2 and alone.stderr.startswith(f"error: {said}")
    built = phoneshell("judgeset", "--out", str(tmp_path / "set"), "--run", str(runs["SOL"]),
                       "--run", str(run))
    assert built.returncode == 0, built.stderr
    assert f"--run {run} cannot be read, and gives no item: {said}" in built.stdout + \
        built.stderr
    alone_set = phoneshell("judgeset", "--out", str(tmp_path / "sol"), "--run",
                           str(runs["SOL"]))
    assert alone_set.returncode == 0, alone_set.stderr
    labels = (tmp_path / "set" / "labels.jsonl").read_text().splitlines()
    assert len(labels) == len((tmp_path / "sol" / "labels.jsonl").read_text().splitlines()) > 0
