"""Typed parameters of steps and checks: what each accepts, for validation, docs and JSON Schema.

A step or check kind lists its `Param`s; the task loader reads YAML against them and the schema
generator describes them, so the accepted vocabulary is written down once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

ParamType = Literal["str", "bool", "int", "number", "regex", "str_list", "point", "choice",
                    "str_map", "bundle_id", "bundle_ids", "wda_type"]
ParamValue = (str | bool | int | float | tuple[str, ...] | tuple[float, float]
              | tuple[tuple[str, str], ...])
"""A parameter's value once read: str (str, regex, choice, bundle_id, wda_type), bool, int,
float, a list of strings (str_list, bundle_ids: as a tuple), a point, or a mapping of strings to
strings (as (key, value) pairs in file order). A `bundle_id` is an app's bundle id and a
`wda_type` an element type without its XCUIElementType prefix, each checked against what
phoneshell knows where the task file names it (`phoneshell.tasks.names`)."""


@dataclass(frozen=True)
class Param:
    """One named parameter of a step or check."""

    name: str
    """The YAML key."""
    type: ParamType
    """How the value is read: a non-empty string, a regex (compiled at load), a bundle id, a
    WDA element type, a list..."""
    doc: str
    """One line for people: shown in `phoneshell schema` and docs."""
    required: bool = False
    """Whether the key must be present."""
    choices: tuple[str, ...] = ()
    """The accepted values of a `choice` field."""
    minimum: float | None = None
    """The smallest accepted value of an `int` or `number` field."""
    maximum: float | None = None
    """The largest accepted value of an `int` or `number` field."""
    default: ParamValue | None = None
    """The value when the key is absent (None: the type's empty value, "" or 0 or ())."""

    def empty(self) -> ParamValue:
        """The value of this parameter when the key is absent."""
        if self.default is not None:
            return self.default
        empties: dict[str, ParamValue] = {"bool": False, "int": 0, "number": 0.0, "str_list": (),
                                          "bundle_ids": ()}
        return empties.get(self.type, "")

    def describe(self) -> str:
        """Say what the field accepts, as used in error messages."""
        return {
            "str": "a non-empty string",
            "bool": "true or false",
            "int": "a whole number" + self._bounds(),
            "number": "a number" + self._bounds(),
            "regex": "a regular expression (Python `re` syntax)",
            "str_list": "a list of non-empty strings",
            "point": "a point [x, y] in screen points",
            "choice": "one of " + ", ".join(repr(c) for c in self.choices),
            "str_map": "a mapping of names to non-empty strings",
            "bundle_id": "an app's bundle id, e.g. com.apple.Preferences",
            "bundle_ids": "a non-empty list of bundle ids, e.g. [com.apple.Preferences]",
            "wda_type": "a WDA element type without its XCUIElementType prefix, e.g. Button",
        }[self.type]

    def _bounds(self) -> str:
        low = f" >= {self.minimum:g}" if self.minimum is not None else ""
        high = f" <= {self.maximum:g}" if self.maximum is not None else ""
        return low + ("," if low and high else "") + high

    def json_schema(self) -> dict[str, object]:
        """Return the JSON Schema fragment for this field's value."""
        schema: dict[str, object]
        if self.type in ("str", "regex", "bundle_id", "wda_type"):
            schema = {"type": "string", "minLength": 1}
        elif self.type == "bool":
            schema = {"type": "boolean"}
        elif self.type in ("int", "number"):
            schema = {"type": "integer" if self.type == "int" else "number"}
            if self.minimum is not None:
                schema["minimum"] = self.minimum
            if self.maximum is not None:
                schema["maximum"] = self.maximum
        elif self.type == "str_list":
            schema = {"type": "array", "items": {"type": "string", "minLength": 1}}
        elif self.type == "bundle_ids":
            schema = {"type": "array", "items": {"type": "string", "minLength": 1},
                      "minItems": 1}
        elif self.type == "str_map":
            schema = {"type": "object", "additionalProperties": {"type": "string",
                                                                 "minLength": 1}}
        elif self.type == "point":
            schema = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
        else:
            schema = {"type": "string", "enum": list(self.choices)}
        schema["description"] = self.doc
        return schema


def object_schema(fields: Sequence[Param], extra: dict[str, object] | None = None,
                  ) -> dict[str, object]:
    """Return a closed JSON Schema object with `fields` (plus `extra` properties)."""
    properties: dict[str, object] = dict(extra or {})
    properties.update({f.name: f.json_schema() for f in fields})
    required = [f.name for f in fields if f.required]
    schema: dict[str, object] = {"type": "object", "properties": properties,
                                 "additionalProperties": False}
    if required:
        schema["required"] = required
    return schema
