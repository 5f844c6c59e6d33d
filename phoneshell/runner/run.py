"""A run: attempts of tasks against one or more phones, recorded in one folder.

Every phone gets its own bridge (all writing the run's one audit.jsonl) and its own worker
(`runner.workers`); the attempts are shared out as workers free up. A phone whose rig goes down
stops its worker, and its attempt in flight is recorded as skipped; the run stops early only
when no phone is left.
After every attempt the run's files are sealed into run.json (`phoneshell.seal`). `--resume`
continues a run whose seal holds, running only attempts not yet scored (`runner.resume`). One
process writes a run folder: it is locked before anything in it is written or moved
(`folder.writing`), and a second writer is refused.

A task file with an error is left out, named with its file:line, and the other tasks run: one
broken file must not cost a night's run. Ctrl-C, SIGTERM and SIGHUP (`runner.stop`) record the
attempt in flight as skipped (its teardown still runs), keep every row written, and say how to
resume; one more during that tidy-up cuts the teardown short but still records the attempt.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

from bridge import Trajectory, shared_writer
from phoneshell.agents import make_agent
from phoneshell.agents.command import CommandAgent, refuse_unstartable
from phoneshell.agents.sandbox import Sandbox
from phoneshell.agents.sandbox_choice import choose
from phoneshell.agents.size_limit import refuse_small_limit, under_limit
from phoneshell.errors import RunError
from phoneshell.kept import changed_hint
from phoneshell.phones.open import DeviceHandle, open_phones
from phoneshell.records import TRAJECTORY_FILE, RecordError, RunManifest, SandboxKind
from phoneshell.runner import stop
from phoneshell.runner.aside import set_aside
from phoneshell.runner.folder import (
    check_resume,
    check_run_id,
    check_task_ids,
    create_folder,
    load_manifest,
    new_run_id,
    planned_attempts,
    resume_folder,
    writing,
)
from phoneshell.runner.lines import resume_command
from phoneshell.runner.resume import (
    agent_setup,
    planned_tasks,
    refuse_changed_setup,
    run_latency,
)
from phoneshell.runner.selection import load_runnable, select_tasks
from phoneshell.runner.session import RunOptions, RunSummary
from phoneshell.runner.stop import stopped_line
from phoneshell.runner.unwritten import REASON, mended, said_error
from phoneshell.runner.workers import Progress, Workers
from phoneshell.seal import Sealer, load_key, refuse_stale
from phoneshell.untrusted import visible

__all__ = ["Progress", "RunInterrupted", "RunOptions", "RunSummary", "captures_frames",
           "run_suite", "sandbox_for", "stop_hint", "unconfined_line"]


class RunInterrupted(RunError):
    """Ctrl-C (or SIGTERM, SIGHUP) stopped the run; what was recorded stays, and the hint says
    how to go on."""


def captures_frames(options: RunOptions, recorded: RunManifest | None) -> bool:
    """Whether the run keeps the agent's screens: asked for, or a resumed run that did (its
    seal then goes on vouching for trajectory.jsonl)."""
    sealed = recorded.seal.logs if recorded is not None and recorded.seal is not None else ()
    return options.trajectory or any(log.path == TRAJECTORY_FILE for log in sealed)


def sandbox_for(agent_spec: str, choice: str) -> tuple[Sandbox, SandboxKind, str]:
    """The sandbox for the run's agent, and what run.json records: in-process for an agent
    that is harness code (it has no shell to reach anything with).

    Raises:
        RunError: a sandbox asked for by name that this machine cannot give.
    """
    sandbox = choose(choice)
    if not isinstance(make_agent(agent_spec), CommandAgent):
        return sandbox, "in-process", ""
    return sandbox, sandbox.kind, sandbox.note


def unconfined_line(kind: SandboxKind, note: str) -> str:
    """What a run says at start, and reports say of it, when agents ran unconfined."""
    return (f"agents run UNCONFINED ({note}): the agent can reach the run folder and the "
            f"phone around the bridge; this run's results are not tamper-proof"
            if kind in ("none", "unavailable") else "")


def _shown(progress: Progress) -> Progress:
    """`progress` given each line escaped for a terminal (once: escaping is idempotent)."""
    return lambda line: progress(visible(line))


def run_suite(options: RunOptions, progress: Progress) -> RunSummary:
    """Run every selected task `repeat` times; record each attempt as it ends. Each line given
    to `progress` is as a terminal may show it (`untrusted.visible`): it names what agents
    chose (bundle ids, errors, their programs' stderr). The run folder is locked to this
    process (`folder.writing`) from before anything in it is written or moved until the run
    ends: a second writer is refused, naming this one."""
    progress = _shown(progress)
    refuse_small_limit()  # the file-size limit, read once: too small for its own files, no run
    held = ExitStack()
    try:
        recorded = None
        if options.resume:
            if not options.run_id:
                raise RunError("--resume needs the run id", hint="phoneshell run --resume RUN_ID")
            recorded = load_manifest(options.runs_dir, options.run_id)
            held.enter_context(writing(options.runs_dir / recorded.run_id, recorded.run_id))
        return _run(options, recorded, held, progress)
    finally:
        held.close()


def _run(options: RunOptions, recorded: RunManifest | None, held: ExitStack,
         progress: Progress) -> RunSummary:
    """`run_suite` once the folder of a run to resume is locked (a new one is locked when it
    is made, into `held`)."""
    agent_spec, paths, globs, repeat = options.agent, options.paths, options.task_globs, \
        options.repeat
    if recorded is not None:  # its agent, tasks and repeat count are the run's
        agent_spec, paths, globs, repeat = (recorded.agent, recorded.paths,
                                            recorded.task_globs, recorded.repeat)
    loaded, left_out = load_runnable(paths, progress)
    tasks = select_tasks(loaded, globs)
    setup = agent_setup(agent_spec)
    key = load_key(create=True)
    if recorded is not None:  # every check that can refuse comes before anything is moved
        run_dir = options.runs_dir / recorded.run_id
        # first: a folder put back says so, whatever else; the one check of it a resume makes
        # (its proof is handed to the set-aside and the sealer)
        checked = refuse_stale(run_dir, recorded, key)
        tasks = planned_tasks(recorded, tasks, left_out, run_dir, progress)
        refuse_changed_setup(recorded, setup)
    check_task_ids(tasks)
    sandbox, kind, why = sandbox_for(agent_spec, options.sandbox)  # also: an unknown agent
    sandbox = sandbox.hiding(paths, runs_dir=options.runs_dir)  # and the harness's secrets
    if agent_spec.startswith("command:"):
        sandbox.refuse_named_secrets(agent_spec.removeprefix("command:"), Path.cwd())
        refuse_unstartable(make_agent(agent_spec), sandbox)  # one look, before any phone
    run_id = check_run_id(options.run_id or new_run_id())
    if unconfined_line(kind, why):
        progress(unconfined_line(kind, why))
    for line in setup:
        progress(f"agent setup (recorded in run.json): {line}")
    # a resume starts the simulated phones the run began on: their seeds and latency are
    # recorded (half a run at a real phone's pace, half at once, would claim one rig)
    seeds = [d.seed for d in recorded.devices if d.kind == "sim"] if recorded else []
    latency = run_latency(recorded) if recorded else options.latency
    with open_phones(options.device, run_id, latency, seeds) as (devices, note):
        progress(note)
        infos = [d.info for d in devices]
        writer = shared_writer(options.runs_dir)
        chain = functools.partial(writer.chain_state, run_id)  # the bridge's view
        trajectory = (Trajectory(options.runs_dir)
                      if captures_frames(options, recorded) else None)
        frames = functools.partial(trajectory.chain_state, run_id) if trajectory else None
        # run.json is written signed, in one step with what it records: a stop in between
        # would leave a run.json no seal matches (a resume's), or one no seal vouches for in
        # a folder that held another run (a new run's)
        if recorded is not None:
            check_resume(recorded, tasks, infos)
            checked = set_aside(run_dir, recorded, key, progress, checked)  # moved, recorded
            recorded = checked.manifest
            folder = resume_folder(options.runs_dir, recorded, tasks, infos, kind, why)
            sealer = Sealer.resume(folder.run_dir, key, chain, recorded, frames, checked)
        else:
            held.enter_context(writing(options.runs_dir / run_id, run_id))
            with stop.recording():
                folder = create_folder(options.runs_dir, run_id, agent_spec, paths, globs,
                                       repeat, tasks, infos, kind, why, left_out, setup)
                sealer = Sealer(folder.run_dir, key, chain, frames_chain=frames)
                folder = replace(folder, manifest=sealer.seal(folder.manifest))
        sealer.say = progress  # a record an unconfined agent changed is said as it is found
        plans = [(t, n) for t in tasks for n in range(1, repeat + 1)
                 if (t.id, n) not in folder.scored]
        record = planned_attempts(folder.manifest)  # the plan is run.json's (check_plan)
        summary = RunSummary(folder.run_id, folder.run_dir, left_out=folder.manifest.left_out,
                             already_scored=sum(key in folder.scored for key in record),
                             planned=len(plans))
        # a turn's share of the log stays under the file-size limit, as its output's copy does
        run = Workers(folder, plans, agent_spec, progress, summary, sandbox, sealer, trajectory,
                      under_limit(options.agent_log_bytes))
        _go(run, devices, resume_command(options.runs_dir, folder.run_id, options.device,
                                         options.sandbox))
    # imported here: the report's modules are needed only once the run has ended
    from phoneshell.report.runs import record_of
    from phoneshell.report.tally import agent_numbers

    try:
        summary.record = record_of(folder.run_dir)
    except RecordError as exc:  # only the harness writes those files: not its code's fault
        raise unreadable(summary, exc) from exc
    summary.numbers = agent_numbers(summary.record)
    return summary


def unreadable(summary: RunSummary, exc: RecordError) -> RunError:
    """The error for a run folder whose run.json or results.jsonl the run cannot read back at
    its end (`exc` says which file and what is wrong: a folder in a file's place): something
    but the harness changed it (`kept.changed_hint`)."""
    stopped = f" (it had stopped early: {summary.stopped})" if summary.stopped else ""
    return RunError(
        f"run {summary.run_id} ended, but its folder cannot be read back: {exc}{stopped}",
        hint=changed_hint(summary.run_dir))


def _go(run: Workers, devices: Sequence[DeviceHandle], again: str) -> None:
    """Play the run's attempts, sealed before the first and after the last; a stop (Ctrl-C,
    SIGTERM, SIGHUP) is said with the command that goes on.

    Raises:
        RunInterrupted: it was stopped.
        RunError: no phone ran an attempt.
    """
    summary, folder = run.summary, run.folder
    stopped: KeyboardInterrupt | None = None
    try:
        with stop.recording():
            run.manifest = run.sealer.seal(run.manifest)  # a run cut short at once verifies
        run.go(devices)
    except KeyboardInterrupt as exc:
        stopped = exc
    finally:
        # what the phones logged after the last attempt (a preflight, with nothing left to
        # run or a rig down before any attempt) is sealed too, or the run would not verify;
        # a worker still in flight (a second Ctrl-C) records nothing after it
        try:
            with stop.recording(), run.lock:
                run.manifest = run.sealer.seal(run.manifest)
                run.closed = True
        except KeyboardInterrupt as exc:  # came during the seal, which is whole
            stopped = stopped or exc
    if stopped is not None:
        raise RunInterrupted(
            f"{stopped_line(stopped)}: run {folder.run_id} stopped after {run.done} of "
            f"{run.total} attempt(s); every one recorded is kept in {folder.run_dir}",
            hint=f"continue it: {again}")
    if run.queue or (run.down and len(run.down) == len(devices)):
        summary.stopped = "; ".join(run.down) or "stopped"
        if not summary.rows:
            raise RunError(f"run {folder.run_id} did not start: {summary.stopped}",
                           hint=stop_hint(summary.stopped, again))


def stop_hint(stopped: str, again: str) -> str:
    """The hint for a run that stopped early (`stopped`, the phones' reasons) with `again` the
    command that goes on: what mends the run folder when it was the folder's
    (`unwritten.mended`), never the phone's chain; else `phoneshell doctor`."""
    if REASON in stopped:
        return f"{mended(said_error(stopped))}, then `{again}`"
    return (f"continue it once what stopped it is mended: `{again}` (`phoneshell doctor "
            "--device ...` checks the chain to a phone)")
