"""Reading a judge's verdict from its text, the same way for every judge; never trusts the agent.

A judge's reply may hold more than one JSON object: models quote what they read, and what they
read holds the agent's words (its report, the text it typed), where an agent can leave a
ready-made `{"success": true}`. So no object wins by its place in the reply. Every object with a
`success` is a candidate, wherever it starts; one the agent wrote (the same JSON as an object
anywhere in its words, raw or as quoted to the judge, at any depth) is a quote and never the
judge's verdict, unless the reply is that object and nothing else; the judge's own candidates
must all say the same JSON boolean, or the answer is invalid.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from phoneshell.judges.base import CONFIDENCES, MISTAKE_TYPES
from phoneshell.judges.words import claim_words, literals, typed_into
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


_DECODER = json.JSONDecoder()


def _as_object(text: str) -> dict[str, object] | None:
    text = text.strip()
    if not text.startswith("{"):
        return None
    try:
        found = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return found if isinstance(found, dict) else None


def _object_at(text: str, at: int) -> tuple[dict[str, object] | None, int]:
    """The JSON object that starts at `text[at]` (a `{`) and where it ends, or None."""
    try:
        found, end = _DECODER.raw_decode(text, at)
    except (ValueError, RecursionError):
        return None, at + 1
    return (found, end) if isinstance(found, dict) else (None, at + 1)


def json_objects(text: str) -> list[dict[str, object]]:
    """The JSON objects of `text` in the order they appear, each wherever it starts (a line, a
    fenced block, mid-sentence, next to other braces); an object inside one found is part of
    it, not one more."""
    found: list[dict[str, object]] = []
    at = text.find("{")
    while at >= 0:
        one, end = _object_at(text, at)
        if one is not None:
            found.append(one)
        at = text.find("{", end)
    return found


def _every_object(text: str) -> list[dict[str, object]]:
    """Every JSON object in `text` at any depth: each `json_objects` finds, the objects inside
    them, and those in their strings (an object the agent wrote inside another, or escaped in a
    JSON string, is one a judge can quote on its own)."""
    found: list[dict[str, object]] = []
    texts = [text]
    while texts:
        values: list[object] = list(json_objects(texts.pop()))
        while values:
            value = values.pop()
            if isinstance(value, dict):
                found.append(value)
                values += value.values()
            elif isinstance(value, list):
                values += value
            elif isinstance(value, str) and "{" in value:
                texts.append(value)
    return found


def agent_texts(item: JudgeItem) -> list[str]:
    """What the agent wrote into what a judge is shown, raw and as the judge reads it: its
    claim's answer and summary and their words in the prompt, the words of its actions (where
    the labels of what it tapped, a note's title, typed text and the phone's errors are quoted),
    and the text params of its actions (typed text whole, bundle ids, URLs)."""
    texts = [item.claim.answer, item.claim.summary] if item.claim else []
    texts += [claim_words(item.claim), *(step.action for step in item.steps)]
    for step in item.steps:
        texts += [v for v in step.params.values() if isinstance(v, str)]
    return texts + typing_left(item)


_KEYS = {"space": " "}
"""Keyboard keys whose label is not what they type (a letter key's label is its letter; the
simulator labels space " ", a real keyboard "space")."""


def typing_left(item: JudgeItem) -> list[str]:
    """What the agent's typing left on the phone, as far as its steps tell (red team 137: a
    verdict typed in two sends shows whole on every later frame, though no send holds it):
    each field's text, its sends joined, as it stood before each clear and at the end; and all
    it typed and keyed (a keyboard key tapped, one character a step) in order, joined, as it
    stood before each delete and at the end, with its sends also joined by a space (a contact's
    two names show so). More than the phone showed, never less: a quote is never a verdict."""
    fields: dict[str, str] = {}
    left: list[str] = []
    keyed, sends = "", list[str]()
    for step in item.steps:
        text = step.params.get("text")
        if step.kind == "type" and isinstance(text, str) and step.params.get("via") != "clear":
            where = typed_into(step.action, text)
            fields[where] = fields.get(where, "") + text
            keyed += text
            sends.append(text)
        elif step.kind == "type":  # cleared: what it held showed until now
            left += fields.values()
            fields = {}
        elif step.kind == "tap" and step.action.startswith("Tapped Key "):
            label = next(iter(literals(step.action)), "")
            if label == "delete":
                if not (left and left[-1].startswith(keyed)):  # once per run of deletes
                    left.append(keyed)
                keyed = keyed[:-1]
            elif len(label) == 1 or label in _KEYS:
                keyed += _KEYS.get(label, label)
                sends.append(_KEYS.get(label, label))
    return [*left, *fields.values(), keyed, " ".join(sends)]


def _candidates(text: str, quoted: Iterable[str]) -> tuple[list[dict[str, object]], int]:
    """The reply's objects holding `success` that the agent did not write, and how many it
    did."""
    found = [o for o in json_objects(text) if "success" in o]
    if len(found) == 1 and _as_object(text) is not None:
        return found, 0  # the reply is one object and nothing else: the judge's own answer
    # each text as given and every value quoted in it, unquoted: a label holding `'` is `\'` in
    # the words, which no JSON reader takes, and is the label itself in a judge's quote
    texts = [one for t in quoted for one in (t, *literals(t))]
    agents = {_canonical(o) for t in texts for o in _every_object(t)}
    own = [o for o in found if _canonical(o) not in agents]
    return own, len(found) - len(own)


def _canonical(data: dict[str, object]) -> str:
    """One spelling of an object (keys sorted; `true` is never `1`), to tell a quote."""
    try:
        return json.dumps(data, sort_keys=True, ensure_ascii=False)
    except (ValueError, RecursionError):  # nested past what can be spelled: like no other
        return f"<unspelled {id(data)}>"


def read_answer(text: str, quoted: Sequence[str] = ()) -> Verdict:
    """Read a verdict strictly: every candidate's `success` the same JSON boolean (not "true",
    1 or null); `quoted` are the agent's words the judge was shown (`agent_texts`), each of its
    objects a quote wherever it lies in them (and in the values they quote)."""
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
