"""A task lists each tag once: a repeat, in any case or spacing, and white space around a tag
are errors at the tag's line, so no report counts a task's attempts twice under one tag."""

from __future__ import annotations

import textwrap
from pathlib import Path

from cli_process import run_cli

from phoneshell.tasks import parse_task
from phoneshell.tasks.tags import distinct_tags, tag_key

TASK = """\
id: demo.task
name: Demo
app: com.apple.calculator
instruction: Open the Calculator.
tags:
{tags}
checks:
  - kind: foreground_app
    text: com.apple.calculator
"""


def errors_of(*tags: str) -> list[str]:
    """The error lines of a task file with these tags, written as YAML quoted strings."""
    text = TASK.format(tags="\n".join(f'  - "{tag}"' for tag in tags))
    task, problems = parse_task(textwrap.dedent(text), "demo.yaml")
    errors = [str(p) for p in problems if p.severity == "error"]
    assert (task is None) == bool(errors)
    return errors


def test_a_tag_listed_twice_in_any_case_or_spacing_is_an_error_at_its_line() -> None:
    """Red team 102 (RT102-3): `[notes, search, notes, Notes]` loaded, and reports counted
    each attempt twice under `notes` ("4/4" of 2 attempts, "planned 4")."""
    (again,) = errors_of("notes", "search", "notes")
    assert again.startswith("demo.yaml:8:5: error: tag 'notes' is listed twice (first as "
                            "'notes' at line 6): a task carries a tag once"), again
    (cased,) = errors_of("Notes", "notes")
    assert cased.startswith("demo.yaml:7:5: error: tag 'notes' is listed twice (first as "
                            "'Notes' at line 6)"), cased
    assert errors_of("capability:typing", "Capability:Typing")[0].startswith(
        "demo.yaml:7:5: error: tag 'Capability:Typing' is listed twice")


def test_white_space_around_a_tag_or_its_capability_is_an_error() -> None:
    """`capability:typing ` printed as a second "typing" row beside `capability:typing`."""
    (spaced,) = errors_of("capability:typing ")
    assert spaced == ("demo.yaml:6:5: error: tag 'capability:typing ' has white space around "
                      "it (or around its capability's name), so reports would show another tag "
                      "beside 'capability:typing': write 'capability:typing'")
    assert "has white space around" in errors_of(" notes")[0]
    assert "has white space around" in errors_of("capability: typing")[0]
    assert errors_of("capability: ") == ["demo.yaml:6:5: error: tag 'capability: ' names no "
                                         "capability"]
    spaced_twice = errors_of("capability:typing", "capability:typing ")
    assert len(spaced_twice) == 2 and "listed twice" in spaced_twice[1]
    assert errors_of("notes", "capability:typing", "first-party") == []


def test_what_makes_two_tags_one() -> None:
    assert tag_key(" Notes ") == tag_key("notes") == "notes"
    assert tag_key("capability: Typing") == "capability:typing"
    assert distinct_tags(["notes", "Notes", "capability:typing ", "capability:typing",
                          "search"]) == ("notes", "capability:typing", "search")


def test_check_tasks_refuses_the_file(tmp_path: Path) -> None:
    text = TASK.format(tags="  - notes\n  - search\n  - notes")
    (tmp_path / "demo.yaml").write_text(text)
    done = run_cli("check-tasks", str(tmp_path))
    assert done.returncode != 0, done.stdout
    assert f"{tmp_path / 'demo.yaml'}:8:5: error: tag 'notes' is listed twice" in \
        done.stdout + done.stderr
    assert "0 task(s) valid, 1 error(s)" in done.stdout + done.stderr
