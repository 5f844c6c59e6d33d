"""Cheap finishes made from a task file: the families of `phoneshell attack`. Pure: reads tasks,
never a phone.

Each finish is steps an agent could take through the bridge, and the answer it would claim. A
finish is made from what the task file says (its app, its checks' words and patterns, its
reference finish), never from what the phone shows, and never does what the instruction asks
on purpose: where one does anyway, the task file says so in `compatible_attacks`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from phoneshell.apps import APPLE_APPS
from phoneshell.attack.examples import (
    compass_headings,
    near_numbers,
    near_words,
    regex_examples,
    with_units_agreeing,
)
from phoneshell.records import AttackFamily
from phoneshell.tasks import Step, Task
from phoneshell.tasks.steps import ANSWER_STEPS
from phoneshell.xcui import NOTES, SAFARI, SPRINGBOARD

SPOTLIGHT_DRAG = ((201.0, 300.0), (201.0, 620.0))
"""A downward drag in the middle of the home screen: it opens Spotlight (iPhone portrait)."""
ANSWER_KINDS = ("answer_contains", "answer_matches_device")
SHOWN_KINDS = ("element_exists", "element_exists_anywhere", "typed_into", "tapped",
               "answer_contains", "countdown", "page_shown")
"""Kinds whose `text` (`page_shown`'s `url`, the site Safari's address field names) is words
that show up where the check looks."""
PATTERN_KINDS = ("regex_on_screen", "device_value")
KEYS = {**{d: d for d in "0123456789"}, ".": "Decimal"}
"""The keys of a keypad that type each character, by their accessibility names."""
KEYPAD_APPS = frozenset({APPLE_APPS["Calculator"]})
"""Apps whose screen is a keypad of those keys: a number keyed in anywhere else (Clock's
timer wheels) taps nothing it means."""
SEARCH_FIELD_APPS = frozenset(APPLE_APPS[name] for name in (
    "Settings", "Notes", "Contacts", "Files", "Maps", "Reminders"))
"""Apps that open with their own search field on screen (`tap Search` finds it). Calculator,
Clock, Compass, Measure and Weather have none; Safari's is its address bar (echo's `safari`
surface); Books, the App Store and Calendar search behind a tab or a button."""
MAX_WORDS_CHARS = 80
"""Longer strings a pattern accepts (a sentence nine times over) are not echoed: the shortest
example of each alternative already shows whether typing it passes."""


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


def residue(task: Task, tasks: Sequence[Task]) -> Iterator[Attack]:
    """Only open the task's app (nothing for a task centred on the home screen) right after an
    honest attempt of a task on the same app, itself included: what that attempt left on the
    phone through its own teardown (a running timer, the tab Clock reopens on, a page Safari
    restores) must not pass this task. The reference answer is claimed, so only the screen and
    path checks are tested. None for a task that opening its app (and answering) rightly passes:
    `open-app` or `result-only:answer`, the same finish without an attempt before it, in its
    `compatible_attacks`."""
    if {"open-app", "result-only:answer"} & set(dict(task.compatible_attacks)):
        return
    for earlier in tasks:
        if earlier.solution and earlier.app == task.app:
            yield Attack(task, "residue", f"residue:{earlier.id}", _opened(task), claim(task),
                         left_by=earlier)


def leaver(task: Task, tasks: Sequence[Task]) -> Iterator[Attack]:
    """Only open the task's app right after an attempt of another task whose agent played this
    task's reference finish instead of its own, then that task's teardown: what one attempt's
    agent leaves on the phone (a stopwatch left going; an app left open on the page asked for,
    before the runner stopped those) must not pass a later attempt of this task. The earlier
    tasks: one of each distinct setup and teardown among those of the same app (not the task's
    own: `residue` plays that), and the first of another app whose teardown leaves this task's
    app running. What that attempt made stays for the finish (its teardown deletes only what its
    own count saw grow); a note it typed goes after the finish (`cleanup`). Where the task's
    setup opens the app its finish starts in, and the finish does not open it itself, only
    earlier tasks whose setup opens it the same way: under any other the finish starts where it
    cannot be played (the scrolled list's swipes and tap on General, from the home screen), and
    the attempt would test nothing. The reference answer is claimed. None for the tasks
    `residue` leaves out."""
    finish = reference(task)
    if not finish or {"open-app", "result-only:answer"} & set(dict(task.compatible_attacks)):
        return
    seen = {_shape(task)}
    other_app = False
    start = _opening(task) if finish[0].kind not in OPENING_STEPS else None
    for earlier in tasks:
        same = earlier.app == task.app
        if _shape(earlier) in seen or not same and (other_app or _stops(earlier, task.app)) \
                or start is not None and _opening(earlier) != start:
            continue
        seen.add(_shape(earlier))
        other_app = other_app or not same
        left = replace(earlier, id=f"{earlier.id}{LEAVING}{task.id}", solution=finish,
                       checks=())
        yield Attack(task, "leaver", f"leaver:{earlier.id}", _opened(task), claim(task),
                     left_by=left)


LEAVING = ".leaving."
"""Joins the earlier task's id and the task's in a leaver's attempt (its folder's name)."""


def _shape(task: Task) -> tuple[object, ...]:
    return tuple(map(step_key, task.setup)), tuple(map(step_key, task.teardown))


OPENING_STEPS = frozenset({"open_app", "launch", "open_url"})
"""Steps that bring an app to the front, wherever the phone was."""


def _opening(task: Task) -> tuple[object, ...] | None:
    """The last step of the task's setup that opens an app (None when it opens none)."""
    opened = [step_key(s) for s in task.setup if s.kind in OPENING_STEPS]
    return opened[-1] if opened else None


def _stops(task: Task, app: str) -> bool:
    """The task's teardown stops `app` (SpringBoard never stops)."""
    return app == SPRINGBOARD or any(s.kind == "terminate" and s.arg == app
                                     for s in task.teardown)


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


def _opened(task: Task) -> tuple[Step, ...]:
    """Open the task's app (nothing for a task centred on the home screen)."""
    return (Step("launch", task.app),) if task.app and task.app != SPRINGBOARD else ()


def _searched(task: Task) -> tuple[Step, ...]:
    """Open the task's app and tap its own search field (nothing for an app without one)."""
    if task.app not in SEARCH_FIELD_APPS:
        return ()
    # the field by its type: a note titled "Search" (an earlier finish's) is not it
    return (*_opened(task), Step.tap_on("Search", "SearchField"))


def words(task: Task, kinds: Sequence[str] = SHOWN_KINDS,
          patterns: Sequence[str] = PATTERN_KINDS) -> list[str]:
    """The words the task's checks look for, and strings their patterns accept (of checks of
    `kinds`, and of `patterns` for patterns), each once, ignoring case."""
    found: list[str] = []
    for check in task.checks:
        if check.kind in kinds:
            found.append(check.text or check.text_of("url"))
        elif check.kind in patterns:
            found += regex_examples(check.text)
    unique: dict[str, str] = {}
    for text in found:
        if text.strip() and len(text) <= MAX_WORDS_CHARS:
            unique.setdefault(text.strip().lower(), text.strip())
    return list(unique.values())


def null(task: Task) -> Iterator[Attack]:
    """Do nothing, claim nothing."""
    yield Attack(task, "null", "null", ())


def open_app(task: Task) -> Iterator[Attack]:
    """Only open the task's app."""
    if _opened(task):
        yield Attack(task, "open-app", "open-app", _opened(task))


def echo(task: Task) -> Iterator[Attack]:
    """Type each of the checks' words where they will show: the app's own search field, a new
    note, Spotlight and Safari's address bar (never sent), claiming the reference answer."""
    answer = claim(task)
    for text in words(task):
        surfaces: list[tuple[str, tuple[Step, ...]]] = []
        if _searched(task):
            surfaces.append(("search", _searched(task)))
        surfaces += [
            # the toolbar's button: an empty note is listed as "New Note" too
            ("note", (Step("launch", NOTES), Step.tap_on("New Note", "Button"))),
            ("spotlight", (Step("home"), Step("swipe", start=SPOTLIGHT_DRAG[0],
                                              end=SPOTLIGHT_DRAG[1]))),
            ("safari", (Step("launch", SAFARI), Step("tap", "Address"))),
        ]
        for surface, steps in surfaces:
            yield Attack(task, "echo", f"echo:{surface}:{text}",
                         (*steps, Step("type", text)), answer)


def _candidates(task: Task, tasks: Sequence[Task]) -> list[str]:
    """Every value the task's answer checks could accept, and near ones."""
    found: list[str] = []
    reference = task.answer() or ""
    for check in task.checks:
        if check.kind == "answer_contains":
            siblings = [c.text for t in tasks for c in t.checks if c.kind == check.kind]
            found += [*siblings, *near_words(check.text)]
        elif check.kind != "answer_matches_device":
            continue
        elif check.text_of("probe") == "compass_heading":
            found += compass_headings()
        elif check.text_of("probe") == "weather_temperature":
            found += [f"{t}°" for t in range(-30, 121)]
        elif check.text_of("probe") == "battery_level":
            found += [f"{p}%" for p in range(101)]
        elif reference:
            found += [reference, *near_words(reference)]
    if reference and reference not in found:
        found.append(reference)
    return list(dict.fromkeys(found))


def _value_kind(text: str) -> tuple[int, bool, bool, bool]:
    """What kind of value a text looks like: its words, whether ALL CAPS, whether it holds a
    digit, whether each word is capitalised."""
    words = text.split()
    return (len(words), text.isupper(), any(c.isdigit() for c in text),
            all(w[:1].isupper() for w in words))


def shotgun(task: Task, tasks: Sequence[Task]) -> Iterator[Attack]:
    """The reference finish, answering with every candidate value at once: as a list; in
    lower case joined by spaces after "one of:"; and, for each sibling value of the same kind
    as an `answer_contains` value, the two in lower case, side by side (a hedge between two)."""
    if not any(c.kind in ANSWER_KINDS for c in task.checks):
        return
    steps = reference(task) or _opened(task)
    listed = _candidates(task, tasks)
    if len(listed) > 1:
        yield Attack(task, "shotgun", "shotgun", steps, ", ".join(listed))
        yield Attack(task, "shotgun", "shotgun:spaced", steps,
                     "the answer is one of: " + " ".join(v.lower() for v in listed))
    for check in task.checks:
        if check.kind != "answer_contains":
            continue
        siblings = dict.fromkeys(c.text for t in tasks for c in t.checks
                                 if c.kind == check.kind and c.text != check.text
                                 and _value_kind(c.text) == _value_kind(check.text))
        for other in siblings:
            yield Attack(task, "shotgun", f"shotgun:pair:{other}", steps,
                         f"{check.text.lower()} {other.lower()}")


def result_only(task: Task) -> Iterator[Attack]:
    """The expected result without the steps: a number of a check keyed in digit by digit in
    the task's app, or the reference answer given after only opening the app."""
    for text in words(task):
        if task.app in KEYPAD_APPS and set(text) <= KEYS.keys() and any(map(str.isdigit, text)):
            keys = tuple(Step("tap", KEYS[ch]) for ch in text)
            yield Attack(task, "result-only", f"result-only:keyed:{text}", (*_opened(task), *keys),
                         claim(task))
    if claim(task) is not None:
        yield Attack(task, "result-only", "result-only:answer", _opened(task), claim(task))


def truncated(task: Task) -> Iterator[Attack]:
    """The reference finish stopped short: its last 1, 2, ... steps left out; its last typing
    left unsent, or cut in half. The reference answer is still claimed."""
    steps, answer = reference(task), claim(task)
    for cut in range(1, len(steps)):
        yield Attack(task, "truncated", f"truncated:-{cut}", steps[:-cut], answer)
    typed = [i for i, s in enumerate(steps) if s.kind == "type"]
    if not typed:
        return
    last = typed[-1]
    text = steps[last].arg
    if text.endswith("\n"):
        unsent = replace(steps[last], arg=text.rstrip("\n"))
        yield Attack(task, "truncated", "truncated:unsent",
                     (*steps[:last], unsent, *steps[last + 1:]), answer)
    bare = text.rstrip("\n")
    parts = bare.split()
    half = " ".join(parts[:len(parts) // 2]) if len(parts) > 1 else bare[:len(bare) // 2]
    if half:
        cut_short = replace(steps[last], arg=half)
        yield Attack(task, "truncated", "truncated:half",
                     (*steps[:last], cut_short, *steps[last + 1:]), answer)


def near(task: Task) -> Iterator[Attack]:
    """The reference finish with one number of a wheel value or of typed text one off."""
    steps, answer = reference(task), claim(task)
    for index, step in enumerate(steps):
        if step.kind == "set_picker":
            value = step.option("value")
            for _, moved_value in near_numbers(value):
                # a wheel writes "1 hour" and "2 hours": "1 hours" is on none
                new = with_units_agreeing(moved_value)
                options = tuple((k, new if k == "value" else v) for k, v in step.options)
                moved = replace(step, options=options)
                yield Attack(task, "near", f"near:{value}>{new}",
                             (*steps[:index], moved, *steps[index + 1:]), answer)
        elif step.kind == "type":
            for change, new in near_numbers(step.arg):
                moved = replace(step, arg=new)
                yield Attack(task, "near", f"near:{change}",
                             (*steps[:index], moved, *steps[index + 1:]), answer)


RESULT_ROWS = 4
"""How many of a search's results, from the top, get a finish each."""


def wrong_page(task: Task) -> Iterator[Attack]:
    """Open another page whose title holds what a screen check looks for: type each of the
    words of the task's `element_exists`, `element_exists_anywhere` and `regex_on_screen`
    checks (a string each pattern accepts) into the app's own search field and open each of
    the first results in turn (Settings' search for "Display" lists Display & Brightness,
    Accessibility's Display & Text Size and Display Zoom). The reference answer is claimed.
    None for a word the task lists `echo:search:<word>` for: typing it into the search is the
    task, so whatever the finish then opens (or fails to find) it has done; none for an app
    without a search field of its own. A search that lists fewer than four results has no
    page for the rows after them: those finishes stop at their last step (`pick`)."""
    search = _searched(task)
    if not search:
        return
    compatible = dict(task.compatible_attacks)
    for text in words(task, ("element_exists", "element_exists_anywhere"),
                      ("regex_on_screen",)):
        if f"echo:search:{text}" in compatible:
            continue
        for row in range(1, RESULT_ROWS + 1):
            opened = Step("tap", text, options=(("text", text), ("nth", str(row))))
            yield Attack(task, "wrong-page", f"wrong-page:{text}:{row}",
                         (*search, Step("type", text), opened), claim(task),
                         pick=f"result {row} of the search for {text!r}")


Family = Callable[[Task, Sequence[Task]], Iterator[Attack]]
FAMILIES: dict[AttackFamily, Family] = {
    "null": lambda task, tasks: null(task),
    "open-app": lambda task, tasks: open_app(task),
    "echo": lambda task, tasks: echo(task),
    "shotgun": shotgun,
    "result-only": lambda task, tasks: result_only(task),
    "truncated": lambda task, tasks: truncated(task),
    "near": lambda task, tasks: near(task),
    "residue": residue,
    "leaver": leaver,
    "wrong-page": lambda task, tasks: wrong_page(task),
}
"""The families made here; `swap` replays the other tasks' reference finishes instead."""


def attacks(tasks: Sequence[Task], families: Sequence[AttackFamily],
            pool: Sequence[Task] = ()) -> list[Attack]:
    """Every cheap finish of `families` for every task, in task then family order, drawing on
    `pool` (default: `tasks`) for what other tasks give (answers, earlier attempts); a finish
    equal to the task's reference finish is left out (it is the honest one, after whatever
    attempt), and so is a second finish of the same task equal to an earlier one (after the
    same attempt)."""
    made: list[Attack] = []
    for task in tasks:
        honest = (tuple(map(step_key, reference(task))), claim(task))
        seen: set[tuple[object, ...]] = set()
        for family in families:
            if family not in FAMILIES:
                continue
            for attack in FAMILIES[family](task, pool or tasks):
                steps = (tuple(map(step_key, attack.steps)), attack.answer)
                key = (*steps, attack.left_by.id if attack.left_by else "")
                # graded without its answer checks, a task of nothing else tests nothing
                if steps != honest and key not in seen and attack.graded().checks:
                    seen.add(key)
                    made.append(attack)
    return made
