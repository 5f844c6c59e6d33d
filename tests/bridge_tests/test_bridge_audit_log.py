"""The audit writer: one seq per run, whole lines, continued files, mended tails, refused writes."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import wda
from bridge_rig import wait_for

from bridge.audit_log import AuditWriteError, AuditWriter, shared_writer
from bridge.context import UNSCOPED, make_context
from bridge.custody import Custody
from bridge.proxy import BridgeServer
from phoneshell.audit import Target, actions, read_audit
from phoneshell.sim import SimServer

ROOT = Path(__file__).resolve().parents[2]


def test_intent_and_outcome_share_a_seq_and_read_back(tmp_path: Path) -> None:
    writer = AuditWriter(tmp_path)
    ctx = make_context("r1", "settings.wifi", 2, "agent")
    target = Target(type="XCUIElementTypeButton", label="Wi-Fi")
    intent = writer.write_intent(ctx, "tap", {"x": 1, "y": 2}, "com.apple.Preferences", target)
    writer.write_outcome(intent, "com.apple.Preferences", True, "")
    log = read_audit(tmp_path / "r1" / "audit.jsonl")
    assert log.problems == () and log.torn == ""
    assert [(e.seq, e.stage, e.task_id, e.attempt, e.phase) for e in log.records] == [
        (1, "intent", "settings.wifi", 2, "agent"), (1, "outcome", "settings.wifi", 2, "agent")]
    (action,) = actions(log.records)
    assert action.target == target and action.ok is True and action.params == {"x": 1, "y": 2}
    writer.close()


def test_unscoped_actions_go_to_the_unscoped_run(tmp_path: Path) -> None:
    writer = AuditWriter(tmp_path)
    writer.write_intent(UNSCOPED, "home", {}, "", None)
    (event,) = read_audit(tmp_path / "unscoped" / "audit.jsonl").records
    assert (event.run_id, event.phase, event.task_id, event.attempt) == (
        "unscoped", "unscoped", "", 0)
    writer.close()


def test_seq_continues_after_the_highest_in_an_existing_file(tmp_path: Path) -> None:
    ctx = make_context("r", "t", 1, "setup")
    first = AuditWriter(tmp_path)
    for _ in range(3):
        first.write_intent(ctx, "home", {}, "", None)
    first.close()
    second = AuditWriter(tmp_path)  # a new process continuing the run (e.g. --resume)
    assert second.write_intent(ctx, "home", {}, "", None).seq == 4
    second.close()


def test_a_torn_tail_is_left_on_its_own_line(tmp_path: Path) -> None:
    ctx = make_context("r", "t", 1, "agent")
    writer = AuditWriter(tmp_path)
    writer.write_intent(ctx, "home", {}, "", None)
    writer.close()
    path = tmp_path / "r" / "audit.jsonl"
    with path.open("a") as f:
        f.write('{"v":1,"run_id":"r","seq":7,"ki')  # what a power cut mid-write can leave
    writer = AuditWriter(tmp_path)
    assert writer.write_intent(ctx, "home", {}, "", None).seq == 2
    writer.close()
    log = read_audit(path)
    assert [e.seq for e in log.records] == [1, 2] and log.torn == ""
    assert len(log.problems) == 1 and "line 2: not valid JSON" in log.problems[0]


def test_seq_is_unique_and_lines_whole_under_concurrent_writers(tmp_path: Path) -> None:
    writer = AuditWriter(tmp_path)
    ctx = make_context("r", "t", 1, "agent")
    long_text = "x" * 5000  # longer than a pipe buffer: still one write, one line

    def burst() -> None:
        for _ in range(50):
            intent = writer.write_intent(ctx, "type", {"text": long_text}, "a", None)
            writer.write_outcome(intent, "a", True, "")

    threads = [threading.Thread(target=burst) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    writer.close()
    log = read_audit(tmp_path / "r" / "audit.jsonl")
    assert log.problems == () and len(log.records) == 600
    intents = [e.seq for e in log.records if e.stage == "intent"]
    assert intents == sorted(intents) == list(range(1, 301))
    assert all(a.ok for a in actions(log.records))


def test_an_unwritable_log_refuses_and_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "r" / "audit.jsonl").mkdir(parents=True)  # a folder where the file should be
    writer = AuditWriter(tmp_path)
    with pytest.raises(AuditWriteError, match=r"r/audit\.jsonl"):
        writer.write_intent(make_context("r", "t", 1, "agent"), "home", {}, "", None)


FULL_DISK = """
import resource, signal, sys
from pathlib import Path
from bridge.audit_log import AuditWriteError, AuditWriter
from bridge.context import make_context
from phoneshell.audit import read_audit
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
folder = Path(sys.argv[1])
writer = AuditWriter(folder)
ctx = make_context("r", "t", 1, "agent")
writer.write_intent(ctx, "home", {}, "", None)
resource.setrlimit(resource.RLIMIT_FSIZE, ((folder / "r" / "audit.jsonl").stat().st_size + 40,
                                           hard))
try:
    writer.write_intent(ctx, "home", {"text": "x" * 500}, "", None)
except AuditWriteError as exc:
    print("refused:", exc.message)
resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
print("counted:", writer.unwritten("r")[0], writer.unwritten("r")[1].errno)
print("left:", repr((folder / "r" / "audit.jsonl").read_bytes()[-1:]))
print("then:", writer.write_intent(ctx, "home", {}, "", None).seq)
log = read_audit(folder / "r" / "audit.jsonl")
print("whole:", [e.seq for e in log.records], len(log.problems), repr(log.torn))
"""


def test_a_full_disk_refuses_leaves_no_torn_line_and_recovers(tmp_path: Path) -> None:
    """A file size limit (EFBIG) fails a write the way a full disk does, part of the line
    taken: the part is cut back (red team 123: the torn line kept `report` from the run),
    the system's word is said, the writer counts it for the runner, and the log goes on."""
    done = subprocess.run([sys.executable, "-c", FULL_DISK, str(tmp_path)], capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("refused: cannot write the audit log") and \
        lines[0].endswith("File too large"), lines[0]
    assert lines[1] == f"counted: 1 {errno.EFBIG}"
    assert lines[2] == "left: b'\\n'"  # nothing of the refused line
    assert lines[3] == "then: 2"
    assert lines[4] == "whole: [1, 2] 0 ''"  # no bad line between them


def test_an_audit_log_swapped_for_a_symlink_is_not_followed(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    path = tmp_path / "r" / "audit.jsonl"
    path.parent.mkdir()
    path.symlink_to(elsewhere)
    writer = AuditWriter(tmp_path)
    with pytest.raises(AuditWriteError, match="symbolic link"):
        writer.write_intent(make_context("r", "t", 1, "agent"), "home", {}, "", None)
    assert not elsewhere.exists()


def test_fsync_mode_writes_the_same_lines(tmp_path: Path) -> None:
    writer = AuditWriter(tmp_path, fsync=True)
    writer.write_intent(make_context("r", "t", 1, "agent"), "home", {}, "", None)
    writer.close()
    assert len(read_audit(tmp_path / "r" / "audit.jsonl").records) == 1


def test_bridges_of_a_process_share_one_writer_per_runs_folder(tmp_path: Path) -> None:
    first = shared_writer(tmp_path / "runs")
    assert shared_writer(tmp_path / "runs" / "." ) is first
    assert shared_writer(tmp_path / "other") is not first
    assert shared_writer(tmp_path / "runs", fsync=True).fsync and first.fsync


def open_audit_fds(folder: Path) -> int:
    """How many of this process's descriptors are open on an audit file under `folder`."""
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue  # closed since listing
        count += target.startswith(str(folder)) and target.endswith("audit.jsonl")
    return count


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc (Linux)")
def test_only_the_most_recently_written_run_files_stay_open(tmp_path: Path) -> None:
    writer = AuditWriter(tmp_path)  # the default limit: 8 descriptors
    contexts = [make_context(f"r{n}", "t", 1, "agent") for n in range(20)]
    for ctx in contexts:
        intent = writer.write_intent(ctx, "home", {}, "", None)
        writer.write_outcome(intent, "", True, "")
    assert open_audit_fds(tmp_path) == len(writer.open_runs()) == 8
    assert writer.open_runs() == tuple(f"r{n}" for n in range(12, 20))
    assert writer.write_intent(contexts[0], "home", {}, "", None).seq == 2  # reopened on demand
    assert open_audit_fds(tmp_path) == 8 and "r0" in writer.open_runs()
    writer.close()
    assert open_audit_fds(tmp_path) == 0
    for n in range(20):
        log = read_audit(tmp_path / f"r{n}" / "audit.jsonl")
        assert log.problems == () and log.torn == ""
        assert [e.seq for e in log.records] == ([1, 1, 2] if n == 0 else [1, 1])


def test_a_run_file_changed_while_closed_is_read_again(tmp_path: Path) -> None:
    writer = AuditWriter(tmp_path, max_open_files=1)
    first, other = make_context("r", "t", 1, "agent"), make_context("o", "t", 1, "agent")
    writer.write_intent(first, "home", {}, "", None)
    writer.write_intent(other, "home", {}, "", None)  # closes r's file
    assert writer.open_runs() == ("o",)
    elsewhere = AuditWriter(tmp_path)  # another process continues the run while it is closed
    assert elsewhere.write_intent(first, "home", {}, "", None).seq == 2
    elsewhere.close()
    with (tmp_path / "r" / "audit.jsonl").open("a") as f:  # and dies mid-line
        f.write('{"v":1,"run_id":"r","seq":3,"ki')
    assert writer.write_intent(first, "home", {}, "", None).seq == 3
    writer.close()
    log = read_audit(tmp_path / "r" / "audit.jsonl")
    assert [e.seq for e in log.records] == [1, 2, 3] and log.torn == ""
    assert len(log.problems) == 1  # the fragment, alone on its line


def test_lines_stay_whole_while_many_runs_share_few_descriptors(tmp_path: Path) -> None:
    writer = AuditWriter(tmp_path, max_open_files=2)
    runs = [make_context(f"r{n}", "t", 1, "agent") for n in range(6)]

    def burst(offset: int) -> None:
        for i in range(60):
            ctx = runs[(offset + i) % len(runs)]
            intent = writer.write_intent(ctx, "type", {"text": "x" * 3000}, "a", None)
            writer.write_outcome(intent, "a", True, "")

    threads = [threading.Thread(target=burst, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    writer.close()
    for n in range(6):
        log = read_audit(tmp_path / f"r{n}" / "audit.jsonl")
        assert log.problems == () and log.torn == "" and len(log.records) == 80
        intents = [e.seq for e in log.records if e.stage == "intent"]
        assert intents == list(range(1, 41))
        assert all(a.ok for a in actions(log.records))


def test_a_serving_bridge_closes_the_files_of_quiet_runs(sim: SimServer, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    writer = AuditWriter(runs, idle_close_s=0.2)
    # the simulator's custody: an agent's outcome is written at once (on a phone it waits for
    # the first read once the phone settled)
    bridge = BridgeServer(sim.url, runs_dir=runs, writer=writer,
                          custody=Custody(settle_s=0.0, screens_static=True)).start()
    try:
        bridge.set_context("quiet", "t", 1, "agent")
        client = wda.Client(bridge.url)
        client.home()
        assert writer.open_runs() == ("quiet",)
        wait_for(lambda: writer.open_runs() == (), what="the idle file to be closed")
        client.home()  # reopened on demand, seq continued
        assert [e.seq for e in read_audit(runs / "quiet" / "audit.jsonl").records] == [
            1, 1, 2, 2]
    finally:
        bridge.stop()
        writer.close()


def test_read_back_from_an_offset_names_the_lines_it_did_not_write_and_those_gone(
        tmp_path: Path) -> None:
    """`verify` reads a stretch of a run's log (an attempt's): only what lies after `start`
    counts, a line another process wrote there is named, and so is one of the writer's that a
    truncation took away, with the writer's lines after the truncation still its own."""
    writer = AuditWriter(tmp_path)
    ctx = make_context("r1", "settings.wifi", 1, "agent")
    log = tmp_path / "r1" / "audit.jsonl"

    def tap() -> None:
        intent = writer.write_intent(ctx, "tap", {"x": 1, "y": 2}, "com.apple.Preferences", None)
        writer.write_outcome(intent, "com.apple.Preferences", True, "")

    tap()
    middle = log.stat().st_size
    tap()
    whole = writer.verify("r1", 0)
    assert len(whole.events) == 4 and whole.forged == ()
    later = writer.verify("r1", middle)
    assert [e.seq for e in later.events] == [2, 2] and later.forged == ()
    with log.open("ab") as out:
        out.write(b'{"forged": true}\n')
    assert writer.verify("r1", middle).forged == (f"byte {log.stat().st_size - 17}: "
                                                  "'{\"forged\": true}'",)
    writer.close()
    os.truncate(log, middle)  # the second tap and the forged line are gone
    lost = writer.verify("r1", 0)
    assert len(lost.events) == 2 and [f.split(": ", 1)[1] for f in lost.forged] == [
        "a line the bridge wrote there is gone"] * 2, lost.forged
    tap()  # its lines after the truncation are its own, wherever they start
    after = writer.verify("r1", middle)
    assert [e.seq for e in after.events] == [3, 3], after
    assert all(f.endswith("wrote there is gone") for f in after.forged), after.forged
    writer.close()
