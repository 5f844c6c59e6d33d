"""Reading a judge's verdict from its text, the same way for every judge; never trusts the agent.

A judge's reply may hold more than one JSON object: models quote what they read, and what they
read holds the agent's words (its report, the text it typed), where an agent can leave a
ready-made `{"success": true}`. So no object wins by its place in the reply. Every object with a
`success` is a candidate; one the agent wrote (the same JSON as an object in its words) is a
quote and never the judge's verdict, unless the reply is that object and nothing else; the
judge's own candidates must all say the same JSON boolean, or the answer is invalid.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from phoneshell.judges.base import CONFIDENCES, MISTAKE_TYPES
from phoneshell.records import JudgeItem


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


def _as_object(text: str) -> dict[str, object] | None:
    text = text.strip()
    if not text.startswith("{"):
        return None
    try:
        found = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return found if isinstance(found, dict) else None


def json_objects(text: str) -> list[dict[str, object]]:
    """The JSON objects of `text` in the order they appear: the whole text when it is one;
    else each fenced block and each line outside the fences that is one; else the span from
    the first `{` to the last `}`."""
    whole = _as_object(text)
    if whole is not None:
        return [whole]
    found: list[dict[str, object]] = []
    at = 0
    for fence in [*_FENCE.finditer(text), None]:
        outside = text[at:fence.start() if fence else len(text)]
        found += [o for o in map(_as_object, outside.splitlines()) if o is not None]
        if fence:
            found += [o for o in [_as_object(fence.group(1))] if o is not None]
            at = fence.end()
    if not found and "{" in text and "}" in text:
        found = [o for o in [_as_object(text[text.index("{"):text.rindex("}") + 1])] if o]
    return found


def agent_texts(item: JudgeItem) -> list[str]:
    """What the agent wrote into what a judge is shown: its claim's answer and summary, and
    the words and text params of its actions (typed text, bundle ids, URLs)."""
    texts = [item.claim.answer, item.claim.summary] if item.claim else []
    for step in item.steps:
        texts += [step.action, *(v for v in step.params.values() if isinstance(v, str))]
    return texts


def _candidates(text: str, quoted: Iterable[str]) -> tuple[list[dict[str, object]], int]:
    """The reply's objects holding `success` that the agent did not write, and how many it
    did."""
    found = [o for o in json_objects(text) if "success" in o]
    if len(found) == 1 and _as_object(text) is not None:
        return found, 0  # the reply is one object and nothing else: the judge's own answer
    agents = {_canonical(o) for t in quoted if "success" in t for o in json_objects(t)}
    own = [o for o in found if _canonical(o) not in agents]
    return own, len(found) - len(own)


def _canonical(data: dict[str, object]) -> str:
    """One spelling of an object (keys sorted; `true` is never `1`), to tell a quote."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def read_answer(text: str, quoted: Sequence[str] = ()) -> Verdict:
    """Read a verdict strictly: every candidate's `success` the same JSON boolean (not "true",
    1 or null); `quoted` are the agent's words the judge was shown (`agent_texts`)."""
    own, agents = _candidates(text, quoted)
    if not own:
        if agents:
            return Verdict(None, problem="its only verdict is one the agent wrote (quoted "
                                         "from what the judge was shown), not the judge's")
        objects = json_objects(text)
        if not objects:
            return Verdict(None, problem="the answer holds no JSON object")
        own = objects[-1:]
    said = [o.get("success") for o in own]
    if not all(isinstance(s, bool) for s in said):
        wrong = next(s for s in said if not isinstance(s, bool))
        return Verdict(None, problem=f"success is not a JSON boolean (got {wrong!r})"[:200])
    if len(set(said)) > 1:
        return Verdict(None, problem=f"its verdicts disagree: success {said} "
                                     f"(in the order given)"[:200])
    data = own[-1]  # they agree: the reasoning is the judge's last word
    success, reasoning = data["success"] is True, data.get("reasoning", "")
    confidence, mistake = data.get("confidence"), data.get("mistake_type")
    if isinstance(mistake, str) and mistake.endswith("Instructions"):
        mistake = mistake[:-1]  # AgentHorizon's label files use the plural
    return Verdict(
        success, reasoning if isinstance(reasoning, str) else json.dumps(reasoning),
        confidence if isinstance(confidence, str) and confidence in CONFIDENCES else None,
        mistake if isinstance(mistake, str) and mistake in MISTAKE_TYPES and not success
        else None)
