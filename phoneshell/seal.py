"""Tamper evidence: seal a run's files into run.json with a key kept outside the run folder, and
verify a run before anything believes it.

The key is 32 random bytes in `$PHONESHELL_KEY_FILE`, else `$XDG_CONFIG_HOME/phoneshell/
run-signing.key`, else `~/.config/phoneshell/run-signing.key`, created (mode 0600) on first use.
An agent in the sandbox sees neither the run folder nor that file. The seal (`records.seal`)
holds the hash chain heads of audit.jsonl (as the bridge wrote it, from its memory, not from the
file) and results.jsonl (as the runner wrote it), and the sha256 of every attempt's evidence
files and verdict; run.json is then signed with HMAC-SHA256 under the key. A run that keeps
the agent's screens (`--trajectory`) has its trajectory.jsonl sealed the same way (as the
bridge wrote it), and each frame by the sha256 its line holds. The runner seals after every
attempt, so a run cut short is still verifiable up to its last attempt. Each seal is numbered,
and the latest of each run is kept beside the key (`seal_latest`): a folder rolled back to an
earlier seal, or copied and sealed on apart, is refused.

An unconfined agent can read the key during its turn; what the Sealer does about it: `kept`.

`verify_run` recomputes everything and lists what does not match; `report`, `grade`, `swap
--finish-from` and `judgeset` refuse a run with problems unless asked to show it anyway
(`--unverified`).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from phoneshell.errors import RunError
from phoneshell.kept import Kept
from phoneshell.records import (
    CHAIN_START,
    TRAJECTORY_FILE,
    FileSeal,
    LogSeal,
    RecordError,
    ResultRow,
    RunManifest,
    Seal,
    TrajectoryFrame,
    chain_of,
    chain_of_chunks,
    chain_step,
    open_regular,
    parse_lines,
    read_bytes,
    read_record,
)
from phoneshell.records.layout import ATTEMPTS, AUDIT, INCOMPLETE, MANIFEST, RESULTS, VERDICT
from phoneshell.seal_key import KEY_ENV, key_id, key_path, load_key
from phoneshell.seal_key import signature as _signature  # the name tests forge seals with
from phoneshell.seal_latest import (
    Fresh,
    Unchecked,
    numbered,
    refuse_stale,
    reseal,
    split_unchecked,
    stale,
    write_sealed,
)
from phoneshell.untrusted import named

MAX_SEALED_BYTES = 1 << 32
"""The largest file a seal is checked against whole (4 GiB); logs are checked a chunk at a time,
whatever their size."""
CHUNK_BYTES = 1 << 20

__all__ = ["KEY_ENV", "ChainState", "Fresh", "Sealer", "Unchecked", "Unsealed", "key_path",
           "load_key", "recorded_unsealed", "refuse_stale", "reseal", "sealed_files",
           "sealed_log", "signed_by", "split_unchecked", "verify_evidence", "verify_run"]


class Unsealed(str):
    """A problem of the one shape a run stopped between two seals leaves (SIGKILL, a power
    cut): whole lines past a log's sealed ones, or a file of an attempt folder no seal holds
    any file of. Still a problem (nothing vouches for it); `--resume` sets it aside. A torn
    last line, or a change inside sealed bytes, is never one."""

ChainState = Callable[[], tuple[str, int, int]]
"""Returns a log's (chain head, lines, end offset) as its writer wrote it."""


def signed_by(manifest: RunManifest, key: bytes) -> bool:
    """Whether `manifest` carries a seal signed under `key`, unchanged since."""
    seal = manifest.seal
    return seal is not None and seal.key_id == key_id(key) and hmac.compare_digest(
        seal.signature, _signature(manifest, key))


def recorded_unsealed(run_dir: Path) -> list[str]:
    """What a run folder whose run.json has no seal records all the same ([] when nothing):
    "no seal" means nothing was recorded (the run stopped before it sealed at its start), so a
    row, an attempt folder or a log line there was put by someone without the key, and no new
    seal may take it in (a forger would drop the seal, rewrite the rows, and have the next
    resume sign them)."""
    found = [f"{name} holds {size:,} byte(s)" for name in (RESULTS, AUDIT, TRAJECTORY_FILE)
             if (size := _size(run_dir / name))]
    found += [f"{sub}/ holds {named(name)}" for sub in (ATTEMPTS, INCOMPLETE)
              if (run_dir / sub).is_dir() and (name := next(
                  (p.name for p in (run_dir / sub).iterdir()), ""))]
    return found


def _size(path: Path) -> int:
    try:
        return os.lstat(path).st_size
    except FileNotFoundError:
        return 0


def _sha256(path: Path) -> str:
    return hashlib.sha256(read_bytes(path, MAX_SEALED_BYTES)).hexdigest()


def sealed_files(folder: Path) -> list[Path]:
    """The files of an attempt folder a seal covers: its evidence and its verdict."""
    found = [p for p in (folder / "evidence").rglob("*") if p.is_file()]
    verdict = folder / VERDICT
    return sorted([*found, *([verdict] if verdict.is_file() else [])])


@dataclass
class Sealer:
    """Seals one run as it goes: call `add_result` for each row appended, `add_attempt` once an
    attempt's files are written, then `seal`.

    Args:
        run_dir: the run folder.
        key: the signing key.
        audit_chain: returns the audit log's (chain head, lines, end offset) as the bridge
            wrote it.
        frames_chain: the same of trajectory.jsonl, for a run that keeps the agent's screens.
        say: where a record found changed behind the run's back is said, as it is found.
    """

    run_dir: Path
    key: bytes
    audit_chain: ChainState
    results: tuple[str, int, int] = (CHAIN_START, 0, 0)
    files: dict[str, str] = field(default_factory=dict)
    frames_chain: ChainState | None = None
    kept: Kept = field(default_factory=Kept)
    say: Callable[[str], None] | None = None
    previous: Seal | None = None
    """The seal the next one follows (the run's last, on a resume)."""

    @classmethod
    def resume(cls, run_dir: Path, key: bytes, audit_chain: ChainState,
               manifest: RunManifest, frames_chain: ChainState | None = None,
               checked: Fresh | None = None) -> Sealer:
        """Carry on sealing a run whose seal was verified: its results and files so far. A new
        seal only extends what an earlier one covered: a run.json with no seal over a folder
        that records anything is refused (`recorded_unsealed`), and so is one that is not the
        latest seal this machine made of the run (`refuse_stale`, unless `checked` proves it).

        Raises:
            RunError: run.json has no seal, and the folder records something; or it holds an
                earlier seal than the run's latest, or another of its number.
        """
        refuse_stale(run_dir, manifest, key, checked)
        found = recorded_unsealed(run_dir) if manifest.seal is None else []
        if found:
            raise RunError(f"{named(run_dir / MANIFEST)} has no seal, but the run folder "
                           f"records something ({'; '.join(found)}): nothing vouches for it, "
                           "and it is never sealed", hint="start a new run")
        data = read_bytes(run_dir / RESULTS, MAX_SEALED_BYTES) if (run_dir / RESULTS).exists() \
            else b""
        files = {f.path: f.sha256 for f in manifest.seal.files} if manifest.seal else {}
        kept = Kept(results=bytearray(data), manifest=manifest)
        for rel in files:  # verified just now: what the harness recorded
            with contextlib.suppress(RecordError):
                kept.add_file(run_dir, rel, read_bytes(run_dir / rel, MAX_SEALED_BYTES))
        return cls(run_dir, key, audit_chain, chain_of(data), files, frames_chain, kept,
                   previous=manifest.seal)

    def add_result(self, row: ResultRow) -> None:
        """A row was appended to results.jsonl (exactly its JSON and a newline)."""
        head, lines, end = self.results
        line = row.to_json().encode("utf-8")
        self.results = (chain_step(head, line), lines + 1, end + len(line) + 1)
        self.kept.add_row(line)

    def add_attempt(self, folder: Path) -> None:
        """Hash an attempt's evidence and verdict, just written."""
        for path in sealed_files(folder):
            rel, data = path.relative_to(self.run_dir).as_posix(), read_bytes(path,
                                                                               MAX_SEALED_BYTES)
            self.files[rel] = hashlib.sha256(data).hexdigest()
            self.kept.add_file(self.run_dir, rel, data)

    def moved(self, old: Path, new: Path) -> None:
        """An attempt folder was moved aside (a skipped try, before its attempt runs again)."""
        before = old.relative_to(self.run_dir).as_posix() + "/"
        after = new.relative_to(self.run_dir).as_posix() + "/"
        self.files = {(after + path[len(before):] if path.startswith(before) else path): digest
                      for path, digest in self.files.items()}
        self.kept.moved(before, after)

    def seal(self, manifest: RunManifest) -> RunManifest:
        """Write run.json with the current seal, signed; return it. For an unconfined run, what
        an agent changed behind the run's back is put back first, and said (`kept`)."""
        if not manifest.tamper_proof:
            for line in self.kept.check(self.run_dir, self.files):
                manifest = manifest.model_copy(update={
                    "sandbox_note": "; ".join(n for n in (manifest.sandbox_note, line) if n)})
                if self.say is not None:
                    self.say(f"WARNING: {line}")
        audit_head, audit_lines, audit_end = self.audit_chain()
        head, lines, end = self.results
        logs = [LogSeal(path=AUDIT, lines=audit_lines, bytes=audit_end, chain=audit_head),
                LogSeal(path=RESULTS, lines=lines, bytes=end, chain=head)]
        if self.frames_chain is not None:
            frames_head, frames_lines, frames_end = self.frames_chain()
            logs.append(LogSeal(path=TRAJECTORY_FILE, lines=frames_lines, bytes=frames_end,
                                chain=frames_head))
        seal = Seal(sealed_at=time.time(), key_id=key_id(self.key), logs=tuple(logs),
                    files=tuple(FileSeal(path=p, sha256=d) for p, d in sorted(self.files.items())))
        # numbered after the seal this sealer made last (the file may hold another now: an
        # unconfined agent's, which `kept` has just written over), or the one it went on from
        before = self.previous if self.previous is not None else manifest.seal
        signed = numbered(manifest.model_copy(update={"seal": before}), seal, self.key)
        write_sealed(self.run_dir, signed, before, self.say)
        self.kept.manifest, self.previous = signed, signed.seal
        return signed


def _check_log(run_dir: Path, sealed: LogSeal) -> list[str]:
    """What of a log does not match its seal, read a chunk at a time: a run's audit log grows
    with its attempts, and is never held whole."""
    path = run_dir / sealed.path
    try:
        if path.exists():
            with open_regular(path) as handle:
                chain, extra_bytes, extra = chain_of_chunks(
                    iter(functools.partial(handle.read, CHUNK_BYTES), b""), sealed.bytes)
                whole = not extra_bytes or (handle.seek(-1, os.SEEK_END) >= 0
                                            and handle.read(1) == b"\n")
        else:
            chain, extra_bytes, extra, whole = (CHAIN_START, 0, 0), 0, 0, True
    except RecordError as exc:  # its message names the file, as every reader's does
        return [str(exc)]
    except OSError as exc:
        # the file by its name and the trouble in words: an OSError of a descriptor (Python's
        # open of a folder's fd) would print the descriptor's number ("Is a directory: 3")
        return [f"{named(path)}: cannot read it ({exc.strerror or type(exc).__name__})"]
    problems = []
    if chain != (sealed.chain, sealed.lines, sealed.bytes):
        problems.append(f"{named(sealed.path)}: its first {sealed.lines} line(s) are not the "
                        "ones sealed (lines were changed, added in between or removed)")
    if extra_bytes:
        added = f"{named(sealed.path)}: {extra_bytes} byte(s) ({extra} line(s)) were added " \
                "after the last seal"
        if not whole:  # a torn last line: a run writes its lines whole
            added += ", the last of them cut short"
        # whole lines after sealed ones that hold: what a run stopped before its next seal wrote
        problems.append(Unsealed(added) if whole and not problems else added)
    return problems


def _check_files(run_dir: Path, seal: Seal, only: str) -> list[str]:
    problems = []
    sealed = {f.path: f.sha256 for f in seal.files if f.path.startswith(only)}
    for rel, digest in sealed.items():
        path = run_dir / rel
        try:
            if _sha256(path) != digest:
                problems.append(f"{named(rel)}: changed since it was sealed")
        except RecordError:
            problems.append(f"{named(rel)}: missing (it was sealed)")
    attempts = run_dir / ATTEMPTS
    present = [p for folder in sorted(attempts.glob("*/*")) if folder.is_dir()
               for p in sealed_files(folder)] if attempts.is_dir() else []
    # an attempt folder no seal holds a file of: the one a stop between two seals leaves
    held = {"/".join(f.path.split("/")[:3]) for f in seal.files}
    for path in present:
        rel = path.relative_to(run_dir).as_posix()
        if rel.startswith(only) and rel not in sealed:
            line = f"{named(rel)}: not sealed (it was added or rewritten outside the run)"
            problems.append(line if "/".join(rel.split("/")[:3]) in held else Unsealed(line))
    return problems


def verify_run(run_dir: Path, only: str = "", checked: Fresh | None = None) -> list[str]:
    """Everything about a run folder that does not match its seal ([] when it all does), and
    each check that could not be made, as an `Unchecked` line (a warning, not a problem).

    Args:
        only: check only the sealed files under this path (an attempt folder, relative to the
            run folder, e.g. "attempts/t/1/"); the logs and signature are checked always.
        checked: the proof that run.json is the run's latest seal, when the caller holds one
            of it as it is now (`refuse_stale`): that is not checked again.
    """
    try:
        manifest = read_record(run_dir / MANIFEST, RunManifest)
    except RecordError as exc:
        return [str(exc)]
    seal = manifest.seal
    try:
        key = load_key()
    except RunError as exc:
        key, missing = b"", exc.message
    if seal is None:  # and when this folder held a sealed run, says which
        return [f"{named(run_dir / MANIFEST)} has no seal: the run sealed no attempt",
                *(stale(run_dir, manifest, key) if key else [])]
    if not key:
        return [missing]
    if seal.key_id != key_id(key):
        return [f"run {named(manifest.run_id)} was sealed with another key "
                f"({named(seal.key_id)}); this one is {key_id(key)}"]
    if not hmac.compare_digest(seal.signature, _signature(manifest, key)):
        return [f"{named(run_dir / MANIFEST)}: changed since it was signed"]
    problems = stale(run_dir, manifest, key, checked)
    for log in seal.logs:
        problems += _check_log(run_dir, log)
        if log.path == TRAJECTORY_FILE:
            problems += _check_frames(run_dir, log)
    return problems + _check_files(run_dir, seal, only)


def sealed_log(run_dir: Path, name: str) -> bytes | None:
    """The part of a run's log its seal vouches for (b"" when the seal holds no such log);
    None for a folder with no sealed run.json (a swap or attack folder, never sealed).

    Raises:
        RecordError: the log, or run.json, cannot be read.
    """
    if not (run_dir / MANIFEST).is_file():
        return None
    seal = read_record(run_dir / MANIFEST, RunManifest).seal
    if seal is None:
        return None
    sealed = next((log for log in seal.logs if log.path == name), None)
    return _sealed_part(run_dir, sealed) if sealed is not None else b""


def _sealed_part(run_dir: Path, sealed: LogSeal) -> bytes:
    """The first bytes of a log its seal vouches for, as the file holds them now."""
    path = run_dir / sealed.path
    return read_bytes(path, MAX_SEALED_BYTES)[:sealed.bytes] if path.is_file() else b""


def _check_frames(run_dir: Path, sealed: LogSeal) -> list[str]:
    """Every frame the sealed lines of trajectory.jsonl name still holds the bytes its line
    records."""
    try:
        data = _sealed_part(run_dir, sealed)
    except RecordError as exc:
        return [str(exc)]
    problems = []
    for frame in parse_lines(data, TrajectoryFrame, str(run_dir / sealed.path)):
        if not frame.file:
            continue
        try:
            if _sha256(run_dir / frame.file) != frame.sha256:
                problems.append(f"{named(frame.file)}: changed since it was sealed")
        except RecordError:
            problems.append(f"{named(frame.file)}: missing (it was sealed)")
    return problems


def verify_evidence(folder: Path) -> tuple[Path | None, list[str]]:
    """The run an evidence folder belongs to (`runs/<id>/attempts/<task>/<n>/evidence`), and
    what of it does not match the run's seal; (None, []) for a folder outside any run."""
    where = folder.resolve()
    if where.name != "evidence" or len(where.parents) < 4:
        return None, []
    attempt, run_dir = where.parent, where.parents[3]
    if not (run_dir / MANIFEST).is_file() or attempt.parent.parent.name != ATTEMPTS:
        return None, []
    return run_dir, verify_run(run_dir, attempt.relative_to(run_dir).as_posix() + "/")
