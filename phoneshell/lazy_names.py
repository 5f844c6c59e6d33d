"""Packages whose public names are imported the first time they are used.

`phoneshell` and `phoneshell.runner` name in their `__all__` what lives in their modules. Read
eagerly, `import phoneshell.errors` imported the checks, the records and the runner too: every
command paid for them (about 0.5 s), `phoneshell finish` included, which a command agent runs at
the end of every attempt. `lazy(__name__, homes)` leaves a package's names where they live until
one is asked for. A module of them imported by anyone (the import system then sets it on its
package under its own name) sets them all: `phoneshell.grade` stays the function `grade`, never
its module of the same name.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Mapping
from typing import Any


class _LazyPackage(types.ModuleType):
    """A package whose public names are set from their modules as those are imported."""

    _homes: Mapping[str, tuple[str, ...]]
    """Each module (full name) with the public names the package takes from it."""

    def __getattr__(self, name: str) -> Any:
        for home, names in self._homes.items():
            if name in names:
                module = importlib.import_module(home)
                for public in names:
                    super().__setattr__(public, getattr(module, public))
                return self.__dict__[name]
        raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        names = self._homes.get(value.__name__) if isinstance(value, types.ModuleType) else None
        for public in names or ():
            super().__setattr__(public, getattr(value, public))
        if name not in (names or ()):
            super().__setattr__(name, value)


def lazy(package: str, homes: Mapping[str, tuple[str, ...]]) -> None:
    """Make the package `package` (being imported: call it from its `__init__`) take each name
    of `homes` from its module when first used; its `__all__` must list exactly those names
    (tests/test_architecture.py reads each)."""
    module = sys.modules[package]
    module.__dict__["_homes"] = dict(homes)
    module.__class__ = _LazyPackage
