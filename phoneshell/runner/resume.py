"""`phoneshell run --resume`: what a resume may be asked, what it sets aside before going on, and
which of the run's tasks it plays. The caller holds the run folder's lock (`folder.writing`)
before anything here moves a file.

A resume goes on with the run's own agent, tasks and repeat count, from run.json: an option that
says otherwise is refused, never dropped (the run would not be what the command line says).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from phoneshell.errors import RunError
from phoneshell.records import LeftOut, RunManifest
from phoneshell.runner.folder import INCOMPLETE, check_plan, set_aside_incomplete
from phoneshell.seal import set_aside_unsealed, verify_run
from phoneshell.tasks import Task

Progress = Callable[[str], None]


def _same_paths(given: Sequence[str], recorded: Sequence[str]) -> bool:
    """Whether two lists of task files or folders name the same ones, however spelled
    (`environments`, `./environments/`, its absolute path)."""
    return {Path(p).resolve() for p in given} == {Path(p).resolve() for p in recorded}


def refuse_contradictions(recorded: RunManifest, *, agent: str | None = None,
                          repeat: int | None = None, task_globs: Sequence[str] | None = None,
                          paths: Sequence[str] | None = None, run_id: str | None = None) -> None:
    """Refuse options given with `--resume` that contradict the run's run.json (None: not
    given). One that agrees passes: a resume command may spell the run out whole.

    Raises:
        RunError: naming each such option, what was given and what the run recorded.
    """
    def shown(values: Sequence[str]) -> str:
        return " ".join(values) if values else "(none)"

    wrong = []
    if run_id is not None and run_id != recorded.run_id:
        wrong.append(f"--run-id {run_id} (resuming run {recorded.run_id})")
    if agent is not None and agent != recorded.agent:
        wrong.append(f"--agent {agent!r} (the run's agent is {recorded.agent!r})")
    if repeat is not None and repeat != recorded.repeat:
        wrong.append(f"--repeat {repeat} (the run's is {recorded.repeat})")
    if task_globs is not None and sorted(task_globs) != sorted(recorded.task_globs):
        wrong.append(f"--task {shown(task_globs)} (the run's: {shown(recorded.task_globs)})")
    if paths is not None and not _same_paths(paths, recorded.paths):
        wrong.append(f"task paths {shown(paths)} (the run's: {shown(recorded.paths)})")
    if wrong:
        raise RunError(
            f"--resume {recorded.run_id} goes on with the run's own agent, tasks and repeat "
            f"count (run.json), but was given {'; '.join(wrong)}",
            hint=f"drop them to continue run {recorded.run_id} as it began, or start a new run "
                 "with them (without --resume)")


def set_aside(run_dir: Path, recorded: RunManifest, progress: Progress) -> list[str]:
    """Move aside what the run wrote after its last seal (a run killed mid-way), say so, and
    return what was moved; then refuse a run whose sealed record does not hold.

    Raises:
        RunError: the run does not match its seal.
    """
    aside = [*set_aside_unsealed(run_dir, run_dir / INCOMPLETE),
             *(f"attempt {moved}" for moved in set_aside_incomplete(run_dir))]
    if aside:
        progress(f"the run stopped before it sealed what it wrote last; set aside in "
                 f"{INCOMPLETE}/, never graded: {'; '.join(aside)} (its attempts are "
                 "played again)")
    problems = verify_run(run_dir)
    if problems and recorded.seal is not None:
        raise RunError(f"run {recorded.run_id} does not match its seal, so it cannot be "
                       "continued: " + "; ".join(problems[:3]),
                       hint="start a new run; `phoneshell report` says what changed")
    return aside


def planned_tasks(recorded: RunManifest, tasks: list[Task], left_out: Sequence[LeftOut],
                  run_dir: Path, progress: Progress) -> list[Task]:
    """The run's tasks among those loaded now: one added to its folders since was never planned
    (said, and left out).

    Raises:
        RunError: a task the run planned, with attempts still to run, is missing now.
    """
    say_left_out(recorded, left_out, progress)
    planned = {ref.id for ref in recorded.tasks}
    added = [t.id for t in tasks if t.id not in planned]
    if added:
        progress(f"not part of run {recorded.run_id}, left out: {', '.join(added)}")
    tasks = [t for t in tasks if t.id in planned]
    check_plan(recorded, tasks, run_dir)
    return tasks


def say_left_out(recorded: RunManifest, now: Sequence[LeftOut], progress: Progress) -> None:
    """What a resume does with task files left out for errors: those run.json records stay left
    out (the run planned none of their tasks, so it cannot pass, whatever their files hold now);
    one broken only now changes nothing recorded (a task of it the run planned, with attempts
    still to run, stops the resume)."""
    if recorded.left_out:
        progress(f"run {recorded.run_id} left out {len(recorded.left_out)} task file(s) with "
                 f"errors when it began ({', '.join(out.file for out in recorded.left_out)}): "
                 "a resume runs only the tasks the run planned, so they stay left out and the "
                 "run cannot pass; start a new run to include them")
    was = {out.file for out in recorded.left_out}
    new = [out.file for out in now if out.file not in was]
    if new:
        progress(f"left out of this resume for errors, not of run {recorded.run_id}'s record: "
                 f"{', '.join(new)}")
