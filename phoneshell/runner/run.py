"""A run: many attempts against one phone, in one folder (run.json, results.jsonl, attempts/).

With no device given the run starts a simulated iPhone in-process and says so. A rig that goes
down stops the run; what was recorded stays recorded.
"""

from __future__ import annotations

import fnmatch
import hashlib
import secrets
import subprocess
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from phoneshell import __version__
from phoneshell.agents import make_agent
from phoneshell.device import Phone
from phoneshell.errors import DeviceError, RunError
from phoneshell.runner.attempt import AttemptPlan, run_attempt
from phoneshell.runner.results import (
    RUN_VERSION,
    DeviceInfo,
    ResultRow,
    RunManifest,
    TaskRef,
    append_result,
)
from phoneshell.tasks import Task, load_tasks

Progress = Callable[[str], None]


@dataclass(frozen=True)
class RunOptions:
    """What `phoneshell run` was asked to do."""

    paths: tuple[str, ...]
    agent: str = "solution"
    device: str | None = None
    """`sim`, a WDA URL, or None for an in-process simulated iPhone."""
    task_globs: tuple[str, ...] = ()
    runs_dir: Path = Path("runs")
    run_id: str | None = None
    repeat: int = 1


@dataclass
class RunSummary:
    """What a run did, for the closing lines and `--format json`."""

    run_id: str
    run_dir: Path
    rows: list[ResultRow] = field(default_factory=list)
    stopped: str = ""
    """Why the run stopped early ("" when it ran every attempt)."""

    def counts(self) -> Counter[str]:
        """Attempts by outcome."""
        return Counter(row.outcome for row in self.rows)


@dataclass(frozen=True)
class DeviceHandle:
    """A phone ready to use: its URL and what the manifest records about it."""

    url: str
    info: DeviceInfo
    note: str = ""
    """Said once at the start ("no --device given: running on a simulated iPhone ...")."""


@contextmanager
def open_device(spec: str | None) -> Iterator[DeviceHandle]:
    """Resolve `--device`: an in-process simulator (`sim` or nothing) or a WDA URL."""
    if spec in (None, "sim"):
        from phoneshell.sim import SimServer  # the simulator is a device: only started here

        with SimServer() as sim:
            note = ("no --device given: " if spec is None else "") + \
                f"running on a simulated iPhone at {sim.url}"
            yield DeviceHandle(sim.url, DeviceInfo("sim", sim.url), note)
        return
    if spec.startswith(("http://", "https://", "http+usbmux://")):
        yield DeviceHandle(spec, DeviceInfo("url", spec))
        return
    raise RunError(f"--device {spec!r} is not `sim` or a WDA URL",
                   hint="use --device sim, or --device http://127.0.0.1:8100")


def select_tasks(tasks: Sequence[Task], globs: Sequence[str]) -> list[Task]:
    """Tasks whose id matches any glob (all tasks when there are none)."""
    if not globs:
        return list(tasks)
    chosen = [t for t in tasks if any(fnmatch.fnmatchcase(t.id, g) for g in globs)]
    if not chosen:
        raise RunError(f"no task id matches {' or '.join(globs)}",
                       hint="`phoneshell check-tasks PATHS` lists the tasks")
    return chosen


def new_run_id() -> str:
    """A sortable, unique run id: 20261130-061500-3fa2."""
    return time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(2)


def git_commit() -> str:
    """The project's git commit, or "" outside a checkout."""
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                              cwd=Path(__file__).resolve().parent, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def _describe_device(phone: Phone, info: DeviceInfo) -> DeviceInfo:
    try:
        status = phone.status()
    except DeviceError as exc:
        raise RunError(f"cannot start the run: {exc.message}", hint=exc.hint) from exc
    ios = str((status.get("os") or {}).get("version", ""))
    model = str(status.get("device", ""))
    udid = str((status.get("ios") or {}).get("udid", ""))
    udid_hash = hashlib.sha256(udid.encode()).hexdigest() if udid else ""
    return DeviceInfo(info.kind, info.url, model, ios, udid_hash)


def run_suite(options: RunOptions, progress: Progress) -> RunSummary:
    """Run every selected task `repeat` times; record each attempt as it ends."""
    tasks = select_tasks(load_tasks(options.paths).tasks, options.task_globs)
    agent = make_agent(options.agent)
    run_id = options.run_id or new_run_id()
    run_dir = options.runs_dir / run_id
    if (run_dir / "results.jsonl").exists():
        raise RunError(f"run {run_id} already exists in {options.runs_dir}",
                       hint="choose another --run-id")
    run_dir.mkdir(parents=True, exist_ok=True)
    summary = RunSummary(run_id, run_dir)
    with open_device(options.device) as device:
        if device.note:
            progress(device.note)
        phone = Phone(device.url)
        RunManifest(
            version=RUN_VERSION, run_id=run_id, started_at=time.time(),
            phoneshell_version=__version__, git_commit=git_commit(), agent=agent.name,
            device=_describe_device(phone, device.info),
            tasks=tuple(TaskRef(t.id, t.file, t.sha256) for t in tasks),
            options={"paths": " ".join(options.paths), "tasks": " ".join(options.task_globs),
                     "repeat": str(options.repeat)},
        ).write(run_dir / "run.json")
        plans = [(task, n) for task in tasks for n in range(1, options.repeat + 1)]
        for index, (task, attempt) in enumerate(plans, start=1):
            done = run_attempt(AttemptPlan(run_id, run_dir, task, attempt, device.url), phone,
                               agent)
            append_result(run_dir / "results.jsonl", done.row)
            summary.rows.append(done.row)
            progress(progress_line(index, len(plans), done.row))
            if done.rig_down:
                summary.stopped = done.row.skip_reason
                break
    return summary


def progress_line(index: int, total: int, row: ResultRow) -> str:
    """`[ 3/80] settings.about.reach  passed  1.2s`, then why, for a failure or a skip."""
    width = len(str(total))
    line = (f"[{index:>{width}}/{total}] {row.task_id:<34} {row.outcome:<7} "
            f"{row.seconds:5.1f}s")
    if row.skipped:
        line += f"\n        not scored: {row.skip_reason}"
    elif not row.passed:
        reasons = [f"{r.label}: {r.detail}" for r in row.checks if not r.passed]
        if row.timed_out or row.out_of_turns:
            reasons.insert(0, "ran out of time" if row.timed_out else "ran out of turns")
        line += "".join(f"\n        {reason}" for reason in reasons)
    if not row.teardown.ok:
        line += f"\n        teardown failed: {row.teardown.error}"
    return line


def summary_lines(summary: RunSummary) -> list[str]:
    """The closing lines: counts, skip reasons, where the files are."""
    counts = summary.counts()
    scored = counts["passed"] + counts["failed"]
    rate = f" ({counts['passed'] / scored:.0%} of scored)" if scored else ""
    lines = [f"{len(summary.rows)} attempt(s): {counts['passed']} passed, {counts['failed']} "
             f"failed, {counts['skipped']} skipped{rate}"]
    reasons = Counter(row.skip_reason.split(":")[0] for row in summary.rows if row.skipped)
    lines += [f"  skipped ({n}): {reason}" for reason, n in reasons.most_common()]
    if summary.stopped:
        lines.append(f"the run stopped early: {summary.stopped}")
    lines.append(f"results: {summary.run_dir / 'results.jsonl'}")
    return lines
