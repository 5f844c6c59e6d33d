"""Every registry is filled by an explicit import list, and registries that come in pairs (a
vocabulary and its implementation) hold the same names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from phoneshell.checks import CHECKS
from phoneshell.device import EXECUTORS, READERS
from phoneshell.report.writers import WRITERS
from phoneshell.tasks import STEPS
from phoneshell.tasks.probes import PROBES

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_steps_and_their_executors_are_the_same_names() -> None:
    # `answer` is the agent's word, not a device action: the solution agent reports it
    assert set(STEPS.names()) - {"answer"} == set(EXECUTORS.names())


def test_probes_and_their_readers_are_the_same_names() -> None:
    assert set(PROBES.names()) == set(READERS.names())


def test_every_report_writer_is_documented() -> None:
    text = (DOCS / "reports.md").read_text()
    assert WRITERS.names() == ["html", "junit"]
    assert all(f"--{name}" in text for name in WRITERS.names())


def test_every_check_kind_and_probe_is_documented() -> None:
    checks, probes = (DOCS / "checks.md").read_text(), (DOCS / "probes.md").read_text()
    assert all(f"## `{name}`" in checks or f"### `{name}`" in checks for name in CHECKS.names())
    assert all(f"`{name}`" in probes for name in PROBES.names())


def test_importing_only_the_runner_finds_every_agent() -> None:
    # A fresh interpreter: nothing but the runner imported, as a library user would do it.
    code = ("import phoneshell.runner as r\n"
            "from phoneshell.agents import BUILTIN, make_agent\n"
            "for name in ('null', 'solution', 'open-app'):\n"
            "    make_agent(name)\n"
            "from phoneshell.agents.base import AGENTS\n"
            "print(sorted(set(BUILTIN) - set(AGENTS.names())))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
