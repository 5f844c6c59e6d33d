"""The base of every on-disk record, and the one way records are read and written.

A record is a frozen pydantic model that refuses unknown keys and wrong types (strict mode), and
names its version: a reader refuses a version it does not know instead of guessing. Files are
read only when they are regular files under a size limit (a FIFO or a device would hang the
reader; a huge file would exhaust memory), and JSON nesting is bounded by the parser, so no
input crashes a reader with a RecursionError.

JSONL (`audit.jsonl`, `results.jsonl`) has one policy for a cut-off last line: a line is a record
only once its newline is written. Writers write a whole line, newline included, with one call,
so a missing newline means the writer died mid-line; that tail is reported as `torn`, never read
as a record (even when it happens to parse). A JSONL file that grows with a run (the audit log)
is read a line at a time (`scan_lines`), with a limit on each line instead of on the file.
Never imports the rest of phoneshell.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator
from pydantic_core import from_json

MAX_RECORD_BYTES = 64 * 1024 * 1024
"""The largest record file a reader opens (64 MiB); bigger ones are refused with the limit."""
MAX_LINE_BYTES = 1024 * 1024
"""The longest line `scan_lines` reads as a record (1 MiB); a longer one is a problem, skipped
without being held whole."""
SCAN_CHUNK_BYTES = 1024 * 1024

R = TypeVar("R", bound="Record")


class RecordError(ValueError):
    """A record that does not match its contract; the message says where and how."""


class RecordTooBig(RecordError):
    """A record file over the size limit of its reader; the message names it, its size and the
    limit."""


class Record(BaseModel):
    """A versioned, frozen, strictly read record.

    Subclasses set `VERSION` (the version they write and read) and, when the key is not
    `version`, `VERSION_KEY` (`v` for the line records, kept short).
    """

    # Every command imports every record (`phoneshell finish` too): pydantic reading each
    # field's docstring from the source took a third of that, and docs/records.md, their only
    # reader, reads them itself (scripts/record_docs.py); and each record's validator is built
    # the first time one is read or written (`defer_build`), as a command uses a few of them
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, defer_build=True)
    VERSION: ClassVar[int] = 1
    VERSION_KEY: ClassVar[str] = "version"

    @classmethod
    def parse(cls: type[R], text: str | bytes, where: str) -> R:
        """Read one record from JSON text.

        Read from a file, the version must be there and be this code's; built in code, it
        defaults to `VERSION`.

        Raises:
            RecordError: not JSON, or not this record; the message names `where` and the field.
        """
        try:
            if cls.VERSION_KEY:
                # A record of another version may differ in any field: say so before the
                # field errors its other shape would raise.
                cls._check_version(from_json(text), where)
            return cls.model_validate_json(text)
        except ValidationError as exc:
            raise RecordError(explain(exc, where)) from None
        except RecordError:
            raise
        except ValueError as exc:  # from_json: not JSON, or nested beyond its limit
            raise RecordError(f"{where}: not valid JSON ({exc})") from None

    @classmethod
    def _check_version(cls, data: object, where: str) -> None:
        if not isinstance(data, dict):
            return  # the model refuses it, naming what it is
        got = data.get(cls.VERSION_KEY)
        if got is None:
            raise RecordError(f"{where}: missing field {cls.VERSION_KEY!r} (the format's "
                              "version)")
        if got != cls.VERSION:
            raise RecordError(f"{where}: version {got!r} is not supported (this phoneshell reads "
                              f"version {cls.VERSION}); it was written by another phoneshell")

    @classmethod
    def of(cls: type[R], data: object, where: str) -> R:
        """Read one record from decoded JSON values (a dict), as strictly as from a file."""
        try:
            text = json.dumps(data)
        except (TypeError, ValueError, RecursionError) as exc:
            raise RecordError(f"{where}: not JSON values ({exc})") from None
        return cls.parse(text, where)

    def to_json(self) -> str:
        """This record as compact JSON on one line (no newline)."""
        return self.model_dump_json()

    def to_plain(self) -> dict[str, Any]:
        """This record as plain JSON values (for embedding in a larger JSON document)."""
        return self.model_dump(mode="json")


class Part(Record):
    """A record nested inside another: versioned by the record that holds it."""

    VERSION_KEY: ClassVar[str] = ""


class Scored(Part):
    """A nested result that may not have been scored, saying why (`skip_reason`)."""

    scored: bool = True
    """Whether it was scored: false exactly when `skip_reason` says why not."""
    skip_reason: str = ""
    """Why it was not scored ("" when it was)."""

    @model_validator(mode="before")
    @classmethod
    def _derive_scored(cls, data: object) -> object:
        if isinstance(data, dict) and "scored" not in data:
            return {**data, "scored": not data.get("skip_reason")}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Scored:
        if self.scored == bool(self.skip_reason):
            raise ValueError(f"scored={self.scored} disagrees with skip_reason "
                             f"{self.skip_reason!r}")
        return self


def plain(value: object) -> object:
    """Plain JSON values of a record, a dataclass (holding records or not), or containers of
    them: what `--format json` prints."""
    if isinstance(value, Record):
        return value.to_plain()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)
                if not f.name.startswith("_")}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else value
        return [plain(v) for v in items]
    return value


def explain(exc: ValidationError, where: str) -> str:
    """One line per problem: `where: field 'a.b' <what is wrong>` (the first five)."""
    lines = []
    for error in exc.errors()[:5]:
        path = ".".join(str(part) for part in error["loc"])
        kind = error["type"]
        if kind == "json_invalid":
            lines.append(f"{where}: not valid JSON ({error['msg'].removeprefix('Invalid JSON: ')})")
        elif kind == "extra_forbidden":
            lines.append(f"{where}: unknown field {path!r}")
        elif kind == "missing":
            lines.append(f"{where}: missing field {path!r}")
        else:
            message = error["msg"].removeprefix("Value error, ")
            shown = repr(error.get("input"))[:80]
            lines.append(f"{where}: field {path!r}: {message} (got {shown})" if path
                         else f"{where}: {message}")
    more = len(exc.errors()) - len(lines)
    return "; ".join(lines) + (f" (and {more} more)" if more > 0 else "")


def read_bytes(path: Path, limit: int = MAX_RECORD_BYTES, offset: int = 0) -> bytes:
    """The bytes of a regular file from `offset`, refusing FIFOs, devices and huge files.

    Raises:
        RecordError: missing, not a regular file, or unreadable; `RecordTooBig`: larger than
            `limit`.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except OSError as exc:
        raise RecordError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise RecordError(f"{path}: not a regular file (a FIFO, device or folder is never read "
                          "as a record)")
    if info.st_size - offset > limit:
        raise RecordTooBig(f"{path}: {info.st_size - offset:,} bytes is over the limit of "
                           f"{limit:,} for a record file")
    with open_regular(path) as handle:
        handle.seek(offset)
        return handle.read(limit + 1)[:limit]


def open_regular(path: Path) -> IO[bytes]:
    """`path` opened for reading, once it is sure to be a regular file (never a FIFO or a
    device, which would hang the reader).

    Raises:
        RecordError: missing, not a regular file, or unreadable.
    """
    try:
        # O_NONBLOCK: a file swapped for a FIFO between stat and open must not block the open.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except OSError as exc:
        raise RecordError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    # Told by the descriptor, before it is wrapped: Python refuses to wrap a folder's, with an
    # error naming the descriptor's number instead of the file.
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise RecordError(f"{path}: not a regular file (a FIFO, device or folder is never read "
                          "as a record)")
    return os.fdopen(fd, "rb")


def read_record(path: Path, model: type[R], limit: int = MAX_RECORD_BYTES) -> R:
    """Read one JSON record file strictly (see `read_bytes` for what is refused)."""
    return model.parse(read_bytes(path, limit), str(path))


def write_record(path: Path, record: Record) -> None:
    """Write a record file (indented, for people) atomically: a reader sees old or new, whole."""
    text = json.dumps(record.to_plain(), indent=2, ensure_ascii=False) + "\n"
    write_text_atomic(path, text)


NO_FOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC
"""Records are written into run folders an earlier unconfined agent or another user may have
planted links in: no write follows a link (the harness, often root, would write through it)."""


def write_text_atomic(path: Path, text: str | bytes) -> None:
    """Replace `path` with `text` (bytes as they are, a str as UTF-8) through a new temporary
    file beside it and a rename, so a refused write (a full disk, `ulimit -f`) leaves the old
    file or none, never part of the new one (a link at the temporary name is refused, never
    written through; the rename replaces a link at `path` itself, never its target)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    if temporary.is_symlink() or (temporary.exists() and not temporary.is_file()):
        raise FileExistsError(f"{temporary}: a link or not a file; refusing to write through it")
    temporary.unlink(missing_ok=True)  # a leftover of a writer that died with our pid
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NO_FOLLOW, 0o644)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(text.encode("utf-8") if isinstance(text, str) else text)
        os.replace(temporary, path)
    except BaseException:  # a full disk, say: the old file stays whole, no half-written copy
        temporary.unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class Lines(Generic[R]):
    """The records of a JSONL file, and what could not be read."""

    records: tuple[R, ...]
    torn: str = ""
    """The last line when it has no newline (its writer died mid-line); never a record."""
    problems: tuple[str, ...] = ()
    """Whole lines that are not records of the model, each naming its line number."""

    def __iter__(self) -> Iterator[R]:
        return iter(self.records)


def parse_lines(data: bytes, model: type[R], where: str, first_line: int = 1) -> Lines[R]:
    """Read JSONL bytes: every newline-terminated line is a record or a problem; the rest torn."""
    body, _, tail = data.rpartition(b"\n")
    if not _:  # no newline at all: everything is the torn tail
        body, tail = b"", data
    records: list[R] = []
    problems: list[str] = []
    for number, line in enumerate(body.split(b"\n") if body else (), start=first_line):
        if not line.strip():
            continue
        try:
            records.append(model.parse(line, f"{where} line {number}"))
        except RecordError as exc:
            problems.append(str(exc))
    return Lines(tuple(records), tail.decode("utf-8", errors="replace"), tuple(problems))


def read_lines(path: Path, model: type[R], offset: int = 0,
               limit: int = MAX_RECORD_BYTES) -> Lines[R]:
    """Read a JSONL file of records from byte `offset` (a missing file has none).

    Reading from an offset taken earlier (`file_size`) gives what was appended since; line
    numbers in problems then count from the offset.

    Raises:
        RecordError: not a regular file, or over the size limit.
    """
    if not path.exists():
        return Lines(())
    return parse_lines(read_bytes(path, limit, offset), model, str(path))


@dataclass
class LineScan(Generic[R]):
    """A JSONL file read one line at a time (iterate it once): the records, and, as it goes,
    what could not be read. Memory holds one line, never the file, whatever its size; a line
    longer than `line_limit` is a problem, skipped in chunks."""

    path: Path
    model: type[R]
    offset: int = 0
    line_limit: int = MAX_LINE_BYTES
    torn: str = ""
    """The last line when it has no newline (its first `line_limit` bytes); never a record."""
    problems: list[str] = field(default_factory=list)
    """Whole lines that are not records of the model (or are too long), each naming its line
    number."""
    size: int = 0
    """Bytes read (from `offset`)."""

    def __iter__(self) -> Iterator[R]:
        if not self.path.exists():
            return
        where = str(self.path)
        with open_regular(self.path) as handle:
            handle.seek(self.offset)
            pending, number, skipped = b"", 0, 0
            while chunk := handle.read(SCAN_CHUNK_BYTES):
                self.size += len(chunk)
                data, start = pending + chunk, 0
                while (end := data.find(b"\n", start)) >= 0:
                    number += 1
                    if skipped or end - start > self.line_limit:
                        self._too_long(where, number, skipped + end - start)
                        skipped = 0
                    elif data[start:end].strip():
                        yield from self._parse(data[start:end], where, number)
                    start = end + 1
                if skipped or len(data) - start > self.line_limit:
                    skipped, pending = skipped + len(data) - start, b""
                else:
                    pending = data[start:]
        if skipped or pending:
            self.torn = pending.decode("utf-8", errors="replace") or f"({skipped:,} bytes)"

    def _parse(self, line: bytes, where: str, number: int) -> Iterator[R]:
        try:
            yield self.model.parse(line, f"{where} line {number}")
        except RecordError as exc:
            self.problems.append(str(exc))

    def _too_long(self, where: str, number: int, size: int) -> None:
        self.problems.append(f"{where} line {number}: {size:,} bytes is over the limit of "
                             f"{self.line_limit:,} for one line; not read")


def scan_lines(path: Path, model: type[R], offset: int = 0,
               line_limit: int = MAX_LINE_BYTES) -> LineScan[R]:
    """Read a JSONL file of records one line at a time, from byte `offset` (a missing file has
    none): for a file that grows with a run, read whatever its size. Iterate the result once;
    its `problems` and `torn` are known after.

    Raises:
        RecordError: (while iterating) not a regular file, or unreadable.
    """
    return LineScan(path, model, offset, line_limit)


def file_size(path: Path) -> int:
    """A file's size in bytes now (0 when it does not exist): an offset for `read_lines`."""
    return path.stat().st_size if path.exists() else 0


def append_whole(fd: int, data: bytes) -> None:
    """Append `data` to the file open for appending at `fd` whole, or leave the file as it was.

    A write the file takes only part of is carried on (the kernel may stop short at a signal);
    one the file refuses part-way (a full disk, a size limit such as `ulimit -f`, a read-only
    remount, an I/O error) is cut back to where the file ended before it, so it never leaves a
    torn line that every later reader would have to take for a crash, and the error is raised.

    Raises:
        OSError: the file refused the write (with its errno: ENOSPC, EFBIG, EIO...).
    """
    start = os.fstat(fd).st_size
    done = 0
    try:
        while done < len(data):
            done += os.write(fd, data[done:])
    except OSError:
        if done:  # cut back; failing that, the file keeps a torn tail, read as a crash's
            with contextlib.suppress(OSError):
                os.ftruncate(fd, start)
        raise


def append_line(path: Path, record: Record, fsync: bool = True) -> None:
    """Append one record as a line with a single write, flushed (and fsynced) before returning.

    A file that ends mid-line (a writer died) gets a newline first, so the torn tail stays one
    bad line and never swallows this record.
    """
    line = (record.to_json() + "\n").encode("utf-8")
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | NO_FOLLOW, 0o644)
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode):
            raise OSError(f"{path}: not a regular file; refusing to append to it")
        if found.st_size and os.pread(fd, 1, found.st_size - 1) != b"\n":
            line = b"\n" + line
        append_whole(fd, line)
        if fsync:
            os.fsync(fd)
    finally:
        os.close(fd)

