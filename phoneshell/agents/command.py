"""`command:<cmd>`: run any program as the agent, told about the attempt through its environment.

The command line runs under `/bin/sh -c` in its own process group, in the current folder, with
the harness's environment, the variables of `environment.VARIABLES` set (the bridge URL, the
instruction, the budgets, the claim file...), and the harness's own bin folder first on PATH, so
`phoneshell finish` runs the harness's phoneshell from a plain shell, venv activated or not.
It reports its claim with `phoneshell finish` (the claim file) or with a JSON line on stdout;
the file wins when both are there, and the last valid line wins among lines.

* Out of time: the whole process group is stopped (SIGTERM, then SIGKILL) and the attempt is
  `timed_out`, so it cannot pass. Whatever the program left running is stopped the same way when
  it exits, so nothing acts on the phone while the harness captures evidence, and so is what
  left the group (a double fork into a session of its own: `strays.py`), named in the row.
  Unconfined, it runs in a PID namespace of its own where Linux allows (`pidns.py`), so the
  kernel kills whatever it started when its command line ends.
* stdout and stderr are kept in the attempt folder (`agent.stdout`, `agent.stderr`).
* A command line that cannot start never ran: the attempt is skipped, with the reason. That is
  found by the harness before it starts anything, by looking for the command's programs where
  it will run (`programs.py`), never from an exit status or a message, which a program that
  started controls (it may exit 127 and print "not found" after it read the phone). Once the
  command has started in the run, it is not looked for again: it can start.
* A non-zero exit without a claim is a `failed` claim naming the exit status, 126 and 127
  included. The end of its stderr (a traceback's last lines) goes into the row's error, which
  the run prints under the attempt's progress line.
* It runs in the attempt's sandbox (`sandbox.py`), with a scratch folder of its own (`agent/` in
  the attempt folder: `PHONESHELL_ATTEMPT_DIR`, where its claim and turns files go).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from phoneshell.agents import agent_user, bounds, pidns, pids, programs, sandbox, strays
from phoneshell.agents.base import AGENTS, Agent, AgentContext, AgentResult, ended_early
from phoneshell.agents.environment import (
    ATTEMPT_DIR,
    CLAIM_FILE,
    CONTRACT,
    EXPOSE_TASK_FILE,
    GRADED,
    INSTRUCTION,
    MAX_STEPS,
    TASK_FILE,
    TASK_ID,
    TIMEOUT_S,
    TURNS_FILE,
    WDA_URL,
    claim_from_stdout,
    read_claim_file,
    read_turns,
)
from phoneshell.errors import RunError
from phoneshell.evidence import Claim
from phoneshell.records import RecordError

SHELL = "/bin/sh"
GRACE_S = 2.0
"""How long a stopped program has to exit after SIGTERM before SIGKILL."""
STDOUT, STDERR, CLAIM = "agent.stdout", "agent.stderr", "claim.json"
SCRATCH = "agent"
"""The program's own folder inside the attempt folder (all of it the program can write)."""


_RUNNING: set[int] = set()
"""The process groups of the programs running now, for `stop_running` (any thread's)."""
_RUNNING_LOCK = threading.Lock()


_UNCONFINED: list[str] = []
"""Why each program that ran unconfined in this process did, once each (`unconfined_ran`)."""


def unconfined_ran() -> str:
    """Why programs ran unconfined in this process ("" when none did): said at a run's end by
    the harness itself, for an unconfined program can rewrite everything the run wrote."""
    with _RUNNING_LOCK:
        return "; ".join(_UNCONFINED)


def stop_running() -> None:
    """SIGKILL every program's process group still running: the process is leaving with
    attempts in flight (a second Ctrl-C), and an unconfined program left behind would go on
    acting on the phone. Registered to run at exit."""
    with _RUNNING_LOCK:
        groups = list(_RUNNING)
    for pgid in groups:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)
    if strays.adopting():
        strays.stop_strays()  # and whatever left their groups


atexit.register(stop_running)


OOM_SCORE_ADJ = "/proc/self/oom_score_adj"
"""Where Linux takes how readily the kernel's out-of-memory killer picks a process (-1000 to
1000), inherited by what the process starts; raising it needs no privilege, lowering it does."""


def first_to_go(argv: list[str]) -> list[str]:
    """`argv` run with the out-of-memory killer's score at its highest (1000): an agent that
    takes the machine's memory is what the kernel stops first, never the harness (which would
    leave the attempt, and every later one, not scored). Set before the sandbox starts, so its
    programs start with it and, every capability dropped, cannot lower it. Where Linux has no
    such file (macOS), the command runs as given."""
    if not Path(OOM_SCORE_ADJ).exists():
        return argv
    return [SHELL, "-c", f'echo 1000 > {OOM_SCORE_ADJ} 2>/dev/null; exec "$@"', SHELL, *argv]


def _stop_group(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM the program's process group, then SIGKILL whatever is still there after the
    grace time."""
    pgid = process.pid  # start_new_session: the group is named after the program
    try:
        os.killpg(pgid, signal.SIGTERM)
    except ProcessLookupError:
        return  # nothing left
    deadline = time.monotonic() + GRACE_S
    while time.monotonic() < deadline:
        process.poll()  # reap the program itself, or its zombie keeps the group alive
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


TAIL_LINES, TAIL_CHARS = 6, 600
"""How much of the end of a program's stderr a row keeps: a traceback's last lines."""


def _tail(path: Path) -> str:
    try:
        with path.open("rb") as handle:  # a crash log can be large: read only its end
            handle.seek(max(handle.seek(0, os.SEEK_END) - 4 * TAIL_CHARS, 0))
            text = handle.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
    lines = [line.rstrip() for line in text.strip().splitlines() if line.strip()]
    return "\n".join(lines[-TAIL_LINES:])[-TAIL_CHARS:]


def harness_path() -> str:
    """PATH with the running interpreter's bin folder first (a venv's holds `phoneshell`)."""
    # Not resolved: a venv's python is a link into the base install, whose bin folder has no
    # phoneshell.
    here = os.path.dirname(sys.executable) if sys.executable else ""
    rest = [p for p in os.environ.get("PATH", os.defpath).split(os.pathsep) if p and p != here]
    return os.pathsep.join([here, *rest] if here else rest)


class CommandAgent:
    """Run a shell command line as the agent of each attempt."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.name = f"command:{command}"
        self.started = False
        """Whether the command has started in one of this run's attempts: it can start, so it is
        not looked for before the next (`programs.cannot_start`), and no attempt of it is skipped as
        never run again."""

    def environment(self, context: AgentContext, claim_file: Path) -> dict[str, str]:
        """The process environment: the caller's (less the harness's own variables), its bin
        folder first on PATH (so `phoneshell finish` is the harness's), plus the attempt's
        variables."""
        confined = context.sandbox is not None and context.sandbox.confines
        scratch = claim_file.parent
        env = {**sandbox.environment(dict(os.environ), scratch, confined),
               "PATH": harness_path(), WDA_URL: context.wda_url,
               INSTRUCTION: context.instruction, CONTRACT: GRADED,
               TASK_ID: context.task.id, MAX_STEPS: str(context.max_steps),
               TIMEOUT_S: f"{context.timeout_s:g}", ATTEMPT_DIR: str(scratch),
               CLAIM_FILE: str(claim_file)}
        env.pop(TASK_FILE, None)
        # The task file holds the checks and the reference finish: the answer key. Only a
        # harness that asks for it (reference and replay programs) hands it on.
        if os.environ.get(EXPOSE_TASK_FILE) == "1" and context.task.file:
            env[TASK_FILE] = str(Path(context.task.file).resolve())
        return env

    def run(self, context: AgentContext) -> AgentResult:
        """Run the command to its end or its deadline, then read its claim."""
        folder = context.workdir.resolve()
        scratch = folder / SCRATCH
        scratch.mkdir(parents=True, exist_ok=True)
        claim_file = scratch / CLAIM
        claim_file.unlink(missing_ok=True)
        env = self.environment(context, claim_file)
        box = context.sandbox or sandbox.Sandbox("none")
        reads = [Path(env[TASK_FILE])] if TASK_FILE in env else []
        cwd = Path.cwd()

        def boxed(argv: list[str]) -> list[str]:
            wrapped = box.wrap(argv, self.command, scratch, cwd, reads)
            return wrapped if box.confines else pidns.wrap(wrapped)  # bwrap makes its own

        try:
            if not self.started:  # once it started in the run, it can start
                why = programs.cannot_start(self.command, boxed, env, box.confines, SHELL,
                                            box.needs(self.command, cwd, reads),
                                            agent_user.who())
                if why:
                    return AgentResult(ran=False, error=why)
            argv = boxed([SHELL, "-c", self.command])
        except PermissionError as exc:  # no way to run it but as root: it does not run
            return AgentResult(ran=False, error=f"the command could not start: {exc}")
        if not box.confines:
            with _RUNNING_LOCK:
                why = box.note or f"--sandbox {box.kind}"
                _UNCONFINED.extend([why] if why not in _UNCONFINED else [])
        watch = bounds.DiskWatch(folder)
        strays.adopt_orphans()  # what it leaves behind stays below the harness, to be stopped
        before = strays.others()
        limit = pids.Limit()  # however many it forks, the harness keeps pids for its threads
        try:
            process = subprocess.Popen(
                first_to_go(limit.wrap(argv)),
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env=env, start_new_session=True)
        except OSError as exc:
            limit.close()
            return AgentResult(ran=False, error=f"cannot start {self.command!r}: {exc}")
        assert process.stdout is not None and process.stderr is not None
        outputs = [bounds.CappedOutput(process.stdout, folder / STDOUT),
                   bounds.CappedOutput(process.stderr, folder / STDERR)]
        self.started = True
        limit.watch(process.pid)  # for a process that leaves its cgroup
        with _RUNNING_LOCK:
            _RUNNING.add(process.pid)  # start_new_session: the group is named after it
        timed_out, stopped = False, ""
        try:
            code, timed_out, stopped = _watch(process, context.timeout_s, watch, context.cut_off)
        finally:
            _stop_group(process)  # the program and anything it left running
            with _RUNNING_LOCK:
                _RUNNING.discard(process.pid)
                running = set(_RUNNING)
            left = strays.stop_strays(before, running, process.pid,  # outside its group too
                                      limit.outside, limit.anothers)
            refused = limit.close()  # and whatever is left in its cgroup
            for output in outputs:
                output.finish()
            untaken = box.take_back(scratch)  # nothing of it is left to write there
        # looked at once more with it gone: what it wrote just before too
        over = untaken or watch.over()
        stopped = stopped or over
        if timed_out or stopped:
            code = process.wait()
        if over:
            kept = bounds.wipe(scratch)  # the disk back for the run's rows; kept: stdout, stderr
            stopped += (f"; what it wrote into its folder was deleted, but for {kept}" if kept
                        else "; what it wrote into its folder was deleted")
        result = self._result(folder, code, timed_out, context.timeout_s)
        escaped = {**limit.left, **left.outside}
        said = (_left_line(left) if left else "",
                "it left process(es) running in its PID namespace when its command line "
                "ended; the kernel killed them with it" if pidns.left_behind(folder / STDERR)
                else "",
                f"it left its process limit (its cgroup): {', '.join(escaped.values())}"
                if escaped else "",
                f"it reached its limit of {pids.PIDS_MAX:,} processes and threads at once "
                f"({refused:,} fork(s) refused)" if refused else "")
        if any(said):
            result = replace(result, error="; ".join(e for e in (result.error, *said) if e))
        if stopped:  # stopped for it: its failure, whatever it claimed
            claim = Claim(status="failed", summary=f"stopped: {stopped}")
            return replace(result, ran=True, claim=claim,
                           error="; ".join(e for e in (stopped, result.error) if e))
        return result

    def _result(self, folder: Path, code: int, timed_out: bool, timeout_s: float) -> AgentResult:
        errors: list[str] = []
        claim: Claim | None = None
        scratch = folder / SCRATCH
        linked = [p.name for p in (scratch / CLAIM, scratch / TURNS_FILE) if p.is_symlink()]
        if linked:  # the harness reads what the program wrote, never what a link points at
            errors.append(f"ignored {', '.join(linked)}: a symbolic link, not a file")
        try:
            claim = None if CLAIM in linked else read_claim_file(scratch / CLAIM)
        except RecordError as exc:
            errors.append(f"unreadable claim file: {exc}")
        if claim is None:
            claim = claim_from_stdout(folder / STDOUT)
        use = None if TURNS_FILE in linked else read_turns(scratch)
        turns, out_of_turns = (use.turns, use.out_of_turns) if use else (0, False)
        stderr = _tail(folder / STDERR)
        if timed_out:
            errors.insert(0, f"ran out of time ({timeout_s:g}s); the command was stopped")
        elif claim is None and code != 0:
            how = f"was killed by signal {-code}" if code < 0 else f"exited with status {code}"
            claim = Claim(status="failed", summary=f"the command {how} without a claim")
            said = f"; the end of its stderr ({STDERR}):\n{stderr}" if stderr else ""
            errors.append(f"the command {how}{said}")
        elif claim is None:
            errors.append("the command exited without a claim")
        if out_of_turns:
            errors.append("used its whole turn budget")
        return AgentResult(ran=True, claim=claim, turns=turns, timed_out=timed_out,
                           out_of_turns=out_of_turns, error="; ".join(errors))


def _left_line(left: strays.Swept) -> str:
    """What the row says of the processes a program left running outside its process group."""
    more = f" and {left.count - len(left.named)} more" if left.count > len(left.named) else ""
    line = (f"it left {left.count} process(es) running after its turn, outside its process "
            f"group; killed: {', '.join(left.named)}{more}")
    if left.moving:
        line += (f"; {left.moving} of them still alive when the harness stopped trying "
                 f"({strays.STOP_S:g}s): they may outlive the run")
    return line


def _watch(process: subprocess.Popen[bytes], timeout_s: float, watch: bounds.DiskWatch,
           cut_off: Callable[[], str]) -> tuple[int, bool, str]:
    """Wait for the program, looking at what it wrote and at its access every
    `bounds.WATCH_S`: its exit code (0 when it was cut short), whether it ran out of time, and
    why it was stopped for what it wrote or because its access to the phone ended ("" when it
    was not)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return process.wait(timeout=min(bounds.WATCH_S,
                                            max(0.0, deadline - time.monotonic()))), False, ""
        except subprocess.TimeoutExpired:
            if time.monotonic() >= deadline:
                return 0, True, ""
        ended = cut_off()
        if ended:  # nothing it sends reaches the phone now: waiting out its time helps nobody
            return 0, False, ended_early(ended)
        over = watch.over()
        if over:
            return 0, False, over


def _command(arg: str) -> Agent:
    """`command:CMD`: run a shell command line as the agent (docs/agents.md)."""
    if not arg.strip():
        raise RunError("the command agent needs a command line",
                       hint="--agent 'command:python my_agent.py' (see docs/agents.md)")
    return CommandAgent(arg)


AGENTS.register("command")(_command)
