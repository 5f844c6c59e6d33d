"""A JSON Schema of the task format, generated from the step and check registries.

Editors (VS Code's YAML extension, JetBrains) use it for completion and inline errors; see
docs/tasks.md. The loader stays the authority: it also compiles regexes and finds duplicate ids,
which a schema cannot express.
"""

from __future__ import annotations

from phoneshell.checks import CHECKS
from phoneshell.params import Param, object_schema
from phoneshell.tasks.model import TASK_FIELDS
from phoneshell.tasks.probes import PROBES
from phoneshell.tasks.steps import STEPS, StepKind, StepList

SCHEMA_ID = "https://phoneshell.dev/schema/task.json"


def _step_schema(kind: StepKind) -> list[dict[str, object]]:
    options: list[dict[str, object]] = []
    if kind.bare:
        options.append({"const": kind.name, "description": kind.doc})
    values: list[dict[str, object]] = []
    if kind.scalar is not None:
        values.append(kind.scalar.json_schema())
    if kind.params:
        values.append(object_schema(kind.params))
    if values:
        value: dict[str, object] = values[0] if len(values) == 1 else {"anyOf": values}
        if kind.bare:
            value = {"anyOf": [*values, {"type": "null"}]}
        options.append({"type": "object", "description": kind.doc,
                        "properties": {kind.name: value}, "required": [kind.name],
                        "additionalProperties": False})
    return options


def step_list_schema(where: StepList) -> dict[str, object]:
    """Schema of a setup, teardown or solution list."""
    options = [option for _, kind in STEPS.items() if where in kind.lists
               for option in _step_schema(kind)]
    return {"type": "array", "items": {"anyOf": options}}


def check_schema() -> dict[str, object]:
    """Schema of one check: one closed object per kind, told apart by `kind`."""
    options = []
    for name, kind in CHECKS.items():
        base: dict[str, object] = {"kind": {"const": name, "description": kind.doc}}
        extra = [Param("note", "str", "Why the check is there.")]
        if kind.negatable:
            extra.insert(0, Param("negate", "bool", "Pass when absent (fails closed on "
                                                    "incomplete evidence)."))
        schema = object_schema((*kind.params, *extra), base)
        if kind.probe_kind:
            properties = schema["properties"]
            assert isinstance(properties, dict)
            properties["probe"] = {"enum": [n for n, p in PROBES.items()
                                            if p.kind == kind.probe_kind],
                                   "description": f"A {kind.probe_kind} probe."}
        required = ["kind", *(f.name for f in kind.params
                              if f.required and name != "foreground_app")]
        schema["required"] = required
        schema["description"] = kind.doc
        options.append(schema)
    return {"anyOf": options}


def task_schema() -> dict[str, object]:
    """The whole task file schema (JSON Schema draft 2020-12)."""
    properties: dict[str, object] = {}
    for spec in TASK_FIELDS:
        if spec.name in ("setup", "teardown", "solution"):
            schema = step_list_schema(spec.name)  # type: ignore[arg-type]
            schema["description"] = spec.doc
        elif spec.name == "checks":
            schema = {"type": "array", "items": check_schema(), "minItems": 1,
                      "description": spec.doc}
        else:
            schema = spec.json_schema()
        properties[spec.name] = schema
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "phoneshell task",
        "type": "object",
        "properties": properties,
        "required": [f.name for f in TASK_FIELDS if f.required],
        "additionalProperties": False,
    }
