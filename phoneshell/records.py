"""Strict reading of the versioned JSON records that cross a file or process boundary.

Every contract (audit event, evidence manifest, verdict, results row, run manifest) is a frozen
dataclass written with `to_jsonable` and read back field by field with `Fields`, which refuses
unknown keys, wrong types and unknown versions instead of guessing.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from typing import TypeVar

T = TypeVar("T")
Scalar = str | int | float | bool | None


class RecordError(ValueError):
    """A record that does not match its contract; the message says where and how."""


def to_jsonable(record: object) -> object:
    """Turn a dataclass record (nested, with tuples and mappings) into plain JSON values."""
    if dataclasses.is_dataclass(record) and not isinstance(record, type):
        return {f.name: to_jsonable(getattr(record, f.name)) for f in dataclasses.fields(record)
                if not f.name.startswith("_")}
    if isinstance(record, Mapping):
        return {str(k): to_jsonable(v) for k, v in record.items()}
    if isinstance(record, (list, tuple)):
        return [to_jsonable(v) for v in record]
    return record


def dumps(record: object) -> str:
    """One record as compact JSON on one line (no trailing newline)."""
    return json.dumps(to_jsonable(record), ensure_ascii=False, separators=(",", ":"))


class Fields:
    """Read one JSON object strictly; call `done()` last to reject keys nobody read.

    Args:
        data: the decoded JSON value, expected to be an object.
        where: how to name this record in errors ("audit.jsonl line 3").
    """

    def __init__(self, data: object, where: str) -> None:
        if not isinstance(data, dict):
            raise RecordError(f"{where}: expected a JSON object, got {type(data).__name__}")
        self._data: dict[str, object] = data
        self._seen: set[str] = set()
        self.where = where

    def _get(self, key: str, required: bool) -> object:
        self._seen.add(key)
        if key not in self._data:
            if required:
                raise RecordError(f"{self.where}: missing field {key!r}")
            return None
        return self._data[key]

    def _fail(self, key: str, wanted: str, got: object) -> RecordError:
        return RecordError(f"{self.where}: field {key!r} should be {wanted}, got {got!r}")

    def text(self, key: str, default: str | None = None) -> str:
        """A string field; `default` makes it optional."""
        value = self._get(key, default is None)
        if value is None and default is not None:
            return default
        if not isinstance(value, str):
            raise self._fail(key, "a string", value)
        return value

    def integer(self, key: str, default: int | None = None) -> int:
        """An integer field (booleans are refused)."""
        value = self._get(key, default is None)
        if value is None and default is not None:
            return default
        if not isinstance(value, int) or isinstance(value, bool):
            raise self._fail(key, "an integer", value)
        return value

    def number(self, key: str, default: float | None = None) -> float:
        """A number field."""
        value = self._get(key, default is None)
        if value is None and default is not None:
            return default
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise self._fail(key, "a number", value)
        return float(value)

    def flag(self, key: str, default: bool | None = None) -> bool:
        """A boolean field."""
        value = self._get(key, default is None)
        if value is None and default is not None:
            return default
        if not isinstance(value, bool):
            raise self._fail(key, "true or false", value)
        return value

    def opt_flag(self, key: str) -> bool | None:
        """A boolean or null field (null when absent)."""
        value = self._get(key, False)
        if value is not None and not isinstance(value, bool):
            raise self._fail(key, "true, false or null", value)
        return value

    def opt_integer(self, key: str) -> int | None:
        """An integer or null field (null when absent)."""
        value = self._get(key, False)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise self._fail(key, "an integer or null", value)
        return value

    def choice(self, key: str, choices: tuple[str, ...], default: str | None = None) -> str:
        """A string field that must be one of `choices`."""
        value = self.text(key, default)
        if value not in choices:
            raise self._fail(key, "one of " + ", ".join(choices), value)
        return value

    def str_list(self, key: str, required: bool = False) -> tuple[str, ...]:
        """A list of strings (empty when absent and not required)."""
        value = self._get(key, required)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self._fail(key, "a list of strings", value)
        return tuple(value)

    def scalars(self, key: str) -> dict[str, Scalar]:
        """An object whose values are JSON scalars (empty when absent)."""
        value = self._get(key, False)
        if value is None:
            return {}
        if not isinstance(value, dict) or not all(
                v is None or isinstance(v, (str, int, float, bool)) for v in value.values()):
            raise self._fail(key, "an object of plain values", value)
        return dict(value)

    def obj(self, key: str, read: Callable[[Fields], T], required: bool = True) -> T | None:
        """A nested object read with `read`; None when absent and not required."""
        value = self._get(key, required)
        if value is None:
            return None
        return read(Fields(value, f"{self.where}.{key}"))

    def objs(self, key: str, read: Callable[[Fields], T], required: bool = False,
             ) -> tuple[T, ...]:
        """A list of nested objects, each read with `read`."""
        value = self._get(key, required)
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self._fail(key, "a list", value)
        return tuple(read(Fields(v, f"{self.where}.{key}[{i}]")) for i, v in enumerate(value))

    def raw(self, key: str) -> object:
        """A field taken as it is (for values a caller checks itself)."""
        return self._get(key, False)

    def version(self, key: str, supported: int) -> int:
        """Read the version field and refuse versions this code does not know."""
        value = self.integer(key)
        if value != supported:
            raise RecordError(f"{self.where}: version {value} is not supported "
                              f"(this phoneshell reads version {supported})")
        return value

    def done(self) -> None:
        """Refuse keys that were never read: a typo or a newer writer, never silently dropped."""
        extra = sorted(set(self._data) - self._seen)
        if extra:
            raise RecordError(f"{self.where}: unknown field(s) " + ", ".join(map(repr, extra)))
