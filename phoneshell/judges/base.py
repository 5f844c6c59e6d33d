"""What a judge is to a judge run: something shown one item that answers a verdict in JSON.

One registry: `--judge NAME:ARG` picks a judge (`openai:MODEL`, the built-in baseline over an
OpenAI-compatible endpoint; `command:CMD`, any program). Every judge answers text; `read_answer`
reads a verdict from it the same way for all, strictly: a JSON object whose `success` is a JSON
boolean, or the answer is invalid and counts as wrong.
"""

from __future__ import annotations

import json
import re
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


@dataclass(frozen=True)
class Verdict:
    """A verdict read from a judge's text, or why it is not one."""

    success: bool | None
    reasoning: str = ""
    confidence: str | None = None
    mistake_type: str | None = None
    problem: str = ""
    """Why the answer is invalid ("" when it is a verdict)."""


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def _json_object(text: str) -> dict[str, object] | None:
    """The answer's JSON object: the whole text, a fenced block, the last line that is one,
    or the span from the first `{` to the last `}`."""
    candidates = [text.strip(), *(m.strip() for m in _FENCE.findall(text))]
    candidates += [line.strip() for line in reversed(text.splitlines())]
    if "{" in text and "}" in text:
        candidates.append(text[text.index("{"):text.rindex("}") + 1])
    for candidate in candidates:
        if not candidate.startswith("{"):
            continue
        try:
            found = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(found, dict):
            return found
    return None


def read_answer(text: str) -> Verdict:
    """Read a verdict strictly: `success` must be a JSON boolean (not "true", 1 or null)."""
    data = _json_object(text)
    if data is None:
        return Verdict(None, problem="the answer holds no JSON object")
    success = data.get("success")
    if not isinstance(success, bool):
        return Verdict(None, problem=f"success is not a JSON boolean (got {success!r})"[:200])
    reasoning = data.get("reasoning", "")
    confidence = data.get("confidence")
    mistake = data.get("mistake_type")
    if isinstance(mistake, str) and mistake.endswith("Instructions"):
        mistake = mistake[:-1]  # AgentHorizon's label files use the plural
    return Verdict(
        success, reasoning if isinstance(reasoning, str) else json.dumps(reasoning),
        confidence if isinstance(confidence, str) and confidence in CONFIDENCES else None,
        mistake if isinstance(mistake, str) and mistake in MISTAKE_TYPES and not success
        else None)
