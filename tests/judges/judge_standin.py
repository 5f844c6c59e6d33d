"""The OpenAI-compatible stand-in (tests/agents/openai_standin.py) playing judge models.

Same server, same checks of request shapes and the key; the model name picks the verdict:

    judge-yes        {"success": true, ...}
    judge-no         {"success": false, ...} in a ```json fence, with a reason in prose first
    judge-claim      success when the user message says the agent reported `status done`
    judge-prose      an answer with no JSON in it
    judge-string     {"success": "true"}: not a JSON boolean
    stand-in-429     every request answered 429 (the agent stand-in's own behaviour)

Every image sent must be a base64 PNG data URL; `images(body)` decodes them for the tests.
"""

from __future__ import annotations

import base64
import io
import json
from typing import Any

from agents.openai_standin import BadRequest, StandIn, completion
from PIL import Image

PREFIX = "data:image/png;base64,"


def _parts(body: dict[str, Any]) -> list[dict[str, Any]]:
    user = [m for m in body["messages"] if m["role"] == "user"]
    content = user[-1]["content"] if user else []
    return content if isinstance(content, list) else [{"type": "text", "text": content}]


def images(body: dict[str, Any]) -> list[Image.Image]:
    """The images of a request's user message, decoded."""
    out = []
    for part in _parts(body):
        if part["type"] == "image_url":
            url = part["image_url"]["url"]
            out.append(Image.open(io.BytesIO(base64.b64decode(url.removeprefix(PREFIX)))))
    return out


def text(body: dict[str, Any]) -> str:
    """The text parts of a request's user message, joined."""
    return "\n".join(p["text"] for p in _parts(body) if p["type"] == "text")


class JudgeStandIn(StandIn):
    """The stand-in answering as a judge model."""

    def reply(self, model: str, messages: list[dict[str, Any]],
              tools: list[dict[str, Any]]) -> dict[str, Any]:
        body = {"messages": messages}
        for part in _parts(body):
            if part["type"] == "image_url" and not part["image_url"]["url"].startswith(PREFIX):
                raise BadRequest("an image must be a PNG data URL")
        said = text(body)
        answers = {
            "judge-yes": json.dumps({"success": True, "reasoning": "looks done <b>ok</b>",
                                     "confidence": "high", "mistake_type": None}),
            "judge-no": "The app is wrong.\n```json\n" + json.dumps(
                {"success": False, "reasoning": "wrong app", "confidence": "medium",
                 "mistake_type": "Critical Mistake"}) + "\n```",
            "judge-claim": json.dumps({"success": "final report: status done" in said,
                                       "reasoning": "trusted the claim"}),
            "judge-prose": "I believe the agent did well.",
            "judge-string": json.dumps({"success": "true", "reasoning": "a string"}),
        }
        if model not in answers:
            return super().reply(model, messages, tools)
        return completion(model, None, answers[model])
