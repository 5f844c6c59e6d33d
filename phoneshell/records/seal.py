"""The seal of a run: digests of its files, kept in run.json and signed (docs/security.md).

Append-only logs (audit.jsonl, results.jsonl) are sealed as a hash chain over their lines, so a
verifier can say which line first differs and whether lines were added after sealing; other
files by their sha256. The chain rule lives here because two writers keep it as they write (the
bridge for the audit log, the runner for results) and one verifier recomputes it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import ClassVar, Literal

from phoneshell.records.base import Part, Record

CHAIN_START = hashlib.sha256(b"phoneshell chain v1").hexdigest()
"""The chain head of an empty log."""
SandboxKind = Literal["bwrap", "sandbox-exec", "none", "unavailable", "in-process"]
"""How agents of a run were confined: `bwrap` (Linux), `sandbox-exec` (macOS), `none` (asked
for), `unavailable` (asked for, but nothing on this machine can), `in-process` (the agent is
harness code with no shell, e.g. `solution` or `openai:`)."""
TAMPER_PROOF: frozenset[SandboxKind] = frozenset({"bwrap", "sandbox-exec", "in-process"})
"""With these, an agent can neither reach the run folder nor the signing key."""


def chain_step(head: str, line: bytes) -> str:
    """The next chain head after one line (its bytes, without the newline)."""
    return _step(head, hashlib.sha256(line).digest())


def _step(head: str, line_digest: bytes) -> str:
    return hashlib.sha256(bytes.fromhex(head) + line_digest).hexdigest()


def chain_of_chunks(chunks: Iterable[bytes], upto: int) -> tuple[tuple[str, int, int], int, int]:
    """`chain_of` the first `upto` bytes of a file read in `chunks`, holding one chunk at a
    time, never the file; and how many bytes, and newlines, follow those `upto` bytes."""
    head, lines, end, pos = CHAIN_START, 0, 0, 0
    line = hashlib.sha256()
    after_bytes = after_lines = 0
    for chunk in chunks:
        inside, outside = chunk[:max(0, upto - pos)], chunk[max(0, upto - pos):]
        start = 0
        while (newline := inside.find(b"\n", start)) >= 0:
            line.update(inside[start:newline])
            head, lines, end = _step(head, line.digest()), lines + 1, pos + newline + 1
            line, start = hashlib.sha256(), newline + 1
        line.update(inside[start:])
        after_bytes, after_lines = after_bytes + len(outside), after_lines + outside.count(b"\n")
        pos += len(chunk)
    return (head, lines, end), after_bytes, after_lines


def chain_of(data: bytes) -> tuple[str, int, int]:
    """The chain head, line count and byte count of the complete lines in `data` (a torn
    last line, with no newline yet, is not part of it)."""
    head, lines = CHAIN_START, 0
    body, newline, _ = data.rpartition(b"\n")
    if not newline:
        return head, 0, 0
    for line in body.split(b"\n"):
        head = chain_step(head, line)
        lines += 1
    return head, lines, len(body) + 1


class LogSeal(Part):
    """An append-only log as sealed: its first `bytes` bytes hold `lines` lines chaining to
    `chain`."""

    path: str
    """The file, relative to the run folder."""
    lines: int
    """Lines sealed."""
    bytes: int
    """Bytes sealed (lines written later follow them)."""
    chain: str
    """The chain head after the last sealed line."""


class FileSeal(Part):
    """A file as sealed."""

    path: str
    """The file, relative to the run folder."""
    sha256: str
    """The sha256 of its bytes."""


class Seal(Part):
    """What run.json vouches for, signed with a key kept outside the run folder."""

    sealed_at: float
    """Unix time of the last sealing (after each attempt, and at the end of the run)."""
    key_id: str
    """The first 16 hex digits of the key's own sha256: which key signed it."""
    logs: tuple[LogSeal, ...]
    """audit.jsonl and results.jsonl; trajectory.jsonl too when the run kept the agent's
    screens (each frame sealed by the sha256 its line holds)."""
    files: tuple[FileSeal, ...]
    """Every attempt's evidence files and verdict, sorted by path."""
    sequence: int = 0
    """Which seal of the run this is: 1 for its first, one more for each after (each attempt,
    the end of the run, what a resume set aside); 0 for a run sealed before seals were numbered.
    The machine that seals a run keeps its latest (`LatestSeal`): an earlier seal put back (a
    folder rolled back) or another of the same number (a copy sealed on apart) is refused."""
    signature: str = ""
    """HMAC-SHA256 of run.json with this field empty (hex)."""


class LatestSeal(Record):
    """The latest seal this machine made of one run, kept outside every run folder, beside the
    signing key (`<key file>.latest/`): a seal proves a state of the run is authentic, this
    which state is the latest. Kept twice, per run (its id, start time and the key) and per
    folder (the key and the run folder's absolute and real paths), so a folder whose run.json
    was put back unsealed or replaced is still found; written after run.json at each seal, with
    the key's read bits."""

    VERSION: ClassVar[int] = 1
    version: int = 1
    """Format version (1)."""
    run_id: str
    """The run's id."""
    started_at: float
    """When the run began (run.json's): with the id and the key, which run this is."""
    sequence: int
    """The number of the latest seal made (run.json's `seal.sequence`)."""
    signature: str
    """That seal's signature: which state of the run it sealed."""
    sealed_at: float
    """Unix time it was made."""
    folder: str
    """The run folder it was written into."""
    forked: tuple[str, ...] = ()
    """How copies of the run were found sealed apart (a seal made from one that was not the
    latest): once a run forked, no copy of it verifies here."""
