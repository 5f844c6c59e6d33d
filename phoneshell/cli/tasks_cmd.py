"""Commands that need no device: check-tasks, schema, implications, grade."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from phoneshell.checks import CHECKS
from phoneshell.cli import regrade
from phoneshell.errors import TaskFileError
from phoneshell.implication import describe_pairs, implied_pairs
from phoneshell.records import plain
from phoneshell.tasks import (
    PATHS_HELP,
    STEPS,
    Task,
    TaskSet,
    check_tasks,
    default_task_paths,
    load_task,
    load_tasks,
)
from phoneshell.tasks.probes import PROBES
from phoneshell.tasks.schema import task_schema


def add_parsers(commands: Any) -> None:
    """Register this module's subcommands."""
    p = commands.add_parser("check-tasks", help="validate task files (exit 1 on any error)")
    p.add_argument("paths", nargs="*", default=default_task_paths(), metavar="PATH",
                   help=PATHS_HELP)
    p.add_argument("--list", action="store_true",
                   help="also print every valid task: its id, then its file")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run_check_tasks)

    p = commands.add_parser("schema", help="print the JSON Schema of task files")
    p.add_argument("--kinds", action="store_true", help="list the check kinds instead")
    p.add_argument("--steps", action="store_true", help="list the step kinds instead")
    p.add_argument("--probes", action="store_true", help="list the probes instead")
    p.set_defaults(run=run_schema)

    p = commands.add_parser("implications",
                            help="find tasks whose checks pass on another task's finish")
    p.add_argument("paths", nargs="*", default=default_task_paths(), metavar="PATH",
                   help=PATHS_HELP)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--strict", action="store_true",
                   help="exit 1 when any pair is not marked compatible_with")
    p.set_defaults(run=run_implications)

    p = commands.add_parser("grade", help="grade a recorded attempt's evidence offline")
    p.add_argument("evidence", metavar="EVIDENCE_DIR")
    p.add_argument("--task", required=True, metavar="FILE_OR_ID",
                   help="a task file, or a task id found in --tasks")
    p.add_argument("--tasks", nargs="+", default=default_task_paths(), metavar="PATH",
                   help=f"where to look up a task id; {PATHS_HELP.removeprefix('task files or ')}")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--unverified", action="store_true",
                   help="grade evidence whose files do not match its run's seal, marked so "
                        "(refused without this)")
    p.add_argument("--task-changed", action="store_true",
                   help="grade under a task file other than the one the run graded the "
                        "attempt by (its sha256 differs), marked so (refused without this)")
    p.set_defaults(run=run_grade)


def run_check_tasks(args: argparse.Namespace) -> int:
    """Print every problem of every file; exit 1 if any is an error."""
    tasks, problems = check_tasks(args.paths)
    errors = [p for p in problems if p.severity == "error"]
    warnings = [p for p in problems if p.severity == "warning"]
    if args.format == "json":
        print(json.dumps({"tasks": len(tasks), "errors": len(errors), "warnings": len(warnings),
                          "problems": plain(problems),
                          "ids": {t.id: t.file for t in tasks}}, indent=2))
    else:
        if args.list:
            width = max((len(t.id) for t in tasks), default=0)
            for task in tasks:
                print(f"{task.id:<{width}}  {task.file}")
        for problem in problems:
            print(problem)
        print(f"{len(tasks)} task(s) valid, {len(errors)} error(s), {len(warnings)} warning(s)")
    return 1 if errors else 0


def run_schema(args: argparse.Namespace) -> int:
    """Print the schema, or the check or step vocabulary with one line each."""
    if args.kinds:
        order = ("state", "path", "effect", "answer")
        for name, kind in sorted(CHECKS.items(), key=lambda item: order.index(item[1].family)):
            print(f"{name:26} {kind.family:7} {kind.doc}")
    elif args.steps:
        for name, step in STEPS.items():
            print(f"{name:14} {step.doc}")
    elif args.probes:
        for name, spec in PROBES.items():
            print(f"{name:20} {spec.kind:6} {spec.doc}")
    else:
        print(json.dumps(task_schema(), indent=2))
    return 0


def run_implications(args: argparse.Namespace) -> int:
    """Print implied pairs; with --strict, exit 1 when any pair is not compatible."""
    tasks = load_tasks(args.paths).tasks
    pairs = implied_pairs(tasks)
    loose = [p for p in pairs if not p.compatible]
    if args.format == "json":
        print(json.dumps({"tasks": len(tasks), "pairs": [
            {"implied": p.implied.id, "by": p.by.id, "compatible": p.compatible}
            for p in pairs]}, indent=2))
    else:
        for line in describe_pairs(pairs):
            print(line)
        print(f"{len(tasks)} tasks, {len(pairs)} implied pair(s), {len(loose)} not marked "
              "compatible")
    return 1 if args.strict and loose else 0


def _find_task(spec: str, search: list[str]) -> Task:
    """The task file `spec`, or the task with id `spec` among `search`, which loads even when
    another file there is broken (that one cannot be the task asked for)."""
    path = Path(spec)
    if path.suffix in (".yaml", ".yml") or path.is_file():
        return load_task(path)
    tasks, problems = check_tasks(search)
    found = next((t for t in tasks if t.id == spec), None)
    if found is not None:
        return found
    if any(p.severity == "error" for p in problems):
        raise TaskFileError(problems)  # the broken file may be the one that holds it
    return TaskSet(tuple(tasks)).get(spec)  # "did you mean"


def run_grade(args: argparse.Namespace) -> int:
    """Grade an evidence folder as the task asked for (`cli.regrade`)."""
    return regrade.run_grade(args, _find_task(args.task, args.tasks))
