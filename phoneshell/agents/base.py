"""What an agent is to the runner: something handed an instruction and a WDA URL that acts, then
claims. One registry; `--agent NAME[:ARG]` picks an adapter, and outside adapters arrive through
the `phoneshell.agents` entry-point group, loaded on the first miss.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Protocol

from phoneshell.agents.sandbox import Sandbox
from phoneshell.errors import PhoneshellError, UnknownName
from phoneshell.evidence import Claim
from phoneshell.registry import Registry
from phoneshell.tasks import Task


@dataclass(frozen=True)
class AgentContext:
    """What an attempt gives its agent.

    Real agents get only `instruction` and `wda_url` (and the budgets); `task` is there for the
    harness's own reference agents (the solution), never passed on to a model.
    """

    task: Task
    instruction: str
    wda_url: str
    """Where to drive the phone: the bridge, which logs every action."""
    max_steps: int
    timeout_s: float
    workdir: Path
    """The attempt's folder: an agent in this process may write transcripts there; a program
    gets a scratch folder inside it (`agent/`) and sees nothing else of it."""
    sandbox: Sandbox | None = None
    """How a program agent is confined (None: unconfined, as for a test calling it directly)."""
    cut_off: Callable[[], str] = lambda: ""
    """Why the agent's access to the phone ended before its turn did ("" while it stands):
    once it is not "", nothing the agent sends reaches the phone, and its turn is ended."""


def ended_early(why: str) -> str:
    """What an agent's turn ended by `AgentContext.cut_off` says: the reason's first clause
    (its whole text is the grade's, from the log)."""
    return f"its access to the phone ended early ({why.split(':', 1)[0]})"


@dataclass(frozen=True)
class AgentResult:
    """How the agent's turn ended."""

    ran: bool
    """False when the agent never got going (it could not start, or its model was never reached);
    the attempt is then skipped, not scored."""
    claim: Claim | None = None
    """The agent's structured claim, if it made one."""
    turns: int = 0
    timed_out: bool = False
    out_of_turns: bool = False
    error: str = ""
    """Why the agent stopped early or never ran."""
    error_type: str = ""
    """The type of the exception its turn ended in, if any (the runner keeps it as data)."""
    notes: tuple[str, ...] = ()
    """What the harness did after its turn that is no error of its own and changes no grade
    (its folder given back: `Turn.notes`); kept in its row's `notes`."""
    stopped: str = ""
    """Why the harness stopped its program for a limit of its turn (the disk, its folder's size
    or files, output it could not keep, files it could not take back): a failure whatever its
    checks say, as running out of time or turns is (`runner.turn.overrule`)."""


class Agent(Protocol):
    """An agent adapter: one call per attempt."""

    name: str
    """How the agent is named in results ("solution", "command:./play.sh")."""

    def run(self, context: AgentContext) -> AgentResult:
        """Act on the phone at `context.wda_url` and return the claim."""
        ...


AgentFactory = Callable[[str], Agent]
"""Builds an agent from the text after `NAME:` in `--agent NAME:ARG` ("" when absent)."""


_BROKEN: dict[str, tuple[str, str]] = {}
"""The `phoneshell.agents` entry points that could not be loaded, by name: the package's name,
and what failed (the package, the entry point, why). Filled by `_load_entry_points` under the
registry's lock, so whole once a lookup that missed has returned."""
_PLUGINS: dict[str, metadata.EntryPoint] = {}
"""The `phoneshell.agents` entry points registered, by name: whose factory `make_agent` calls
as another package's code."""


def _load_entry_points(registry: Registry[AgentFactory]) -> None:
    """Register every `phoneshell.agents` entry point not named yet, each loaded on its own:
    one that raises (a module missing, an import that fails, one that exits: `SystemExit` too),
    or loads an object that is not callable, is kept in `_BROKEN`, and the others still load
    (red team 119: one broken plugin made every plugin name and every typo crash as a bug in
    phoneshell; red team 120: one exiting at import made `phoneshell run` exit 0, running
    nothing). Only Ctrl-C (KeyboardInterrupt) is let through."""
    for entry in metadata.entry_points(group="phoneshell.agents"):
        if entry.name in registry:
            continue  # a built-in, or an earlier package's
        try:
            factory = entry.load()
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - another package's code: named where asked
            _BROKEN.setdefault(entry.name, _broken(entry, "could not be loaded", exc))
            continue
        if not callable(factory):
            _BROKEN.setdefault(entry.name, _broken(
                entry, f"is not callable (a {type(factory).__name__}), so it makes no agent"))
            continue
        _PLUGINS.setdefault(entry.name, entry)
        registry.register(entry.name)(factory)


def _broken(entry: metadata.EntryPoint, what: str,
            exc: BaseException | None = None) -> tuple[str, str]:
    """(the package's name, what failed): "the package P V's entry point NAME = MOD:OBJ `what`
    (the exception's type: its first line)"."""
    dist = getattr(entry, "dist", None)
    package = f"{dist.name} {dist.version}" if dist is not None else "(a package not named)"
    why = "" if exc is None else \
        f" ({type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:300]})"
    return (dist.name if dist is not None else "",
            f"the package {package}'s entry point {entry.name} = {entry.value} {what}{why}")


BUILTIN_MODULES = ("command", "openai_loop", "reference", "replay", "wander")
"""The modules of `phoneshell.agents` that register a built-in agent: imported when `AGENTS` is
first read, whoever reads it (the runner, a library user, the CLI)."""


def _import_builtins() -> None:
    for module in BUILTIN_MODULES:
        importlib.import_module(f"phoneshell.agents.{module}")


AGENTS: Registry[AgentFactory] = Registry("agent", "phoneshell run --help",
                                          on_miss=_load_entry_points, builtins=_import_builtins)


def make_agent(spec: str) -> Agent:
    """Build the agent named by `--agent` (`solution`, `null`, `command:./play.sh`...)."""
    name, _, arg = spec.partition(":")
    try:
        factory = AGENTS.lookup(name)
    except UnknownName as exc:  # the entry points were loaded by then, their failures kept
        raise _unmade(exc) from None
    entry = _PLUGINS.get(name)  # never a built-in's name: those are registered first
    if entry is None:
        return factory(arg)  # phoneshell's own: what it raises is its own error, or a bug
    try:  # another package's code: whatever it raises (an exit too) is named, not a bug
        agent = factory(arg)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - named, with the package to fix
        raise _plugin_error(name, *_broken(entry, "failed making the agent", exc)) from None
    if not callable(getattr(agent, "run", None)):
        raise _plugin_error(name, *_broken(entry, f"made a {type(agent).__name__}, which has "
                                                  "no run method: not an agent"))
    return agent


def takes_no_arg(name: str, arg: str) -> None:
    """Refuse `NAME:ARG` for a built-in agent that takes no argument: the argument would be
    dropped while run.json and every report label the agent with it (red team 123:
    `solution:calculator.chain` played every task's finish, labelled as one task's).

    Raises:
        PhoneshellError: `arg` is not empty (the CLI exits 2, before any phone starts).
    """
    if arg:
        raise PhoneshellError(f"the {name} agent takes no argument, and was given {arg!r}",
                              hint=f"--agent {name} (`phoneshell run --help` lists the agents; "
                                   "--task picks the tasks)")


def _plugin_error(name: str, package: str, said: str) -> PhoneshellError:
    return PhoneshellError(f"agent {name!r} could not be made: {said}",
                           hint=f"fix or uninstall that package (`pip uninstall "
                                f"{package or 'PACKAGE'}`)")


def _unmade(exc: UnknownName) -> PhoneshellError:
    """A name no agent answers to, with the plugins that could not be loaded: the one asked
    for, named as that; else each in the hint, after the close matches."""
    if exc.name in _BROKEN:
        return _plugin_error(exc.name, *_BROKEN[exc.name])
    if _BROKEN:
        exc.hint += "; agent plugins that could not be loaded: " + "; ".join(
            _BROKEN[name][1] for name in sorted(_BROKEN))
    return exc
