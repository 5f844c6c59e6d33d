"""What a tool is, as every agent path presents it, what it gives back, and the check of a
model's call: a tool it names, arguments that are a JSON object, and what they hold against the
tool's schema (the subset of JSON schema the tools use). Pure; the tools themselves and their
registry are `tools`."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from phoneshell.records import claim_fields, claim_json
from phoneshell.registry import Registry
from phoneshell.untrusted import storable

JsonSchema = dict[str, object]
Args = Mapping[str, object]


@dataclass(frozen=True)
class Tool:
    """One tool as every agent path presents it."""

    name: str
    description: str
    parameters: JsonSchema
    """The JSON schema of the arguments (an object schema)."""
    run: Callable[[Any, Mapping[str, object]], Any]
    """The handler: (the attempt's `PhoneTools`, the arguments) -> a `ToolReply`."""


@dataclass(frozen=True)
class ToolReply:
    """What a tool call gives back to the model."""

    text: str
    screenshot_png: bytes | None = None
    """The screen after the call, when screenshots are on and the screen was read."""
    error: bool = False
    """The call did nothing: bad arguments, a stale id, a step that did not take..."""


def checked_call(tools: Registry[Tool], name: str, arguments: Args | str,
                 ) -> tuple[Tool | None, Args | str]:
    """The tool of `tools` a call names and its arguments as an object (those sent as `null`
    left out), or what is wrong with the call.

    Args:
        arguments: an object, or its JSON text (as chat APIs send it).
    """
    if name not in tools:
        return None, f"there is no tool {name!r}; the tools are {', '.join(tools.names())}"
    if isinstance(arguments, str):
        try:  # as a claim's reader takes JSON: done's number answer keeps its text
            parsed: object = claim_json(arguments or "{}")
        except (ValueError, RecursionError):  # not JSON, nested too deep, a huge number
            parsed = None
        if not isinstance(parsed, dict):
            return None, f"{name}: the arguments are not a JSON object: {arguments[:200]!r}"
        arguments = cast(Args, parsed)
    # Text the model sent is kept (claims, transcripts, the audit log): a lone surrogate
    # ("\ud800" in JSON) could not be written as UTF-8, so it stays as its escape.
    arguments = {storable(k): storable(v) if isinstance(v, str) else v
                 for k, v in arguments.items()}
    if name == "done":  # read as every claim is ("DONE", a number answer), then checked
        arguments = claim_fields(arguments)
    tool = tools.lookup(name)
    problem = argument_problem(tool, arguments)
    return (None, f"{name}: {problem}") if problem else (tool, given(arguments))


def argument_problem(tool: Tool, arguments: Args) -> str:
    """What is wrong with `arguments` for `tool` ("" when nothing): the subset of JSON schema
    the tools use (required keys, string type, enums, no extra keys). A `null` is an argument
    left out (`given`): fine where the tool does not require it, missing where it does."""
    properties = cast(dict[str, JsonSchema], tool.parameters["properties"])
    for key in cast(list[str], tool.parameters["required"]):
        if arguments.get(key) is None:
            return f"missing argument {key!r}" + (" (it is null)" if key in arguments else "")
    for key, value in arguments.items():
        spec = properties.get(key)
        if spec is None:
            return f"unknown argument {key!r}; arguments: {', '.join(properties) or 'none'}"
        if value is None:
            continue
        if spec.get("type") == "string" and not isinstance(value, str):
            return f"{key!r} must be a string, not {type(value).__name__}"
        if spec.get("type") == "number":
            problem = _number_problem(key, value, spec)
            if problem:
                return problem
        choices = cast(list[str] | None, spec.get("enum"))
        if choices is not None and value not in choices:
            return f"{key!r} must be one of {', '.join(choices)}; got {str(value)[:40]!r}"
    return ""


def given(arguments: Args) -> Args:
    """The arguments without those sent as `null`: leaving one out, as OpenAI's strict mode
    (every field present, an optional one nullable) and many clients fill an optional field,
    and as the claim file reads `"answer": null` (records.ClaimFile)."""
    return {key: value for key, value in arguments.items() if value is not None}


def _number_problem(key: str, value: object, spec: JsonSchema) -> str:
    """What is wrong with `value` as the number `spec` asks for ("" when nothing): JSON's
    true and false are not numbers, nor are NaN and Infinity (which Python's JSON reads)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"{key!r} must be a number, not {type(value).__name__}"
    if isinstance(value, float) and not math.isfinite(value):
        return f"{key!r} must be a finite number, not {value}"
    low, high = cast(float | None, spec.get("minimum")), cast(float | None, spec.get("maximum"))
    if high is not None and low is not None and not low <= value <= high:
        return f"{key!r} must be from {low:g} to {high:g}; got {short_number(value)}"
    if low is not None and value < low:
        return f"{key!r} must be at least {low:g}; got {short_number(value)}"
    if high is not None and value > high:
        return f"{key!r} must be at most {high:g}; got {short_number(value)}"
    return ""


def short_number(value: float) -> str:
    """A number a model sent, short (an int of a thousand digits stays readable)."""
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return text if len(text) <= 20 else text[:17] + "..."
