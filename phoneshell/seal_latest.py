"""Which seal of a run is its latest: kept outside the run folder, so a folder put back to an
earlier seal (rolled back) or copied and sealed on apart (forked) is told from the real one.

A seal proves that a state of a run is authentic, not that it is the latest one: without a key,
anyone who copied a run folder mid-run can copy run.json and results.jsonl back later, cut the
logs to the bytes that older seal names and remove the attempt folders it does not, and the
folder verifies; resumed, it plays the attempts it "never ran" again, until one passes. So each
seal carries its number (`Seal.sequence`, signed), and the machine that makes it keeps the
number and signature of the latest seal of each run in a file of its own (`LatestSeal`) beside
the signing key (`<key file>.latest/<hash of key id, run id and start time>.json`): the same
folder rules as the key (made 0700, files 0600, never through a link), written after run.json,
by an atomic replace, under a lock on that folder. A folder whose seal is older than that
record was rolled back; one holding another seal of the same number, forked; a seal made from
one that is not the latest (two copies resumed at once) marks the run forked for good. A folder
with a newer seal than the record (its record was not written: a crash between the two writes)
or with no record here (copied with the key to another machine) is not refused for it; this
machine just cannot tell.

The run's id and start time come from run.json, which vouches for them only when it is sealed:
an unsealed run.json (a run that stopped before its first seal) says whatever its writer wants.
So the same record is also kept under each run folder it was sealed in (`<hash of key id and
the folder's absolute and real paths>.json`): a folder that held run R begun at T, sealed up
to N, and now holds another run.json (unsealed, another start time, another run) was put back
or replaced, and is refused whatever that run.json says. A copy in another folder has no such
record, and is judged by its run's.

A record that cannot be read (another user, who may read a shared key but not this folder) is
a check that cannot be made: `Unchecked`, said as a warning by a report, never blamed on the run
folder; a resume refuses it (it would seal on from a state it cannot place). The folder and
the files written in it are readable by whoever may read the key (its group and other read
bits), and written by its owner alone: a record holds no secret, and whoever reads the key can
sign anyway.

Never reads a run folder; never imports the rest of phoneshell beyond records (and `kept`'s
words for a run folder changed behind the harness).
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import hashlib
import json
import os
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from phoneshell.errors import STORAGE, RunError, mend
from phoneshell.kept import changed_hint
from phoneshell.records import (
    LatestSeal,
    RecordError,
    RunManifest,
    Seal,
    read_record,
    write_record,
)
from phoneshell.records.layout import MANIFEST
from phoneshell.seal_key import key_id, key_path, signature
from phoneshell.untrusted import named, quoted

__all__ = ["Fresh", "Unchecked", "latest_folder", "numbered", "record_seal", "refuse_stale",
           "reseal", "split_unchecked", "stale", "write_sealed"]

RECORD_BYTES = 1 << 20


def latest_folder(key_file: Path) -> Path:
    """Where the latest seal of each run sealed with the key at `key_file` is kept."""
    return key_file.with_name(key_file.name + ".latest")


@dataclass(frozen=True)
class Fresh:
    """run.json of a run folder as it was found to hold the latest seal this machine made of
    its run (`refuse_stale`), or written as it (`reseal`): what a resume checked once, at its
    start, and hands on, so that each later step (`set_aside`, `Sealer.resume`) uses it instead
    of checking again (one handed a proof of another state checks for itself)."""

    paths: tuple[str, str]
    """The run folder's absolute and real paths (a link put in its place changes one)."""
    manifest: RunManifest
    """run.json as found (or written)."""

    @classmethod
    def of(cls, run_dir: Path, manifest: RunManifest) -> Fresh:
        """The proof for `manifest` in `run_dir`; only this module's checks make one."""
        return cls((os.path.abspath(run_dir), os.path.realpath(run_dir)), manifest)

    def holds(self, run_dir: Path, manifest: RunManifest) -> bool:
        """Whether this proves `manifest` in `run_dir` (the same folder, the same run.json)."""
        return self == Fresh.of(run_dir, manifest)


class Unchecked(str):
    """What could not be checked (this machine's record cannot be read): a warning to say, not
    a problem of the run folder."""


def split_unchecked(found: list[str]) -> tuple[list[str], list[str]]:
    """`found` (`verify_run`'s) as (problems of the folder, checks that could not be made)."""
    return ([line for line in found if not isinstance(line, Unchecked)],
            [line for line in found if isinstance(line, Unchecked)])


def _hashed(ident: list[object]) -> str:
    return hashlib.sha256(json.dumps(ident).encode()).hexdigest()[:32] + ".json"


def _name(key_id: str, manifest: RunManifest) -> str:
    """The record's file name: the run is its id and start time (both in run.json, signed), so
    two runs named alike in two folders never share one; the key's id keeps other keys' apart."""
    return _hashed([key_id, manifest.run_id, manifest.started_at])


def _folder_names(key_id: str, run_dir: Path) -> list[str]:
    """The names of the record kept under the run folder itself: its absolute path as given and
    its real path (a link put in its place, or in place of a folder above it, changes one)."""
    paths = dict.fromkeys((os.path.abspath(run_dir), os.path.realpath(run_dir)))
    return [_hashed([key_id, "folder", path]) for path in paths]


def _shared_bits(folder: Path) -> int:
    """The read bits (group, other) of the key whose records `folder` keeps: who may read them."""
    try:
        return os.stat(folder.with_name(folder.name.removesuffix(".latest"))).st_mode & 0o044
    except OSError:
        return 0


def _when(started_at: float) -> str:
    return datetime.datetime.fromtimestamp(started_at).isoformat(timespec="milliseconds")


@contextlib.contextmanager
def _folder(folder: Path, bits: int | None = None) -> Iterator[int | None]:
    """The records folder opened (never through a link). With `bits` (the key's read bits,
    `_shared_bits`), made 0700 when missing and opened to those readers; without, None when it
    does not exist."""
    if bits is not None:
        folder.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        with contextlib.suppress(FileExistsError):
            folder.mkdir(mode=0o700)
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        if bits is not None:
            raise
        yield None
        return
    try:
        if bits is not None:  # readable by whoever may read the key, now (its mode may change)
            with contextlib.suppress(OSError):
                os.fchmod(fd, 0o700 | bits | bits >> 2)
        yield fd
    finally:
        os.close(fd)


def _read(fd: int, name: str, where: Path) -> LatestSeal | None:
    """The record named `name` in the folder open at `fd`; None when there is none.

    Raises:
        RecordError: it cannot be read, or is not a record.
    """
    try:
        handle = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RecordError(f"{where / name}: cannot open it ({exc.strerror or exc})") from exc
    with os.fdopen(handle, "rb") as file:
        data = file.read(RECORD_BYTES + 1)
    if len(data) > RECORD_BYTES:
        raise RecordError(f"{where / name}: over {RECORD_BYTES} bytes")
    return LatestSeal.parse(data, str(where / name))


def _write(fd: int, name: str, record: LatestSeal, bits: int = 0) -> None:
    """Replace the record `name` in the folder open at `fd`, whole (a reader sees the old or
    the new), never through a link; readable as `bits` say (the key's read bits)."""
    temporary = f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    out = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                  0o600, dir_fd=fd)
    os.fchmod(out, 0o600 | bits)
    with os.fdopen(out, "w", encoding="utf-8") as file:
        file.write(json.dumps(record.to_plain(), indent=2, ensure_ascii=False) + "\n")
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, name, src_dir_fd=fd, dst_dir_fd=fd)


def _staleness(folder: Path, key: str, manifest: RunManifest, run_dir: Path,
               reread: Callable[[], RunManifest | None]) -> list[str]:
    """`stale`, with the records in `folder` and the key's id: `reread` reads run.json again,
    so a run being sealed as it is checked is told from a rolled-back one."""
    run = named(manifest.run_id)
    try:
        with _folder(folder) as fd:
            record = _read(fd, _name(key, manifest), folder) if fd is not None else None
            held = [found for name in _folder_names(key, run_dir)
                    if fd is not None and (found := _read(fd, name, folder)) is not None]
    except (RecordError, OSError) as exc:
        return [Unchecked(f"could not check that run.json holds the latest seal of run {run}: "
                          f"this machine's record of it cannot be read ({exc})")]
    seal = manifest.seal
    other = next((found for found in held if (found.run_id, found.started_at) != (
        manifest.run_id, manifest.started_at)), None)
    if other is not None:
        return _changed_while_checked(manifest, reread) or [
            f"this folder held run {named(other.run_id)} begun at {_when(other.started_at)}, "
            f"which this machine sealed up to seal {other.sequence} in it; its run.json now "
            f"holds {'seal ' + str(seal.sequence) if seal else 'no seal'} of run {run} begun "
            f"at {_when(manifest.started_at)}: the folder was put back or replaced, so what "
            "the run it held recorded is missing or replaced"]
    record = record or next(iter(held), None)
    if record is None:
        return []
    if record.forked:
        return [f"run {run} was forked (copies of it were sealed apart: "
                f"{'; '.join(record.forked)}): no copy of it is trusted on this machine"]
    number, made = (seal.sequence, seal.signature) if seal else (0, "")
    where = ("" if Path(record.folder) == run_dir.absolute()
             else f", in {quoted(record.folder)}")
    if number < record.sequence:
        held_now = f"seal {number}" if seal else "no seal"
        return _changed_while_checked(manifest, reread) or [
            f"run.json holds {held_now} of run {run}, but this machine sealed the run up to "
            f"seal {record.sequence}{where}: the folder was rolled back to an earlier state, "
            "so what the run recorded after it is missing or replaced"]
    if number == record.sequence and made != record.signature:
        return [f"run.json holds a seal {number} of run {run} other than "
                f"the one this machine made{where}: the run was copied and sealed apart "
                "(forked), so neither copy is the run"]
    return []


def _changed_while_checked(manifest: RunManifest,
                           reread: Callable[[], RunManifest | None]) -> list[str]:
    """What to say of a run.json sealed again while it was checked ([] when it was not)."""
    again = reread()
    if again is not None and again.seal is not None and again.seal != manifest.seal:
        return [f"run.json of run {named(manifest.run_id)} was sealed again while it was "
                "checked (a run still being written): check it when the run ends"]
    return []


def record_seal(folder: Path, run_dir: Path, signed: RunManifest, before: Seal | None,
                write: Callable[[], None]) -> str:
    """Write run.json (`write`) holding `signed`, the seal made from `before` (None: the run's
    first), and record it as the run's latest, under its run and under its folder, one step
    under the records folder's lock; return how the run was found forked ("" when it was
    not): a record ahead of `before`, or another seal of its number, means another copy of the
    run was sealed since (the run is marked forked for good; the seal is still written, so
    this folder stays whole).

    Raises:
        OSError: the records folder cannot be made or written.
    """
    seal = signed.seal
    assert seal is not None
    name = _name(seal.key_id, signed)
    bits = _shared_bits(folder)  # the key's mode, read once a seal: the folder's and files'
    with _folder(folder, bits) as fd:
        assert fd is not None
        fcntl.flock(fd, fcntl.LOCK_EX)  # two copies of a run sealed at once: one at a time
        try:
            record: LatestSeal | None = _read(fd, name, folder)
        except RecordError:
            record = None  # damaged: written anew (what it said is lost either way)
        number, made = (before.sequence, before.signature) if before else (0, "")
        forked = record.forked if record else ()
        fork = ""
        if record is not None and (record.sequence > number or (
                record.sequence == number and record.signature != made)):
            fork = (f"seal {seal.sequence} was made in {quoted(str(run_dir.absolute()))} from "
                    f"seal {number}, after seal {record.sequence} was made in "
                    f"{quoted(record.folder)}")
            forked = (*forked, fork)
        write()
        latest = LatestSeal(
            run_id=signed.run_id, started_at=signed.started_at,
            sequence=max(seal.sequence, record.sequence if record else 0),
            signature=seal.signature, sealed_at=seal.sealed_at,
            folder=str(run_dir.absolute()), forked=forked)
        for each in (name, *_folder_names(seal.key_id, run_dir)):  # the folder holds it now
            _write(fd, each, latest, bits)
    return fork


def numbered(manifest: RunManifest, seal: Seal, key: bytes) -> RunManifest:
    """`manifest` holding `seal` as the seal after the one it holds now, signed under `key`."""
    number = manifest.seal.sequence + 1 if manifest.seal is not None else 1
    unsigned = manifest.model_copy(update={"seal": seal.model_copy(
        update={"sequence": number, "key_id": key_id(key), "signature": ""})})
    assert unsigned.seal is not None
    return unsigned.model_copy(update={"seal": unsigned.seal.model_copy(
        update={"signature": signature(unsigned, key)})})


def write_sealed(run_dir: Path, signed: RunManifest, before: Seal | None,
                 say: Callable[[str], None] | None) -> bool:
    """Write run.json holding `signed` (the seal after `before`) and record it as the run's
    latest seal on this machine; return whether it was (False: a fork found, or a record that
    cannot be written, said through `say`; the run goes on: its folder stays whole, and a fork
    is refused by every verification after).

    Raises:
        RunError: run.json cannot be written (it is left as it was, and so is the record).
    """
    written: list[bool] = []

    def write() -> None:
        try:
            write_record(run_dir / MANIFEST, signed)
        except OSError as exc:  # a full disk, say: said once, never tried again in silence
            assert signed.seal is not None
            run = named(signed.run_id)
            raise RunError(
                f"{named(run_dir / MANIFEST)}: cannot write seal {signed.seal.sequence} of run "
                f"{run} ({exc.strerror or exc}): {MANIFEST} is left as it was, and so is this "
                "machine's record of the run's latest seal",
                hint=_unsealed_hint(exc, run_dir, run)) from exc
        written.append(True)

    try:
        fork = record_seal(latest_folder(key_path()), run_dir, signed, before, write)
    except OSError as exc:  # the records folder, before or after run.json was written
        if not written:
            write()
        fork = (f"the latest seal of run {named(signed.run_id)} could not be recorded in "
                f"{latest_folder(key_path())} ({exc.strerror or exc}): a copy of this folder "
                "put back later cannot be told from it")
    if fork and say is not None:
        say(f"WARNING: {fork}")
    return not fork


def _unsealed_hint(exc: OSError, run_dir: Path, run: str) -> str:
    """What goes on from a seal `exc` kept from run.json: storage mended, the resume; anything
    else (a folder in its place) is the folder changed behind the harness."""
    if exc.errno not in STORAGE:
        return changed_hint(run_dir)
    return (f"{mend(exc)}, then `phoneshell run --resume {run}` goes on from the run's last seal "
            "(what was written after it is set aside and played again)")


def reseal(run_dir: Path, manifest: RunManifest, key: bytes,
           say: Callable[[str], None] | None = None) -> tuple[RunManifest, Fresh | None]:
    """Write run.json as `manifest`, sealed under `key` as the run's next seal (its digests
    unchanged), and return it: for a change the harness itself makes to a run whose signature
    and freshness it has just checked (`signed_by`, `refuse_stale`), such as recording what a
    resume set aside, in the same step as the move. With it, the proof that it is the run's
    latest seal: None when it could not be recorded as such (a fork found, the records folder
    out of reach), which a check then says."""
    assert manifest.seal is not None
    signed = numbered(manifest, manifest.seal, key)
    latest = write_sealed(run_dir, signed, manifest.seal, say)
    return signed, Fresh.of(run_dir, signed) if latest else None


def refuse_stale(run_dir: Path, manifest: RunManifest, key: bytes,
                 checked: Fresh | None = None) -> Fresh:
    """Refuse to go on from a folder whose run.json is not the latest seal this machine made of
    its run (rolled back, forked, or put back in its folder over another state), or whose
    record cannot be read: a resume would play again what the run already scored. Return the
    proof that it is; `checked`, when it proves `manifest` in `run_dir` already, is returned as
    it is (a resume checks once, at its start).

    Raises:
        RunError: naming what was found.
    """
    if checked is not None and checked.holds(run_dir, manifest):
        return checked
    found = stale(run_dir, manifest, key)
    if found:
        unchecked = all(isinstance(line, Unchecked) for line in found)
        raise RunError(f"run {named(manifest.run_id)} cannot be continued from "
                       f"{named(run_dir)}: {'; '.join(found)}",
                       hint=f"resume it as a user who can read {latest_folder(key_path())} "
                            "(a resume seals on from run.json, so it must know it is the "
                            "latest)" if unchecked else
                            "a scored attempt is never run again; report the run from the "
                            "folder that holds its latest seal, or start a new run")
    return Fresh.of(run_dir, manifest)


def stale(run_dir: Path, manifest: RunManifest, key: bytes,
          checked: Fresh | None = None) -> list[str]:
    """Why run.json of `run_dir` (`manifest`) is not the latest seal this machine made of its
    run ([] when it is, when this machine has no record of the run, or when `checked` proves
    `manifest` in `run_dir` already: a resume checks once, at its start)."""
    if checked is not None and checked.holds(run_dir, manifest):
        return []

    def reread() -> RunManifest | None:
        try:
            return read_record(run_dir / MANIFEST, RunManifest)
        except RecordError:
            return None

    return _staleness(latest_folder(key_path()), key_id(key), manifest, run_dir, reread)
