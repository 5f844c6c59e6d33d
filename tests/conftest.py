"""Shared fixtures: where the reference corpus lives, the suite's tasks, a fresh simulated
iPhone, and the sandbox command agents run in.

The reference data (`../shared/reference`) sits beside the project on every developer machine
and in CI. Tests that need it skip, saying why, when it is absent (e.g. a clone on its own);
`.ci/run` sets PHONESHELL_REQUIRE_REFERENCE=1, which turns that skip into a failure.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from session_folder import made_once

from phoneshell.agents.sandbox import Sandbox
from phoneshell.agents.sandbox_choice import choose
from phoneshell.errors import RunError
from phoneshell.seal import load_key
from phoneshell.sim import SimServer
from phoneshell.tasks import Task, load_tasks

ROOT = Path(__file__).resolve().parent.parent
# The phones phoneshell starts (`--device sim`, `phoneshell sim`) are the reference phone in
# tests, whose values (87%, 274° W, MQ163LL/A) tests and docs quote; each draws its own
# elsewhere. Tests of the drawing set their own (tests/sim/test_sim_device_values.py).
os.environ.setdefault("PHONESHELL_SIM_SEED", "0")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker more than the cores. Much of a test's time is spent waiting (on a
    simulator's answer, a subprocess, an effect's deadline), so a third worker on two cores
    took the whole run from 246 s to 227 s."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1  # (macOS has no affinity call: all its cores are the process's)


def pytest_configure(config: pytest.Config) -> None:
    """Keep compiled bytecode, as Python does by default: where PYTHONDONTWRITEBYTECODE is set
    (some machine images set it), each of the ~170 CLI subprocesses the tests start recompiled
    phoneshell, about 0.4 s a call. The caches go where Python puts them, ignored by git."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


def pytest_collection_finish(session: pytest.Session) -> None:
    """Leave what collection made (every module, the suite's tasks) out of garbage collection:
    none of it is garbage, and each full collection walked all of it again (half the time the
    collector took in a test process, about 4% of its CPU)."""
    gc.collect()
    gc.freeze()


REFERENCE = Path(os.environ.get("PHONESHELL_REFERENCE", ROOT.parent / "shared" / "reference"))


@pytest.fixture(scope="session", autouse=True)
def signing_key(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The key runs are sealed with: one of the test session's own, never the user's (the CLI
    run as a subprocess inherits it through the environment). Its xdist workers share it, as
    one user's commands do: a run one worker made (the judges' shared judgeset) is verified in
    another."""
    with pytest.MonkeyPatch.context() as patch:
        def make(folder: Path) -> None:
            folder.mkdir()
            patch.setenv("PHONESHELL_KEY_FILE", str(folder / "run-signing.key"))
            load_key(create=True)

        path = made_once(tmp_path_factory, "config", make) / "run-signing.key"
        patch.setenv("PHONESHELL_KEY_FILE", str(path))
        yield path


IOS_DUMPS = 8
"""The real iOS page sources in the reference data's `ios-sources/` (its SOURCES.md lists
them): a loop over them that finds fewer has lost some, and asserts nothing of them."""


@pytest.fixture(scope="session")
def reference() -> Path:
    """The reference data folder (task corpus, baseline pairs, real WDA sources): the one way
    tests reach it (`tests/test_tests.py` holds them to it)."""
    missing = [part for part in ("phoneshell-environments", "ios-sources")
               if not (REFERENCE / part).is_dir()]
    if missing:
        message = (f"reference data not found at {REFERENCE} (no {', '.join(missing)}; "
                   "set PHONESHELL_REFERENCE)")
        if os.environ.get("PHONESHELL_REQUIRE_REFERENCE"):
            pytest.fail(message)
        pytest.skip(message)
    return REFERENCE


@pytest.fixture(scope="session")
def ios_sources(reference: Path) -> Path:
    """The reference data's real iOS page sources (`ios-sources/`), dumps named as there."""
    return reference / "ios-sources"


@pytest.fixture(scope="session")
def ios_dumps(ios_sources: Path) -> tuple[Path, ...]:
    """Every real iOS page source of the reference data, in name order: all `IOS_DUMPS`."""
    dumps = tuple(sorted(ios_sources.glob("*.xml")))
    assert len(dumps) >= IOS_DUMPS, f"{len(dumps)} dumps in {ios_sources}, not {IOS_DUMPS}"
    return dumps


@pytest.fixture(scope="session")
def environments() -> Path:
    """The project's own task suite."""
    return ROOT / "environments"


@pytest.fixture(scope="session")
def suite(environments: Path) -> dict[str, Task]:
    """The suite's tasks by id."""
    return {t.id: t for t in load_tasks([environments]).tasks}


@pytest.fixture
def sim() -> Iterator[SimServer]:
    """A fresh simulated iPhone on a free loopback port, stopped after the test."""
    with SimServer() as server:
        yield server


@pytest.fixture(scope="session")
def bwrap() -> Sandbox:
    """The sandbox a run gives command agents on Linux. `.ci/run` installs bubblewrap and sets
    PHONESHELL_REQUIRE_SANDBOX=1, which turns a missing one from a skip into a failure."""
    try:
        return choose("bwrap")
    except RunError as exc:
        if os.environ.get("PHONESHELL_REQUIRE_SANDBOX") == "1":
            raise
        pytest.skip(f"no sandbox here: {exc.message}")
