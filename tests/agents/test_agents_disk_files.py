"""The disk's files (inodes) are a resource as its bytes are (red team 132), on a real small disk
(a 64 MiB tmpfs with few inodes, `small_disk`) and programs confined by bubblewrap: a program
that makes the disk's last files, however few bytes, is stopped and what it made deleted; files
something else on the machine takes are never its failure; and with two phones' turns side by
side, what the harness deletes of one (its folder, stopped) is never charged to the other as
"what came back"."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from small_disk import small_disk

from phoneshell.agents import bounds
from phoneshell.agents.sandbox import Sandbox
from phoneshell.agents.turn import Turn, run_turn

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")

MAKE = """import os, sys
d = os.path.join(sys.argv[1], "many")
os.mkdir(d)
n = 0
try:
    while True:
        open(os.path.join(d, str(n)), "w").close(); n += 1
except OSError:  # no file left on the disk
    pass
print(n)
"""
"""A program that makes empty files in its folder until the disk has none left (0 bytes)."""
WAIT = ('i=0; while [ ! -e "{go}" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; '
        '{then}')
"""A program that waits for the file GO (a minute at most), then runs THEN."""


def turn(folder: Path, box: Sandbox, argv: list[str],
         started: Callable[[Path], None] = lambda scratch: None) -> Turn:
    """A program's turn with its folder `folder` (`argv` given its scratch folder last)."""
    scratch = folder / "agent"
    scratch.mkdir(parents=True)
    wrapped = box.wrap([*argv, str(scratch)], argv[0], scratch, Path.cwd())
    return run_turn(wrapped, dict(os.environ), box, scratch, (folder / "out", folder / "err"),
                    timeout_s=60, started=lambda: started(scratch))


def test_a_program_that_makes_the_disks_last_files_is_stopped_and_they_are_deleted(
        tmp_path: Path, bwrap: Sandbox) -> None:
    """3,000 inodes, fewer than its folder's 100,000: it made the disk's last, and the harness
    could not write its seal after (no row, on every resume)."""
    with small_disk(tmp_path / "disk", files=3000) as disk:
        done = turn(disk / "attempt", bwrap, [sys.executable, "-c", MAKE])
        assert "files in its folder" in done.stopped and "files free when its turn started" \
            in done.stopped, done
        assert "deleted" in done.stopped, done
        free_files = bounds.disk_free_files(disk)
        assert free_files is not None and free_files > 2900, free_files


@pytest.mark.slow  # 2.5 s measured: the README's command stays quick
def test_files_the_machine_takes_in_a_confined_turn_are_not_its_failure(
        tmp_path: Path, bwrap: Sandbox) -> None:
    """Something else on the machine makes the disk's files while the program waits: the turn
    stops unscored (`DiskShort`), as for bytes; never failed."""
    with small_disk(tmp_path / "disk", files=3000) as disk:
        def theirs(scratch: Path) -> None:
            (disk / "theirs").mkdir()
            with pytest.raises(OSError):
                for n in range(10_000):
                    (disk / "theirs" / str(n)).touch()
            (disk / "theirs" / "0").unlink()  # one for the file that lets the program go on
            (scratch / "go").write_text("")
        with pytest.raises(bounds.DiskShort, match="files"):
            turn(disk / "attempt", bwrap,
                 ["/bin/sh", "-c", WAIT.format(go="$0/go", then="true")], theirs)


def test_what_the_harness_deletes_of_one_turn_is_never_anothers(
        tmp_path: Path, bwrap: Sandbox) -> None:
    """Red team 132: phone 1's confined agent fills the disk and holds it, while phone 2's
    honest one (confined, writing nothing) ends then; phone 1 is stopped and its folder
    deleted while phone 2's disk is looked at once more. Phone 2 was not scored, or failed for
    "what came back" once its processes were gone: the harness's own deletion."""
    with small_disk(tmp_path / "disk") as disk:
        ended: list[Turn] = []
        honest = threading.Thread(target=lambda: ended.append(turn(
            disk / "two", bwrap, ["/bin/sh", "-c", WAIT.format(go="$0/go", then="true")])))
        honest.start()
        deadline = time.monotonic() + 20
        while not (disk / "two" / "agent").exists():
            assert time.monotonic() < deadline
            time.sleep(0.01)
        filled: list[Turn] = []
        filler = threading.Thread(target=lambda: filled.append(turn(
            disk / "one", bwrap, ["/bin/sh", "-c", 'dd if=/dev/zero of="$0/fill" bs=1M '
                                  'count=100 2>/dev/null; : > "$0/full"; exec sleep 30'])))
        filler.start()
        while not (disk / "one" / "agent" / "full").exists():  # an empty file: no blocks
            assert time.monotonic() < deadline
            time.sleep(0.01)
        (disk / "two" / "agent" / "go").write_text("")
        honest.join(timeout=60)
        filler.join(timeout=60)
        assert "it filled the disk" in filled[0].stopped, filled
        (done,) = ended
        assert done.code == 0 and not done.stopped, done
