"""One cheap finish of `phoneshell attack` (`Attack`): the steps it plays, the answer it claims,
the attempt it starts after, and the task as it is graded; and what a finish is made of from a
task file (its reference steps, its claimed answer, a step without where it was written). Pure:
reads tasks, never a phone (`families` makes the finishes).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from phoneshell.records import AttackFamily
from phoneshell.tasks import Step, Task
from phoneshell.tasks.steps import ANSWER_STEPS

ANSWER_KINDS = ("answer_contains", "answer_matches_device")
"""The check kinds that read the claimed answer."""


@dataclass(frozen=True)
class PhoneValue:
    """The reference answer of a task whose reference finish reads it off the screen it ends
    on (`answer_read`): the phone's own value (another on every phone). A cheap finish that
    "claims the reference answer" cannot read it where it stands (the screen it ends on need
    not show it: read there, it claimed nothing, or whatever else matched), nor claim a text
    read off one phone (wrong on the next, for no fault of the finish). So it claims none and
    is graded without the task's answer checks: as if it had claimed the right value, the
    screen and path checks alone decide, as they do for the other tasks' finishes."""

    read: Step
    """The reference finish's `answer_read` step."""


@dataclass(frozen=True)
class Attack:
    """One cheap finish aimed at one task."""

    task: Task
    """The task it is graded as."""
    family: AttackFamily
    id: str
    """Unique within the task and the same on every run, e.g. `echo:spotlight:Model Number`."""
    steps: tuple[Step, ...]
    answer: str | PhoneValue | None = None
    """The answer the finish claims: a text; `PhoneValue`, for the value the reference finish
    reads off the phone (none is claimed, and the answer checks are not graded); or None for
    none."""
    left_by: Task | None = None
    """A task whose reference attempt (its setup, finish and teardown) runs on the phone first,
    so this finish starts from what that attempt left (the residue family)."""

    pick: str = ""
    """What the last step picks among what the phone lists, when it does (wrong-page: "result
    2 of the search for 'Battery'"): a phone that lists fewer has no such page to open."""

    def finish(self) -> tuple[Step, ...]:
        """The steps, then the answer step when there is one (as a task's `solution`)."""
        if isinstance(self.answer, str):
            return (*self.steps, Step("answer", self.answer))
        return self.steps

    @property
    def said(self) -> str | None:
        """The claimed answer for people: its text (None for none)."""
        return self.answer if isinstance(self.answer, str) else None

    def graded(self) -> Task:
        """The task as the finish is graded: without its answer checks when the finish stands
        for the phone's own value (`PhoneValue`), as if it had claimed it."""
        if not isinstance(self.answer, PhoneValue):
            return self.task
        return replace(self.task, checks=tuple(c for c in self.task.checks
                                               if c.kind not in ANSWER_KINDS))

    def cleanup(self) -> tuple[Step, ...]:
        """Steps that delete what the finish itself left behind, to run after the task's
        teardown: a note it typed into a new note (later finishes, and the count probes, must
        find Notes as setup leaves it); for a leaver, also a note the attempt before it typed,
        which is left for the finish to be graded on and goes only after it."""
        steps: list[Step] = []
        new_note = False
        before = self.left_by.solution or () if self.family == "leaver" and self.left_by else ()
        for step in (*before, *self.steps):
            new_note = new_note or (step.kind == "tap" and step.arg == "New Note")
            if new_note and step.kind == "type" and step.arg.strip():
                steps.append(Step("clean_notes", options=(("text", step.arg.strip()),
                                                          ("exact", "yes"))))
        return tuple(steps)

    def described(self) -> tuple[str, ...]:
        """The finish for people, one step a line (without where steps were written), after the
        attempt it starts from, when there is one."""
        after: tuple[str, ...] = ()
        if self.family == "leaver" and self.left_by is not None:
            after = (f"(after an attempt of {self.left_by.id.split(LEAVING)[0]} whose agent "
                     f"played {self.task.id}'s reference finish instead of its own, then "
                     "that task's teardown)",)
        elif self.left_by is not None:
            after = (f"(after an attempt of {self.left_by.id}: its setup, reference finish and "
                     "teardown)",)
        unclaimed: tuple[str, ...] = ()
        if isinstance(self.answer, PhoneValue):
            unclaimed = (f"(no answer: the reference finish reads it off the phone "
                         f"({self.answer.read.describe()}), where this finish need not be; "
                         "graded without the answer checks, as if it had claimed it)",)
        return (*after, *(replace(step, file="", line=0).describe() for step in self.finish()),
                *unclaimed)


LEAVING = ".leaving."
"""Joins the earlier task's id and the task's in a leaver's attempt (its folder's name)."""


def step_key(step: Step) -> tuple[object, ...]:
    """What a step does, without where it was written (two tasks' `home` are the same step)."""
    return (step.kind, step.arg, step.seconds, step.start, step.end, step.options)


def reference(task: Task) -> tuple[Step, ...]:
    """The reference finish's steps, without its answer (a text or a reading)."""
    return tuple(s for s in task.solution or () if s.kind not in ANSWER_STEPS)


def claim(task: Task) -> str | PhoneValue | None:
    """What the reference finish answers, for a cheap finish to claim too: its text, or, when
    it reads the value off the phone, `PhoneValue` (claimed as the right value would be)."""
    step = task.answer_step()
    return PhoneValue(step) if step is not None and step.kind == "answer_read" else task.answer()
