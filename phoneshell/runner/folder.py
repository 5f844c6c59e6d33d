"""The run folder's life: create it with its manifest, or continue it (`--resume`) without ever
re-rolling an attempt that was already scored; one process at a time (`writing`).
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from phoneshell.errors import DISK_FULL, RunError
from phoneshell.grader import check_grader, this_grader
from phoneshell.phones.lock import DeviceLock, Holder, LockHeld
from phoneshell.records import (
    DeviceInfo,
    LeftOut,
    RecordError,
    ResultRow,
    RunManifest,
    SandboxKind,
    TaskRef,
    append_line,
    check_name,
    parse_lines,
    read_lines,
    read_record,
    write_record,
)
from phoneshell.records.layout import LOCK, MANIFEST, RESULTS
from phoneshell.seal import sealed_log
from phoneshell.tasks import Task
from phoneshell.untrusted import named, quoted


def new_run_id() -> str:
    """A sortable, unique run id: 20261130-061500-3fa2."""
    return time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(2)


def check_run_id(run_id: str) -> str:
    """The run id, when it is a plain folder name.

    Raises:
        RunError: it would name a folder outside the runs folder, or no usable folder at all.
    """
    try:
        return check_name(run_id, "run id")
    except RecordError as exc:
        raise RunError(str(exc), hint="a run id names the folder runs/<run_id>/, e.g. "
                                      "--run-id nightly-1") from None


RUNS_HINT = "give --runs a folder this user can write, or a path where one can be made"


def check_runs_dir(runs_dir: Path, run_id: str | None = None) -> None:
    """Refuse a `--runs` path no run folder can be made and written in, before any phone
    starts: each part of it that exists must be a folder (and the run's folder in it, when
    `run_id` names one), the rest names the system takes, and the deepest folder on it must
    take a new folder from this user (tried: a folder made and removed at once, so what the
    system would refuse, a read-only mount or another user's folder, is refused here).

    Raises:
        RunError: `--runs PATH: <reason>`, naming the part in the way (a file on the path, a
            name too long, a link loop or a link to nothing, a folder this user cannot write).
    """
    target = runs_dir / check_run_id(run_id) if run_id else runs_dir
    above = Path(Path(os.path.abspath(runs_dir)).anchor)  # the deepest folder found so far
    for part in (*reversed(runs_dir.parents), runs_dir):
        mode = _mode(runs_dir, part)
        if mode is None:
            break
        if not stat.S_ISDIR(mode):
            _refuse(runs_dir, f"{part} is not a folder")
        above = part
    else:  # a run folder that is there already is not tried (a run may be writing it)
        mode = _mode(runs_dir, target) if run_id else None
        if mode is not None and not stat.S_ISDIR(mode):
            _refuse(runs_dir, f"{target} is not a folder",
                    hint=f"choose another --run-id, or move {target} out of the way")
    _check_makeable(runs_dir, target, above)


def _mode(runs_dir: Path, part: Path) -> int | None:
    """The mode of a part of the runs path (None: it is not there, so it will be made)."""
    try:
        return part.stat().st_mode
    except FileNotFoundError:
        if part.is_symlink():  # mkdir would meet the link and refuse
            _refuse(runs_dir, f"{part} is a link to {os.readlink(part)}, which does not exist")
        return None
    except OSError as exc:  # a file on the way (ENOTDIR), a name too long, a link loop
        said = exc.strerror or str(exc)
        _refuse(runs_dir, said if exc.filename == str(runs_dir) else f"{said} ({exc.filename})")


def _check_makeable(runs_dir: Path, target: Path, above: Path) -> None:
    """Refuse when the folders down to `target` could not be made under `above` (the deepest
    existing folder of the runs path): a name or a path too long, or `above` refusing."""
    try:
        name_max, path_max = (os.pathconf(above, "PC_NAME_MAX"),
                              os.pathconf(above, "PC_PATH_MAX"))
    except (OSError, ValueError):  # a system that does not say: the kernel will
        name_max = path_max = 0
    if (name_max and any(len(os.fsencode(name)) > name_max for name in target.parts)) \
            or (path_max and len(os.fsencode(os.path.abspath(target))) >= path_max):
        _refuse(runs_dir, os.strerror(errno.ENAMETOOLONG))
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".phoneshell-try-", dir=above))
    except OSError as exc:
        if exc.errno in DISK_FULL:
            raise  # a full disk, said as the CLI says one (`cli.disk_full`)
        _refuse(runs_dir, f"{above}: {exc.strerror}")  # read-only, another user's


def _refuse(runs_dir: Path, reason: str, hint: str = RUNS_HINT) -> NoReturn:
    raise RunError(f"--runs {runs_dir}: {reason}", hint=hint)


def check_new_run(runs_dir: Path, run_id: str, again: str = "") -> None:
    """Refuse a new run whose `--run-id` names a run already in the runs folder: first thing,
    before any phone starts, and again as its folder is made (under the folder's lock).

    Args:
        again: the command that continues that run (`lines.resume_command`), for the hint.

    Raises:
        RunError: naming the run's folder, and how to continue it.
    """
    run_dir = runs_dir / check_run_id(run_id)
    if (run_dir / MANIFEST).exists() or (run_dir / RESULTS).exists():
        holder = writer(run_dir)
        if holder is not None:  # a live run: who writes it says more than that it exists
            raise being_written(run_dir, run_id, holder.describe())
        again = again or f"phoneshell run --resume {named(run_id)}"
        raise RunError(f"run {named(run_id)} already exists: {named(run_dir)}",
                       hint=f"continue it: {again}; or choose another --run-id")


def check_task_ids(tasks: list[Task]) -> None:
    """Refuse a task whose id could not name its attempts folder.

    Raises:
        RunError: naming the task file and the id.
    """
    for task in tasks:
        try:
            check_name(task.id, "task id")
        except RecordError as exc:
            raise RunError(f"{task.file}: {exc}", hint="a task id names the folder "
                                                       "attempts/<task_id>/") from None


def writing(run_dir: Path, run_id: str) -> DeviceLock:
    """Take the run folder's writer lock, held until released or the process ends: one process
    writes a run folder (appends, moves aside, seals), never two. Two resumes of one run, or a
    resume of a run still going, would each take the other's audit lines for forged and record
    an attempt twice. The lock is a flock on the folder itself (`phones.lock`'s), which the
    kernel drops when its holder ends however it ends, so a run killed mid-way is simply taken
    over; `run.lock` only holds the holder's pid and command (removing it frees nothing), and
    is never opened through a link.

    Raises:
        RunError: another process holds it, named with its pid and command.
        OSError: `run.lock` could not be written (a full disk), naming it; nothing is held then.
    """
    run_dir.mkdir(parents=True, exist_ok=True)
    lock = DeviceLock(LOCK.removesuffix(".lock"), run_id, directory=run_dir,
                      lock_directory=True)
    try:
        return lock.acquire()
    except LockHeld as exc:
        holder = writer(run_dir)
        who = holder.describe() if holder else "a process that is still starting"
        raise being_written(run_dir, run_id, who) from exc


def being_written(run_dir: Path, run_id: str, who: str) -> RunError:
    """The refusal of a second writer of a run folder, naming the one writing it."""
    return RunError(f"run {named(run_id)} ({named(run_dir)}) is being written by another "
                    f"phoneshell: {who}", hint="one process writes a run folder at a time: "
                    "wait for it to end (or stop it), then `phoneshell report "
                    f"{named(run_dir)}` or --resume {named(run_id)}")


def writer(run_dir: Path) -> Holder | None:
    """Who is writing a run folder now (None when nobody is): the holder of `writing`'s lock."""
    return DeviceLock(LOCK.removesuffix(".lock"), directory=run_dir,
                      lock_directory=True).holder()


@dataclass(frozen=True)
class RunFolder:
    """A run folder ready for attempts: its manifest and what is already scored."""

    run_dir: Path
    manifest: RunManifest
    scored: frozenset[tuple[str, int]]
    """(task id, attempt) pairs with a scored row: never run again."""
    tried: dict[tuple[str, int], int]
    """How many rows each (task id, attempt) already has (skipped tries are kept)."""

    @property
    def run_id(self) -> str:
        """The run's id (its folder name)."""
        return self.manifest.run_id


def create_folder(runs_dir: Path, run_id: str, agent: str, paths: tuple[str, ...],
                  task_globs: tuple[str, ...], repeat: int, tasks: list[Task],
                  devices: list[DeviceInfo], sandbox: SandboxKind = "in-process",
                  sandbox_note: str = "", left_out: tuple[LeftOut, ...] = (),
                  agent_setup: tuple[str, ...] = ()) -> RunFolder:
    """Make a new run folder and write its manifest (how agents are confined, and the task
    files left out for errors, included). The caller holds the folder's lock (`writing`), so
    no other process makes it between the look and the write.

    Raises:
        RunError: a run with that id already exists.
    """
    run_dir = runs_dir / check_run_id(run_id)
    check_task_ids(tasks)
    check_new_run(runs_dir, run_id)
    run_dir.mkdir(parents=True, exist_ok=True)
    grader = this_grader()
    manifest = RunManifest(
        run_id=run_id, started_at=time.time(), phoneshell_version=grader.version,
        git_commit=grader.commit, code_sha256=grader.code, agent=agent, paths=paths,
        task_globs=task_globs, repeat=repeat, devices=tuple(devices),
        tasks=tuple(TaskRef(id=t.id, file=t.file, sha256=t.sha256, tags=t.tags) for t in tasks),
        sandbox=sandbox, sandbox_note=sandbox_note, left_out=left_out, agent_setup=agent_setup)
    write_record(run_dir / MANIFEST, manifest)
    return RunFolder(run_dir, manifest, frozenset(), {})


def load_manifest(runs_dir: Path, run_id: str) -> RunManifest:
    """The manifest of an existing run, whose id is `run_id` (a plain name: `check_run_id`), as
    its folder's name is (raises `RunError` naming what is wrong)."""
    path = runs_dir / check_run_id(run_id) / MANIFEST
    if not path.exists():
        raise RunError(f"no run {run_id} in {runs_dir} ({path} is missing)",
                       hint="`ls` the runs folder, or pass --runs DIR")
    try:
        manifest = read_record(path, RunManifest)
    except RecordError as exc:
        raise RunError(str(exc), hint="run.json is written by phoneshell run; "
                                      "docs/runs.md describes it") from exc
    if manifest.run_id != run_id:  # a path, a name in every message: never taken from the file
        raise RunError(f"{path} names run {quoted(manifest.run_id)}, not {run_id}, the folder "
                       "it is in: nothing is written by that name",
                       hint="a run's folder is named by its id (runs/<run_id>/); resume the run "
                            "from the folder phoneshell made for it, or start a new run")
    return manifest


def resume_folder(runs_dir: Path, manifest: RunManifest, tasks: list[Task],
                  devices: list[DeviceInfo], sandbox: SandboxKind = "in-process",
                  sandbox_note: str = "") -> RunFolder:
    """Continue a run: same agent, tasks (unchanged files) and phones. A run continued with
    its agents unconfined is recorded so, whatever it began with (what the resume set aside
    as unsealed is recorded as it is moved: `runner.aside`). The manifest returned (when it
    was resumed, how its agents are confined) is written by the resume's first seal, never
    before: an unsigned run.json would no longer match its seal.

    Raises:
        RunError: a task file changed since the run began, or the phones differ
            (`check_resume`, which the caller runs before it moves anything).
    """
    check_resume(manifest, tasks, devices)
    run_dir = runs_dir / manifest.run_id
    try:
        rows = read_results(run_dir / RESULTS)
    except RecordError as exc:
        raise RunError(str(exc), hint="results.jsonl is damaged; start a new run") from exc
    update: dict[str, object] = {"resumed_at": (*manifest.resumed_at, time.time())}
    if manifest.tamper_proof and sandbox in ("none", "unavailable"):
        update.update(sandbox=sandbox, sandbox_note=f"resumed unconfined: {sandbox_note}")
    # not written here: run.json is signed, so it is written only by a seal (the resume's
    # first, under `stop.recording`); a stop before it leaves the run as its last seal has it
    manifest = manifest.model_copy(update=update)
    return RunFolder(run_dir, manifest, _scored(rows), _tries(rows))


def check_resume(manifest: RunManifest, tasks: list[Task], devices: list[DeviceInfo]) -> None:
    """Refuse to continue a run with another grader (`check_grader`), on changed task files or
    on other phones.

    Raises:
        RunError: naming both phoneshells, the task file, or the phones.
    """
    check_grader(manifest)
    recorded = {ref.id: ref.sha256 for ref in manifest.tasks}
    for task in tasks:
        if task.id in recorded and recorded[task.id] != task.sha256:
            raise RunError(f"task {task.id} ({task.file}) changed since run {manifest.run_id} "
                           "began; its scores would mix two versions",
                           hint="start a new run")
    # by udid where WDA reports one (a real phone, never slowed), else by kind: a simulated
    # iPhone at another latency is another kind of phone, since timeouts are wall clock
    was = sorted(d.udid_sha256 or d.phone_kind for d in manifest.devices)
    now = sorted(d.udid_sha256 or d.phone_kind for d in devices)
    if was != now:
        raise RunError(f"run {manifest.run_id} ran on other phones ({', '.join(was)}); "
                       f"this one would run on {', '.join(now)}",
                       hint="resume with the same --device, or start a new run")


def planned_attempts(manifest: RunManifest) -> list[tuple[str, int]]:
    """Every (task id, attempt) run.json plans: its tasks x its repeat. The plan is the record's,
    never the task files found now (one deleted since would drop out of it unseen)."""
    return [(ref.id, n) for ref in manifest.tasks for n in range(1, manifest.repeat + 1)]


def check_plan(manifest: RunManifest, tasks: list[Task], run_dir: Path) -> None:
    """Refuse to continue a run when a task it planned, with attempts still to run, is not
    among the tasks loaded now (its file deleted, moved, or left out with errors).

    A task whose every attempt is already scored needs no file: nothing of it runs again.

    Raises:
        RunError: naming each such task, the file run.json recorded and where it was looked for.
    """
    try:  # only what the seal vouches for: a resume sets the rest aside, after this check
        sealed = sealed_log(run_dir, RESULTS) if manifest.seal is not None else None
        lines = (read_lines(run_dir / RESULTS, ResultRow) if sealed is None else
                 parse_lines(sealed, ResultRow, str(run_dir / RESULTS)))
        if lines.problems:
            raise RecordError(lines.problems[0])
        scored = _scored(list(lines))
    except RecordError as exc:
        raise RunError(str(exc), hint="results.jsonl is damaged; start a new run") from exc
    loaded = {task.id for task in tasks}
    missing = [ref for ref in manifest.tasks if ref.id not in loaded and any(
        (ref.id, n) not in scored for n in range(1, manifest.repeat + 1))]
    if missing:
        globs = f" (tasks {', '.join(manifest.task_globs)})" if manifest.task_globs else ""
        raise RunError(
            f"run {manifest.run_id} planned {len(missing)} task(s) with attempts still to run "
            f"that are not among its task files now: "
            + "; ".join(f"{ref.id} (was {ref.file})" for ref in missing)
            + f"; looked for in {', '.join(manifest.paths)}{globs}",
            hint="put the files back as the run had them (run.json records their sha256), or "
                 "start a new run")


def write_note(path: Path, text: str) -> bool:
    """Append `text` to a file the harness keeps in a run folder (a traceback), never through a
    link, and say whether it was written: an agent that reached its attempt folder could have
    put a link there, naming a file for the harness to write over (it is left alone, and the
    note is lost rather than written there)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW
                     | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        os.write(fd, text.encode("utf-8", "replace"))
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def append_result(path: Path, row: ResultRow) -> None:
    """Append one results row, on disk (fsynced) before returning."""
    append_line(path, row)


def read_results(path: Path) -> list[ResultRow]:
    """Every row of a results.jsonl (a torn last line, from a crash, is no row).

    Raises:
        RecordError: a whole line does not match the schema.
    """
    lines = read_lines(path, ResultRow)
    if lines.problems:
        raise RecordError(lines.problems[0])
    return list(lines)


def _scored(rows: list[ResultRow]) -> frozenset[tuple[str, int]]:
    return frozenset((r.task_id, r.attempt) for r in rows if not r.skipped)


def _tries(rows: list[ResultRow]) -> dict[tuple[str, int], int]:
    tried: dict[tuple[str, int], int] = {}
    for row in rows:
        key = (row.task_id, row.attempt)
        tried[key] = tried.get(key, 0) + 1
    return tried
