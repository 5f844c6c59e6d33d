"""Which model tools do what each step of a reference finish does: the tasks' step vocabulary
(phoneshell/tasks/steps.py) and the tool registry (tools.py) kept from drifting apart.

A task's `solution` is written in steps; a model has only the tools. `tool_uses(step)` names the
tool calls, and the arguments they use, with which a model does what `step` does, or None when
no tool can. tests/agents/test_agents_step_tools.py fails when a step used by any task's
reference finish has none, or names a tool or an argument the registry lacks, and when a step
kind is added without a word here on whether a model can do it.
"""

from __future__ import annotations

from phoneshell.tasks import Step

ToolUse = tuple[str, tuple[str, ...]]
"""A tool's name and the arguments a call of it gives."""

BY_ROW: tuple[ToolUse, ...] = (("tap", ("id",)),)
BY_KIND: dict[str, tuple[ToolUse, ...]] = {
    "tap": BY_ROW,
    "select_tab": BY_ROW,  # the tab's button
    "back_to": BY_ROW,  # the navigation bar's back button, as often as it takes
    "long_press": (("long_press", ("id", "seconds")),),
    "type": (("type", ("text",)),),
    "open_app": (("open_app", ("name",)),),
    "launch": (("open_app", ("name",)),),  # open_app takes a bundle id too
    "open_url": (("open_app", ("name",)), ("tap", ("id",)), ("type", ("text",))),  # Safari's
    # address field, the URL typed with a Return
    "press": (("press", ("button",)),),
    "home": (("press", ("button",)),),
    "set_picker": (("tap", ("x", "y")), ("swipe", ("from_x", "from_y", "to_x", "to_y"))),
    # a tap above or below one wheel's centre turns it a row; a drag along it, several
    "wait": (("observe", ()),),
    "answer": (("done", ("status", "answer")),),
    "answer_read": (("done", ("status", "answer")),),  # what the observation showed
}
SWIPE_BY_DIRECTION: tuple[ToolUse, ...] = (("swipe", ("direction",)),)
SWIPE_BY_POINTS: tuple[ToolUse, ...] = (("swipe", ("from_x", "from_y", "to_x", "to_y")),)

NO_TOOL: dict[str, str] = {
    "terminate": "a model cannot quit an app (the simulated iPhone has no app switcher to "
                 "swipe it away in); no task's finish needs it",
    "clean_notes": "setup and teardown only",
    "clean_alarms": "setup and teardown only",
    "delete_created": "teardown only",
    "restore_timer": "teardown only",
}
"""Step kinds no tool does, and why: a task whose reference finish uses one is one no model
can pass."""


def tool_uses(step: Step) -> tuple[ToolUse, ...] | None:
    """The tool calls with which a model does what `step` does (None: no tool can)."""
    if step.kind == "swipe":
        return SWIPE_BY_POINTS if step.start is not None else SWIPE_BY_DIRECTION
    return BY_KIND.get(step.kind)


__all__ = ["BY_KIND", "NO_TOOL", "ToolUse", "tool_uses"]
