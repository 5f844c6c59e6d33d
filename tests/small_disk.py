"""A real small disk for the tests of an agent that fills the disk holding the run: a tmpfs of
`SIZE_MIB` mounted for one test (it needs root, as CI has; elsewhere the test is skipped,
saying why), with what fills it from the harness's side (`ballast`)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

SIZE_MIB = 64


@contextmanager
def small_disk(where: Path, files: int | None = None) -> Iterator[Path]:
    """A tmpfs of `SIZE_MIB` MiB mounted at `where` (made), unmounted after; `files`: with
    that many inodes (the kernel's default for its size: thousands)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs these as root)")
    where.mkdir(parents=True, exist_ok=True)
    inodes = f",nr_inodes={files}" if files else ""
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={SIZE_MIB}m{inodes}",
                              "tmpfs", str(where)], capture_output=True, text=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (a container without CAP_SYS_ADMIN?): "
                    f"{mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def ballast(disk: Path, leave_bytes: int) -> None:
    """Fill `disk` from the harness's side until `leave_bytes` are free (0: full)."""
    free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
    with (disk / "ballast").open("wb") as out:
        try:
            out.write(b"\0" * max(0, free - leave_bytes))
            out.flush()
        except OSError:  # full before the last byte: what a full disk is
            pass
