"""Load task files before a phone is touched: found under paths, read, parsed, checked together.

Every problem in every file is reported at once (each file is parsed whole: `parse.py`). A file
over `MAX_TASK_BYTES` is refused unread (a task file is a few kilobytes; a 50 MB one took PyYAML
37 s and 290 MB). Across files, a task id is used once, and `compatible_with` names a loaded
task.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from phoneshell.errors import Problem, TaskFileError, UnknownName
from phoneshell.records import RecordError, read_bytes
from phoneshell.registry import close_matches
from phoneshell.tasks.model import Task
from phoneshell.tasks.parse import parse_task

MAX_TASK_BYTES = 1024 * 1024
"""The largest task file read (1 MiB; the suite's largest is under 4 KiB)."""


def task_files(paths: Iterable[str | Path]) -> tuple[list[Path], list[Problem]]:
    """Expand files and folders (recursively, *.yaml and *.yml, sorted) into task files, each
    once: a file named twice, or again inside a folder named (or through a link to it, as
    `phoneshell/suite` is to `environments`), is one task, not a duplicate."""
    files, problems = _task_files(paths)
    seen: set[Path] = set()
    once = []
    for path in files:
        real = path.resolve()
        if real not in seen:
            seen.add(real)
            once.append(path)
    return once, problems


def _task_files(paths: Iterable[str | Path]) -> tuple[list[Path], list[Problem]]:
    files: list[Path] = []
    problems: list[Problem] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            named = sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml")
                           and not p.is_dir() and not any(part.startswith(".") for part in
                                                          p.relative_to(path).parts))
            found = [p for p in named if p.is_file()]
            # a task file moved away leaves its link behind, and a pipe named so is no file:
            # either is a task that would never run, so it is named, as it is given by path
            problems.extend(Problem(str(p), 0, 0, f"a link to {os.readlink(p)}, which leads "
                                    "nowhere: the task file it named was moved or deleted"
                                    if p.is_symlink() else "not a regular file, so it cannot be "
                                    "a task file") for p in named if not p.is_file())
            if not found:
                problems.append(Problem(str(path), 0, 0, "no task files (*.yaml) in this folder"))
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            problems.append(Problem(str(path), 0, 0, "no such file or folder"))
    return files, problems


@dataclass(frozen=True)
class TaskSet:
    """Tasks loaded from files, in file order, and the warnings they raised."""

    tasks: tuple[Task, ...]
    warnings: tuple[Problem, ...] = ()

    def get(self, task_id: str) -> Task:
        """The task with `task_id` (raises `UnknownName` with close matches)."""
        for task in self.tasks:
            if task.id == task_id:
                return task
        raise UnknownName("task", task_id, close_matches(task_id, self.ids()),
                          "phoneshell check-tasks --list PATHS")

    def ids(self) -> list[str]:
        """Every task id, in file order."""
        return [t.id for t in self.tasks]


def check_tasks(paths: Iterable[str | Path]) -> tuple[list[Task], list[Problem]]:
    """Validate every task file under `paths`; return good tasks and all problems, never raise."""
    files, problems = task_files(paths)
    tasks: list[Task] = []
    first_seen: dict[str, Task] = {}
    for path in files:
        try:
            # bytes, then decode: read_text would turn CRLF into LF, and the hash run.json
            # records must be the file's own (what sha256sum prints)
            text = read_bytes(path, MAX_TASK_BYTES).decode("utf-8")
        except RecordError as exc:  # names the file: missing, a FIFO, or over the limit
            problems.append(Problem(str(path), 0, 0, f"cannot read the task file: "
                                                     f"{str(exc).removeprefix(f'{path}: ')}"))
            continue
        except UnicodeDecodeError as exc:
            problems.append(Problem(str(path), 0, 0, f"not UTF-8 text ({exc.reason} at byte "
                                                     f"{exc.start})"))
            continue
        task, found = parse_task(text, str(path))
        problems.extend(found)
        if task is None:
            continue
        if task.id in first_seen:
            other = first_seen[task.id]
            problems.append(Problem(str(path), 1, 1, f"duplicate task id {task.id!r}: also in "
                                                     f"{other.file}"))
            continue
        first_seen[task.id] = task
        tasks.append(task)
    known = set(first_seen)
    for task in tasks:
        for other_id in task.compatible_with:
            if other_id not in known:
                problems.append(Problem(task.file, 1, 1, f"compatible_with names {other_id!r}, "
                                                         "which is not among the loaded tasks",
                                        "warning"))
    return tasks, problems


def load_tasks(paths: Iterable[str | Path]) -> TaskSet:
    """Load and validate tasks from files and folders.

    Raises:
        TaskFileError: any file has an error; it carries every problem of every file.
    """
    tasks, problems = check_tasks(paths)
    if any(p.severity == "error" for p in problems):
        raise TaskFileError(problems)
    return TaskSet(tuple(tasks), tuple(p for p in problems if p.severity == "warning"))


def load_task(path: str | Path) -> Task:
    """Load one task file (raises `TaskFileError` on any error)."""
    return load_tasks([path]).tasks[0]
