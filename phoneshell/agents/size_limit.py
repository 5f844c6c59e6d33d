"""The rig's file-size limit (`ulimit -f`, a CI's or batch system's RLIMIT_FSIZE), read once a
process, and what it leaves the files whose size an agent drives. Never writes a file.

A write past the limit fails with EFBIG, which is the rig's (the run stops, the attempt not
scored: `runner.unwritten`). A file an agent decides the size of must never be the one that
meets it, or a failing agent turns its attempt into "not scored" and stops the run, on every
`--resume` (red team 137: 6 MB printed under a 4 MiB limit). So each such copy the harness keeps
(its stdout and stderr, its turn's share of the audit log) is kept under `under_limit` of its
own cap, a quarter of the limit at most, and a run does not start under `FILE_LIMIT_LEAST`
(`refuse_small_limit`), which the harness's own files need.
"""

from __future__ import annotations

import functools
import resource

from phoneshell.errors import RunError

FILE_LIMIT_LEAST = 1 << 20
"""The least file-size limit a run starts under (1 MiB): its own files on the simulated iPhone
(a page source or a screenshot about 70 KB, the audit log about 25 KB an attempt) with room to
spare, and a quarter of it left for each copy an agent drives."""
LIMIT_SHARE = 4
"""Each file whose size an agent drives is kept to at most this fraction of the limit."""


@functools.cache
def file_size_limit() -> int | None:
    """The largest file this process may write, in bytes (None: no limit); read once, at the
    run's start (`refuse_small_limit`), and the same for every copy after."""
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return None if soft == resource.RLIM_INFINITY else soft


def under_limit(cap: int) -> int:
    """`cap`, or a quarter of the file-size limit where that is smaller: what a copy an agent
    drives the size of may take, so that it never meets the limit."""
    limit = file_size_limit()
    return cap if limit is None else max(0, min(cap, limit // LIMIT_SHARE))


def limit_text(size: int) -> str:
    """A size in bytes as the messages name it: `4 MiB`, else `1,536 KiB`, else `700 bytes`."""
    if size and size % (1 << 20) == 0:
        return f"{size >> 20:,} MiB"
    if size and size % 1024 == 0:
        return f"{size >> 10:,} KiB"
    return f"{size:,} bytes"


def refuse_small_limit() -> None:
    """Refuse a run the file-size limit is too small for, before any phone is touched.

    Raises:
        RunError: the limit is under `FILE_LIMIT_LEAST`.
    """
    limit = file_size_limit()
    if limit is not None and limit < FILE_LIMIT_LEAST:
        raise RunError(
            f"the file-size limit (`ulimit -f`, RLIMIT_FSIZE) is {limit_text(limit)}; a run "
            f"needs at least {limit_text(FILE_LIMIT_LEAST)} for its own files",
            hint=f"raise it (`ulimit -f {FILE_LIMIT_LEAST >> 10}` or more, in KiB; "
                 "`ulimit -f unlimited`) and run again")


__all__ = ["FILE_LIMIT_LEAST", "LIMIT_SHARE", "file_size_limit", "limit_text",
           "refuse_small_limit", "under_limit"]
