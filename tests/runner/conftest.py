"""Fixtures for runner tests: the suite's tasks and a fresh simulated iPhone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from phoneshell.sim import SimServer
from phoneshell.tasks import Task, load_tasks

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def suite() -> dict[str, Task]:
    """The suite's tasks by id."""
    return {t.id: t for t in load_tasks([ROOT / "environments"]).tasks}


@pytest.fixture
def sim() -> Iterator[SimServer]:
    """A fresh simulated iPhone, stopped after the test."""
    with SimServer() as server:
        yield server

