"""Which tasks a run plays: the task files that load (a broken one is left out and named with
its file:line, never the end of the run) and the ids the `--task` globs pick."""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Sequence

from phoneshell.errors import Problem, RunError, TaskFileError
from phoneshell.records import LeftOut
from phoneshell.registry import close_matches
from phoneshell.tasks import Task, check_tasks

LIST_HINT = "`phoneshell check-tasks --list PATHS` lists every task id"


def select_tasks(tasks: Sequence[Task], globs: Sequence[str]) -> list[Task]:
    """Tasks whose id matches any glob (all tasks when there are none).

    Raises:
        RunError: a glob matches no task (a typo would silently drop tasks), with the closest
            ids.
    """
    if not globs:
        return list(tasks)
    ids = [t.id for t in tasks]
    for glob in globs:
        if not any(fnmatch.fnmatchcase(i, glob) for i in ids):
            close = close_matches(glob, ids)
            guess = f"; did you mean {close[0]!r}?" if close else ""
            raise RunError(f"no task id matches {glob!r}{guess}", hint=LIST_HINT)
    return [t for t in tasks if any(fnmatch.fnmatchcase(t.id, g) for g in globs)]


def load_runnable(paths: Sequence[str], progress: Callable[[str], None],
                  ) -> tuple[list[Task], tuple[LeftOut, ...]]:
    """The tasks that load, and the files left out (for run.json, so every report of the run
    says so): each error is printed with its file:line.

    Raises:
        TaskFileError: no task loads at all.
    """
    tasks, problems = check_tasks(paths)
    errors = [p for p in problems if p.severity == "error"]
    if not tasks:
        raise TaskFileError(problems or [Problem(", ".join(paths), 0, 0, "no task files")])
    for problem in errors:
        progress(str(problem))
    files = dict.fromkeys(p.file for p in errors)
    left_out = tuple(LeftOut(file=file, errors=tuple(str(p) for p in errors if p.file == file))
                     for file in files)
    if left_out:
        progress(f"left out {len(left_out)} task file(s) with errors; running the other "
                 f"{len(tasks)} task(s)")
    return tasks, left_out
