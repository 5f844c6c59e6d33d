"""`phoneshell run --resume`: what a resume may be asked, what it sets aside before going on, and
which of the run's tasks it plays. The caller holds the run folder's lock (`folder.writing`)
before anything here moves a file.

A resume goes on with the run's own agent, tasks, repeat count and simulated iPhones (their seeds
and latency), from run.json: an option that says otherwise is refused, never dropped (the run
would not be what the command line says).
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path

from phoneshell.agents.environment import EXPOSE_TASK_FILE
from phoneshell.errors import DeviceError, RunError, shown_url
from phoneshell.phones.resolve import resolve_devices
from phoneshell.records import LeftOut, RunManifest
from phoneshell.runner.folder import check_plan
from phoneshell.tasks import Task
from phoneshell.untrusted import named, one_line

Progress = Callable[[str], None]


def _same_paths(given: Sequence[str], recorded: Sequence[str]) -> bool:
    """Whether two lists of task files or folders name the same ones, however spelled
    (`environments`, `./environments/`, its absolute path)."""
    return {Path(p.strip()).resolve() for p in given} == {Path(p.strip()).resolve()
                                                           for p in recorded}


PROGRAM_BYTES = 64 << 20
"""The largest program file hashed whole (a bigger one is recorded by its size)."""


PROGRAM = "program "
"""How an `agent_setup` line naming a command agent's program file begins."""


def agent_setup(agent: str) -> tuple[str, ...]:
    """What changes what the run's agent gets beyond its spec and the sandbox (run.json's
    `agent_setup`, which every report says and a resume must match): the harness settings it
    hands on (`PHONESHELL_EXPOSE_TASK_FILE=1` gives a `command:` agent the task file, the answer
    key), and for a `command:` agent the sha256 of each file its command line names that exists
    (its program: the same spec running another program is another agent)."""
    setup = [f"{EXPOSE_TASK_FILE}=1: agents were handed the task file (its checks and "
             "reference finish: the answer key)"] if os.environ.get(EXPOSE_TASK_FILE) == "1" \
        else []
    program = program_file(agent.removeprefix("command:")) if agent.startswith("command:") \
        else None
    if program is not None:
        try:
            size = program.stat().st_size
            digest = (hashlib.sha256(program.read_bytes()).hexdigest()
                      if size <= PROGRAM_BYTES else f"{size} bytes (too big to hash)")
            setup.append(f"{PROGRAM}{program}: sha256 {digest}")
        except OSError as exc:
            setup.append(f"{PROGRAM}{program}: unreadable ({exc.strerror or exc})")
    return tuple(setup)


INTERPRETERS = re.compile(r"(python|pypy|node|deno|bun|bash|sh|zsh|dash|ruby|perl|php|uv)"
                          r"[0-9.]*(\.exe)?")
"""Commands whose first plain word after them is the program they run."""


def program_file(command: str) -> Path | None:
    """The program file a command line runs, when it names one that exists: its first word
    (`./agent.sh`), or an interpreter's script (`python3 examples/agents/x.py`); None for a
    command that names none (`sleep 3`, `python3 -m mod`, `sh -c '...'`)."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    for word in words:
        if word.startswith("-"):
            if word in ("-m", "-c", "-e"):
                return None  # a module or inline code: no program file
            continue
        if "=" in word and not word.startswith(("/", ".")):
            continue  # an environment assignment (VAR=1 prog)
        if INTERPRETERS.fullmatch(Path(word).name) or Path(word).name == "env":
            continue  # the interpreter (a file too): the program is what it runs
        return Path(word) if Path(word).is_file() else None
    return None


def refuse_changed_setup(recorded: RunManifest, setup: Sequence[str]) -> None:
    """Refuse a resume whose agent would get something else than the run's did.

    Raises:
        RunError: naming what the run recorded and what this resume would give.
    """
    if tuple(setup) == recorded.agent_setup:
        return
    was, now = set(recorded.agent_setup), set(setup)

    def shown(lines: set[str]) -> str:
        return "; ".join(sorted(lines)) or "(nothing)"

    raise RunError(f"--resume {recorded.run_id}: its agent would get something else than the "
                   f"run's did: the run recorded {shown(was - now)}, this resume has "
                   f"{shown(now - was)} (run.json's agent_setup)",
                   hint=f"resume with the environment and program files the run began with "
                        f"({EXPOSE_TASK_FILE} set as it was), or start a new run")


def _same_agent(given: str, recorded: str) -> bool:
    """Whether two agent specs name the same agent, however spaced (`' null'`, `null`; a
    `command:` agent's words, as its shell splits them)."""
    given, recorded = given.strip(), recorded.strip()
    if given == recorded:
        return True
    kind, _, rest = given.partition(":")
    was_kind, _, was_rest = recorded.partition(":")
    if kind.strip() != was_kind.strip():
        return False
    try:
        return shlex.split(rest) == shlex.split(was_rest)
    except ValueError:
        return rest.split() == was_rest.split()


def run_latency(recorded: RunManifest) -> str:
    """The latency profile the run's simulated iPhones answered at, which a resume goes on at
    ("none" for a run on real phones, or recorded before run.json said it)."""
    return next((d.latency for d in recorded.devices if d.latency), "none")


def refuse_contradictions(recorded: RunManifest, *, agent: str | None = None,
                          repeat: int | None = None, task_globs: Sequence[str] | None = None,
                          paths: Sequence[str] | None = None, run_id: str | None = None,
                          latency: str | None = None) -> None:
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
    if agent is not None and not _same_agent(agent, recorded.agent):
        wrong.append(f"--agent {agent!r} (the run's agent is {recorded.agent!r})")
    if repeat is not None and repeat != recorded.repeat:
        wrong.append(f"--repeat {repeat} (the run's is {recorded.repeat})")
    if task_globs is not None and set(task_globs) != set(recorded.task_globs):
        wrong.append(f"--task {shown(task_globs)} (the run's: {shown(recorded.task_globs)})")
    if paths is not None and not _same_paths(paths, recorded.paths):
        wrong.append(f"task paths {shown(paths)} (the run's: {shown(recorded.paths)})")
    if latency is not None and latency != run_latency(recorded):
        wrong.append(f"--latency {latency} (the run's phones answered at --latency "
                     f"{run_latency(recorded)})")
    if wrong:
        raise RunError(
            f"--resume {recorded.run_id} goes on with the run's own agent, tasks, repeat "
            f"count and latency (run.json), but was given {'; '.join(wrong)}",
            hint=f"drop them to continue run {recorded.run_id} as it began, or start a new run "
                 "with them (without --resume)")


def check_resume_device(manifest: RunManifest, device: str | None) -> None:
    """Refuse a resume whose `--device` names other phones than the run's, where that shows
    before any phone starts: a real phone for a run on simulated iPhones (the run's latency
    is not the user's to give), simulated iPhones for a run on real phones, or another number
    of simulated iPhones. Which real phone it is, `check_resume` says once the phones answer.

    Raises:
        RunError: naming the phones run.json recorded and those `--device` gives.
    """
    sims = [d for d in manifest.devices if d.kind == "sim"]
    real = [d for d in manifest.devices if d.kind != "sim"]
    spec = (device or "sim").strip()
    try:
        given = resolve_devices(spec) if spec == "sim" or spec.startswith("sim:") else None
    except DeviceError as exc:  # sim:0, sim:x
        raise RunError(exc.message, hint=exc.hint) from exc
    if not manifest.devices or (given is None and not sims) or (
            given is not None and len(given) == len(sims) and not real):
        return
    def iphones(count: int) -> str:
        return f"{count} simulated iPhone{'s' if count > 1 else ''}"

    if sims:
        latency = run_latency(manifest)
        was = iphones(len(sims)) + (f" at --latency {latency}" if latency != "none" else "")
        again = "sim" if len(sims) == 1 else f"sim:{len(sims)}"
        hint = f"resume with --device {again}, as the run began, or start a new run"
    else:
        was = ", ".join(f"{d.kind} {one_line(d.url)}" for d in real)
        hint = "resume with the --device the run was given, or start a new run"
    if device is None:
        now = "no --device starts a simulated iPhone"
    elif given is not None:
        now = f"--device {spec} starts {iphones(len(given))}"  # sim or sim:N, as it read
    else:
        now = f"--device {shown_url(spec) if '://' in spec else named(spec)} is a real phone"
    raise RunError(f"--resume {manifest.run_id}: the run ran on {was} (run.json); {now}",
                   hint=hint)


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
        progress(f"not part of run {recorded.run_id}, left out: "
                 f"{', '.join(named(t) for t in added)}")
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
                 f"errors when it began ({', '.join(named(o.file) for o in recorded.left_out)}): "
                 "a resume runs only the tasks the run planned, so they stay left out and the "
                 "run cannot pass; start a new run to include them")
    was = {out.file for out in recorded.left_out}
    new = [out.file for out in now if out.file not in was]
    if new:
        progress(f"left out of this resume for errors, not of run {recorded.run_id}'s record: "
                 f"{', '.join(named(file) for file in new)}")
