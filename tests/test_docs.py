"""The docs name every check kind and step the registries hold, so they cannot drift apart."""

from __future__ import annotations

from pathlib import Path

from phoneshell.checks import CHECKS
from phoneshell.tasks import STEPS

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_every_check_kind_has_a_section_with_a_passing_and_a_failing_example() -> None:
    text = (DOCS / "checks.md").read_text()
    for name in CHECKS.names():
        heading = f"## `{name}` ("
        assert heading in text, f"docs/checks.md has no section for {name}"
        section = text.split(heading, 1)[1].split("\n## ", 1)[0]
        assert "- passes:" in section and "- fails:" in section, name


def test_every_step_is_in_the_task_format_doc() -> None:
    text = (DOCS / "tasks.md").read_text()
    for name in STEPS.names():
        assert f"| `{name}` |" in text, f"docs/tasks.md does not describe step {name}"
