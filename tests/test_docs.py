"""The docs name every check kind and step the registries hold, so they cannot drift apart."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from phoneshell.checks import CHECKS
from phoneshell.tasks import STEPS

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


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


def test_every_check_example_in_the_docs_loads() -> None:
    from phoneshell.tasks import parse_task

    text = (DOCS / "checks.md").read_text()
    blocks = [b.split("```", 1)[0] for b in text.split("```yaml\n")[1:]]
    examples = [b for b in blocks if b.lstrip().startswith("- kind:")]
    assert len(examples) >= len(CHECKS.names())
    for block in examples:
        task = ("id: docs.example\nname: Example\napp: com.apple.Preferences\n"
                "instruction: x\nchecks:\n" + "".join(f"  {line}\n" for line in
                                                      block.splitlines()))
        loaded, problems = parse_task(task, "docs/checks.md")
        assert loaded is not None, (block, [str(p) for p in problems])


def test_the_records_page_is_generated_from_the_models() -> None:
    spec = importlib.util.spec_from_file_location("record_docs", ROOT / "scripts" /
                                                  "record_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (DOCS / "records.md").read_text() == module.render(), \
        "docs/records.md is stale: run scripts/record_docs.py > docs/records.md"
