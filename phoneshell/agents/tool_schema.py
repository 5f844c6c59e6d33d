"""What a tool is, as every agent path presents it, and the check of a model's arguments
against its schema (the subset of JSON schema the tools use). Pure; the tools themselves and
their registry are `tools`."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

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
