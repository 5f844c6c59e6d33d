"""What the harness wrote into a run folder, kept in its own memory, to put back what an unconfined
agent changed there during its turn.

An agent run with `--sandbox none` is the user the harness runs as: during its turn it can rewrite
any file of the run, and read the signing key to re-seal what it rewrote. What it starts below the
harness dies with its turn (`agents.pidns`, `agents.strays`), so what that changes, it changes
while the run goes on; what it starts outside the harness's reach (a service, cron) may change the
folder after the run, which nothing here can see: the run's own output says so at its end
(docs/security.md). The harness never takes the folder's word for what it recorded: it keeps every
row it appended (results.jsonl's bytes), every verdict's bytes, the digest of every sealed file and
run.json as it last wrote it, and before each seal of an unconfined run (`Sealer.seal`) holds the
folder against them. A row or a verdict changed behind its back is written again from memory, and
run.json is written from memory anyway; an evidence file (screenshots and page sources, too large
to keep) can only be named, and the seal still vouches for the digest the harness took, so the run
no longer verifies and `report` refuses it. Each change is said by the run as it is found, and
recorded in run.json (`sandbox_note`), which every report of the run prints. The audit log is the
bridge's: its lines are chained from the bridge's memory, so a change to it fails verification
(`seal.verify_run`), not this check.

A file is read again only when its inode, size, modification or change time moved since it
was last found right (the change time no call can set back), so a long run does not hash all
its evidence after every attempt.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from phoneshell.records import RecordError, RunManifest, read_bytes, read_record
from phoneshell.records.layout import ATTEMPTS, MANIFEST, RESULTS, VERDICT

MAX_BYTES = 1 << 32
CHANGED = "a file of the run was changed during an unconfined agent's turn"
"""How every finding begins: the words a report shows, and a reader searches for."""

Stat = tuple[int, int, int, int]


def changed_hint(run_dir: Path) -> str:
    """The hint for a file of the run at `run_dir` that is no longer what the harness wrote
    there (a folder in its place, bytes no record is), so the run cannot write or read it back:
    only phoneshell writes those files, so it is the folder that changed, never a bug."""
    return (f"something other than phoneshell changed {run_dir} during the run (an agent run "
            "with --sandbox none can change any file of it); phoneshell removed nothing of it "
            f"(every attempt's folder stays in {ATTEMPTS}/, and `phoneshell report {run_dir}` "
            "says what of the run still holds); run again in a folder only phoneshell writes")


def _stat(path: Path) -> Stat | None:
    try:
        info = path.lstat()  # a link put in a file's place is a change too
    except OSError:
        return None
    return info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def _put_back(path: Path, data: bytes) -> str:
    """Write `data` at `path` in place of what is there; "" or why it could not."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.restore")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)  # a link in its place is replaced, never written through
    except OSError as exc:
        return f"; it could not be written back ({exc.strerror or exc})"
    return ""


@dataclass
class Kept:
    """The harness's own copy of a run's records (see the module docstring)."""

    results: bytearray = field(default_factory=bytearray)
    """results.jsonl as the runner wrote it."""
    verdicts: dict[str, bytes] = field(default_factory=dict)
    """Each verdict.json's bytes, by its path in the run folder."""
    manifest: RunManifest | None = None
    """run.json as last written."""
    found: list[str] = field(default_factory=list)
    """What was found changed, each once."""
    _right: dict[str, Stat | None] = field(default_factory=dict)

    def add_row(self, line: bytes) -> None:
        """A row's JSON was appended (its newline follows)."""
        self.results += line + b"\n"

    def add_file(self, run_dir: Path, rel: str, data: bytes) -> None:
        """A sealed file was hashed from `data`; a verdict is kept whole."""
        if rel.endswith("/" + VERDICT):
            self.verdicts[rel] = data
        self._right[rel] = _stat(run_dir / rel)

    def moved(self, before: str, after: str) -> None:
        """An attempt folder moved from `before` to `after` (both ending in "/")."""
        def move(rel: str) -> str:
            return after + rel[len(before):] if rel.startswith(before) else rel
        self.verdicts = {move(rel): data for rel, data in self.verdicts.items()}
        self._right = {move(rel): stat for rel, stat in self._right.items()}

    def check(self, run_dir: Path, files: dict[str, str]) -> list[str]:
        """Hold the run folder against what was kept; put back what can be, and return what
        was newly found changed (each line starts with `CHANGED`)."""
        found = [*self._check_manifest(run_dir), *self._check_results(run_dir)]
        for rel, digest in sorted(files.items()):
            found += self._check_file(run_dir, rel, digest)
        new = [line for line in found if line not in self.found]
        self.found += new
        return new

    def _check_manifest(self, run_dir: Path) -> list[str]:
        if self.manifest is None:
            return []
        try:
            same = read_record(run_dir / MANIFEST, RunManifest) == self.manifest
        except RecordError:
            same = False
        return [] if same else [f"{CHANGED}: {MANIFEST} (written again from what the harness "
                                "recorded)"]

    def _check_results(self, run_dir: Path) -> list[str]:
        path = run_dir / RESULTS
        try:
            same = read_bytes(path, MAX_BYTES) == bytes(self.results)
        except RecordError:
            same = not self.results and not path.exists()
        if same:
            return []
        why = _put_back(path, bytes(self.results))
        return [f"{CHANGED}: {RESULTS} (its rows were written again from what the harness "
                f"recorded{why})"]

    def _check_file(self, run_dir: Path, rel: str, digest: str) -> list[str]:
        path = run_dir / rel
        stat = _stat(path)
        if stat is not None and stat == self._right.get(rel):
            return []
        try:
            data = read_bytes(path, MAX_BYTES)
        except RecordError:
            data = None
        if data is not None and hashlib.sha256(data).hexdigest() == digest:
            self._right[rel] = stat
            return []
        kept = self.verdicts.get(rel)
        if kept is not None and hashlib.sha256(kept).hexdigest() == digest:
            why = _put_back(path, kept)
            self._right[rel] = _stat(path)
            return [f"{CHANGED}: {rel} (written again from what the harness recorded{why})"]
        what = "deleted" if data is None else "changed"
        return [f"{CHANGED}: {rel} ({what}; the harness keeps only its digest, so the run no "
                "longer matches its seal)"]
