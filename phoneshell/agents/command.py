"""`command:<cmd>`: run any program as the agent, told about the attempt through its environment.

The command line runs under `/bin/sh -c` in its own process group, in the current folder, with
the harness's environment, the variables of `environment.VARIABLES` set (the bridge URL, the
instruction, the budgets, the claim file...), and the harness's own bin folder first on PATH, so
`phoneshell finish` runs the harness's phoneshell from a plain shell, venv activated or not.
It reports its claim with `phoneshell finish` (the claim file) or with a JSON line on stdout;
the file wins when both are there, and the last valid line wins among lines (followed as stdout
is read, all of it: the kept copy leaves out the middle of a long output).

* Out of time: the whole process group is stopped (SIGTERM, then SIGKILL) and the attempt is
  `timed_out`, so it cannot pass (`turn.py` runs the program, as it runs a command judge).
  Whatever the program left running is stopped the same way when it exits, so nothing acts on
  the phone while the harness captures evidence, and so is what left the group (a double fork
  into a session of its own: `strays.py`), named in the row. Unconfined, it runs in a PID
  namespace of its own where Linux allows (`pidns.py`), so the kernel kills whatever it
  started when its command line ends.
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

import os
import sys
import tempfile
import threading
from dataclasses import replace
from pathlib import Path

from phoneshell.agents import agent_user, programs, sandbox
from phoneshell.agents.base import AGENTS, Agent, AgentContext, AgentResult
from phoneshell.agents.environment import (
    ATTEMPT_DIR,
    CLAIM_FILE,
    CONTRACT,
    EXPOSE_TASK_FILE,
    INSTRUCTION,
    MAX_STEPS,
    TASK_FILE,
    TASK_ID,
    TIMEOUT_S,
    TURNS_FILE,
    WDA_URL,
    ClaimLines,
    RefusedClaim,
    contract,
    read_claim_file,
    read_turns,
)
from phoneshell.agents.tools import every_call, tool_calls
from phoneshell.agents.turn import run_turn
from phoneshell.errors import RunError
from phoneshell.evidence import Claim
from phoneshell.records import RecordError, TurnUse
from phoneshell.records.layout import SCRATCH
from phoneshell.untrusted import one_line, tidy_lines

SHELL = "/bin/sh"
STDOUT, STDERR, CLAIM = "agent.stdout", "agent.stderr", "claim.json"


_UNCONFINED: list[str] = []
"""Why each program that ran unconfined in this process did, once each (`unconfined_ran`)."""
_UNCONFINED_LOCK = threading.Lock()


def unconfined_ran() -> str:
    """Why programs ran unconfined in this process ("" when none did): said at a run's end by
    the harness itself, for an unconfined program can rewrite everything the run wrote."""
    with _UNCONFINED_LOCK:
        return "; ".join(_UNCONFINED)


TAIL_LINES, TAIL_CHARS = 6, 600
"""How much of the end of a program's stderr a row keeps: a traceback's last lines."""


def _tail(path: Path) -> str:
    try:
        with path.open("rb") as handle:  # a crash log can be large: read only its end
            handle.seek(max(handle.seek(0, os.SEEK_END) - 4 * TAIL_CHARS, 0))
            text = handle.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
    # printed under its attempt's line: white space single, each line cut (`tidy_lines`)
    return "\n".join(tidy_lines(text)[-TAIL_LINES:])[-TAIL_CHARS:]


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
               INSTRUCTION: context.instruction, CONTRACT: contract(context.max_steps),
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
            return box.wrap(argv, self.command, scratch, cwd, reads)

        try:
            if not self.started:  # once it started in the run, it can start
                why = self.cannot_start(box, scratch, env, reads)
                if why:
                    return AgentResult(ran=False, error=why)
            argv = boxed([SHELL, "-c", self.command])
        except PermissionError as exc:  # no way to run it but as root: it does not run
            return AgentResult(ran=False, error=f"the command could not start: {exc}")
        if not box.confines:
            with _UNCONFINED_LOCK:
                why = box.note or f"--sandbox {box.kind}"
                _UNCONFINED.extend([why] if why not in _UNCONFINED else [])

        def started() -> None:
            self.started = True

        try:
            # its last claim line, followed as stdout is read: the kept copy may leave it out
            said = ClaimLines()
            turn = run_turn(argv, env, box, scratch, (folder / STDOUT, folder / STDERR),
                            context.timeout_s, cut_off=context.cut_off, started=started,
                            stdout_seen=said.feed)
        except OSError as exc:
            return AgentResult(ran=False, error=f"cannot start {self.command!r}: {exc}")
        said.end()
        result = self._result(folder, turn.code, turn.timed_out, context, said)
        if turn.said:
            result = replace(result, error="; ".join(e for e in (result.error, *turn.said) if e))
        result = replace(result, notes=turn.notes)
        if turn.stopped:  # stopped for it: its failure, whatever it claimed
            claim = Claim(status="failed", summary=f"stopped: {turn.stopped}")
            return replace(result, ran=True, claim=claim, stopped=turn.stopped,
                           error="; ".join(e for e in (turn.stopped, result.error) if e))
        return result

    def cannot_start(self, box: sandbox.Sandbox, scratch: Path, env: dict[str, str],
                     reads: list[Path]) -> str:
        """Why the command line cannot start in `box` with `scratch` as its folder ("" when it
        can, or when that cannot be told before it runs: `programs.cannot_start`).

        Raises:
            PermissionError: a root harness with no other user to run it as.
        """
        cwd = Path.cwd()
        return programs.cannot_start(
            self.command, lambda argv: box.wrap(argv, self.command, scratch, cwd, reads), env,
            box.confines, SHELL, box.needs(self.command, cwd, reads), agent_user.who())

    def _result(self, folder: Path, code: int, timed_out: bool, context: AgentContext,
                on_stdout: ClaimLines) -> AgentResult:
        """The result of its ended turn: the claim file's claim, else its stdout's, else a
        refused claim file's status (`RefusedClaim`); whatever was refused is said in `error`
        (a refused claim dropped without a word lowered the false-claim rate)."""
        errors: list[str] = []
        claim: Claim | None = None
        refused_file: Claim | None = None
        use = None
        scratch = folder / SCRATCH
        try:
            linked = [p.name for p in (scratch / CLAIM, scratch / TURNS_FILE) if p.is_symlink()]
            if linked:  # the harness reads what the program wrote, never what a link points at
                errors.append(f"ignored {', '.join(linked)}: a symbolic link, not a file")
            try:
                claim = None if CLAIM in linked else read_claim_file(scratch / CLAIM)
            except RecordError as exc:
                errors.append(f"unreadable claim file: {exc}")
                refused_file = exc.claim if isinstance(exc, RefusedClaim) else None
            use = None if TURNS_FILE in linked else read_turns(scratch)
        except OSError as exc:
            # its own folder, which it can make unreadable (`chmod 0` on its way out): what it
            # left there is its doing, never the rig's, and no way to a skip (red team 128)
            errors.append(f"its folder could not be read ({exc.strerror or exc}): what it "
                          "left there is not read")
        if claim is None and on_stdout.refused:
            errors.append(f"its claim line on stdout was refused: {on_stdout.refused}")
        if claim is None:
            claim = on_stdout.claim or refused_file
        turns, out_of_turns = (use.turns, use.out_of_turns) if use else (0, False)
        if use and out_of_turns:
            errors.append(spent(use, context.max_steps))
        stderr = _tail(folder / STDERR)
        if timed_out:
            errors.insert(0, f"ran out of time ({context.timeout_s:g}s); the command was stopped")
        elif claim is None and code != 0:
            how = f"was killed by signal {-code}" if code < 0 else f"exited with status {code}"
            claim = Claim(status="failed", summary=f"the command {how} without a claim")
            said = f"; the end of its stderr ({STDERR}):\n{stderr}" if stderr else ""
            errors.append(f"the command {how}{said}")
        elif claim is None:
            errors.append("the command exited without a claim")
        return AgentResult(ran=True, claim=claim, turns=turns, timed_out=timed_out,
                           out_of_turns=out_of_turns, error="; ".join(errors))


REFUSED_CHARS = 200
"""How much of what the turns file says the agent did past its budget a row keeps."""


def spent(use: TurnUse, max_steps: int) -> str:
    """Why a command agent is out of turns, as the model loop says it ("used all 25 tool
    calls, then called 'tap' instead of done"): the turns its tool server counted, the task's
    budget, and what it did past it. Read from `turns.json`, which the program can write too:
    its words, kept short on one line. A server counts the one valid `done` it takes past the
    budget (the one it asks for), so `max_steps` + 1 with a refusal is all of the budget used,
    not a call over it (red team 145)."""
    honest = use.turns == max_steps or (use.turns == max_steps + 1 and bool(use.refused))
    used = (every_call(max_steps) if honest else
            f"{tool_calls(use.turns)} of a budget of {max_steps}")
    did = one_line(use.refused[:REFUSED_CHARS]) if use.refused else (
        f"{TURNS_FILE} says it ran out of turns, not what it did")
    return f"used {used} ({TURNS_FILE}), then {did}"


def refuse_unstartable(agent: Agent, box: sandbox.Sandbox) -> None:
    """Refuse, before a run's first attempt, a command agent whose command line cannot start in
    the run's sandbox: it could start for no task, and a run of it would only record every
    attempt as never run (red team 123). Looked for as each attempt looks (`programs`), with a
    scratch folder of its own; what cannot be told before it runs is left to the attempts.

    Raises:
        RunError: it cannot start (the CLI exits 2; nothing is recorded).
    """
    if not isinstance(agent, CommandAgent):
        return
    with tempfile.TemporaryDirectory(prefix="phoneshell-look-") as tmp:
        scratch = Path(tmp) / SCRATCH
        scratch.mkdir()
        env = {**sandbox.environment(dict(os.environ), scratch, box.confines),
               "PATH": harness_path()}
        try:
            why = agent.cannot_start(box, scratch, env, [])
        except PermissionError as exc:
            why = f"the command could not start: {exc}"
        finally:
            box.take_back(scratch)
    if why:
        raise RunError(f"{agent.name}: {why}", hint="fix the command line (docs/agents.md says "
                                                    "what a confined agent sees); nothing ran")


def _command(arg: str) -> Agent:
    """`command:CMD`: run a shell command line as the agent (docs/agents.md)."""
    if not arg.strip():
        raise RunError("the command agent needs a command line",
                       hint="--agent 'command:python my_agent.py' (see docs/agents.md)")
    return CommandAgent(arg)


AGENTS.register("command")(_command)
