"""What a judge is to a judge run: something shown one item that answers a verdict in JSON.

One registry: `--judge NAME:ARG` picks a judge (`openai:MODEL`, the built-in baseline over an
OpenAI-compatible endpoint; `command:CMD`, any program). Every judge answers text; `read_answer`
reads a verdict from it the same way for all (verdict.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from phoneshell.frames import DEFAULT_FRAMES, DEFAULT_LONG_EDGE, sample_uniform
from phoneshell.records import JudgeItem, SandboxKind
from phoneshell.registry import Registry

CONFIDENCES = ("low", "medium", "high")
MISTAKE_TYPES = ("Critical Mistake", "Bad Side Effect", "Misunderstanding of the Instruction")
"""AgentHorizon's mistake types (their label files spell the last one "...Instructions")."""
DEFAULT_TIMEOUT_S = 600.0


@dataclass(frozen=True)
class JudgeOptions:
    """How items are shown: screenshots per item, their size, the time a judge gets, and how a
    command judge is confined (`--sandbox`, as for agents: auto, bwrap, sandbox-exec, none)."""

    frames: int = DEFAULT_FRAMES
    long_edge: int = DEFAULT_LONG_EDGE
    timeout_s: float = DEFAULT_TIMEOUT_S
    sandbox: str = "auto"


@dataclass(frozen=True)
class Shown:
    """One item as a judge gets it."""

    item: JudgeItem
    folder: Path
    """The item's folder (item.json, frames/)."""
    options: JudgeOptions

    @property
    def sampled(self) -> list[int]:
        """Indices of the frames to show: `options.frames`, uniformly, first and last always."""
        return sample_uniform(len(self.item.frames), self.options.frames)


@dataclass(frozen=True)
class Reply:
    """What a judge gave back: its text, or why there is none."""

    text: str = ""
    """The answer as given (the model's message, the command's stdout)."""
    error: str = ""
    """Why there is no answer (the endpoint or the command failed); "" when there is one."""
    seconds: float = 0.0
    frames_shown: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    raw: dict[str, object] = field(default_factory=dict)
    """The whole exchange to keep (the endpoint's reply, the command's stdout and stderr)."""


class Judge(Protocol):
    """A judge: one call per item."""

    name: str
    """As given to --judge."""
    prompt_sha256: str
    """The hash of its prompt ("" when phoneshell does not write it)."""
    base_url: str
    """Its endpoint ("" when it has none)."""
    sandbox: SandboxKind
    """How it is confined (`in-process`: it runs no program of anyone's)."""
    sandbox_note: str
    """Why it runs unconfined ("" when it does not)."""

    def hide(self, hidden: Sequence[Path]) -> None:
        """Keep `hidden` from the judge for every item to come, even where it lies inside what
        a sandbox shows: the judgeset (its labels, the other items) and the folders it was
        built from. Called once, before the first item.

        Raises:
            PhoneshellError: it cannot be kept from the judge (a share that shows it, a command
                line that names it).
        """
        ...

    def judge(self, shown: Shown) -> Reply:
        """Judge one item; never raise for a failure of the judge itself (return `error`)."""
        ...


JudgeFactory = Callable[[str, JudgeOptions], Judge]
JUDGES: Registry[JudgeFactory] = Registry("judge", "phoneshell judge --help")


def make_judge(spec: str, options: JudgeOptions) -> Judge:
    """Build the judge named by `--judge` (`openai:MODEL`, `command:CMD`)."""
    name, _, arg = spec.partition(":")
    return JUDGES.lookup(name)(arg, options)
