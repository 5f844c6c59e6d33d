"""The tasks' step vocabulary and the model tools cannot drift apart: every step a task's
reference finish uses can be done by tools the registry has, with arguments their schemas
take (step_tools.py), and every step kind is either done by tools or said to be done by none."""

from __future__ import annotations

from typing import cast

from phoneshell.agents.step_tools import BY_KIND, NO_TOOL, tool_uses
from phoneshell.agents.tools import TOOLS
from phoneshell.tasks import STEPS, Step, Task


def _missing(step: Step) -> str:
    """What the tools lack to do `step` ("" when nothing)."""
    uses = tool_uses(step)
    if uses is None:
        return f"no tool does a {step.kind!r} step" + (
            f" ({NO_TOOL[step.kind]})" if step.kind in NO_TOOL else "")
    for name, keys in uses:
        if name not in TOOLS:
            return f"the tool {name!r} is not in the registry"
        properties = cast(dict[str, object], TOOLS.lookup(name).parameters["properties"])
        lacking = [k for k in keys if k not in properties]
        if lacking:
            return f"the tool {name!r} takes no {', '.join(lacking)}"
    return ""


def test_every_step_of_a_reference_finish_has_tools_that_do_it(suite: dict[str, Task]) -> None:
    gaps = [f"{step.describe()}: {_missing(step)}" for task in suite.values()
            for step in task.solution or () if _missing(step)]
    assert not gaps, "a model could not do what these finishes do:\n" + "\n".join(gaps)


def test_every_step_kind_is_done_by_tools_or_said_to_be_done_by_none() -> None:
    said = set(BY_KIND) | set(NO_TOOL) | {"swipe"}
    assert set(STEPS.names()) <= said, set(STEPS.names()) - said
    assert not set(BY_KIND) & set(NO_TOOL)


def test_the_guard_sees_the_forms_a_step_takes() -> None:
    # A drag between points and a hold need tools that take points and a duration; a
    # registry without them fails the guard (what the red team found: tap, swipe by
    # direction, nothing else).
    assert _missing(Step("swipe", start=(60, 2), end=(60, 640))) == ""
    assert _missing(Step("long_press", "anchor", seconds=1.0)) == ""
    assert _missing(Step("terminate", "com.apple.Maps")).startswith("no tool does a 'terminate'")
    swipe = cast(dict[str, object], TOOLS.lookup("swipe").parameters["properties"])
    assert {"from_x", "from_y", "to_x", "to_y", "direction"} <= set(swipe)
