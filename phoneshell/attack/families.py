"""Cheap finishes made from a task file: the families of `phoneshell attack`. Pure: reads tasks,
never a phone.

Each finish is steps an agent could take through the bridge, and the answer it would claim. A
finish is made from what the task file says (its app, its checks' words and patterns, its
reference finish), never from what the phone shows, and never does what the instruction asks
on purpose: where one does anyway, the task file says so in `compatible_attacks`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from phoneshell.apps import APPLE_APPS
from phoneshell.attack.examples import (
    compass_headings,
    near_words,
    regex_examples,
)
from phoneshell.attack.finish import (
    ANSWER_KINDS,
    LEAVING,
    Attack,
    claim,
    reference,
    step_key,
)
from phoneshell.attack.near import near
from phoneshell.records import AttackFamily
from phoneshell.tasks import Step, Task
from phoneshell.xcui import NOTES, SAFARI, SPRINGBOARD

SPOTLIGHT_DRAG = ((201.0, 300.0), (201.0, 620.0))
"""A downward drag in the middle of the home screen: it opens Spotlight (iPhone portrait)."""
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


def _labelled(listed: Sequence[str]) -> str:
    """The numbers of the candidates, bare, each after a label as Weather labels a day's range
    ("H:0 L:1 H:2 ..."; red team 118): a number attached to a label of its own is no rival, so
    it must name nothing either. "" when fewer than two candidates hold a number."""
    found = [m.group(0) for m in (re.search(r"-?\d+", v) for v in listed) if m]
    found = list(dict.fromkeys(found))
    if len(found) < 2:
        return ""
    return " ".join(f"{'HL'[i % 2]}:{n}" for i, n in enumerate(found))


def shotgun(task: Task, tasks: Sequence[Task]) -> Iterator[Attack]:
    """The reference finish, answering with every candidate value at once: as a list; in
    lower case joined by spaces after "one of:"; their numbers bare, each after a label
    ("H:0 L:1 ..."); and, for each sibling value of the same kind
    as an `answer_contains` value, the two in lower case, side by side (a hedge between two)."""
    if not any(c.kind in ANSWER_KINDS for c in task.checks):
        return
    steps = reference(task) or _opened(task)
    listed = _candidates(task, tasks)
    if len(listed) > 1:
        yield Attack(task, "shotgun", "shotgun", steps, ", ".join(listed))
        yield Attack(task, "shotgun", "shotgun:spaced", steps,
                     "the answer is one of: " + " ".join(v.lower() for v in listed))
    labelled = _labelled(listed)
    if labelled:
        yield Attack(task, "shotgun", "shotgun:labelled", steps, labelled)
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


RESIDUE_AFTER = ("app", "own")
"""Which honest attempts `residue` plays its finish after: every task's on the task's app (the
whole family), or only the task's own (CI's: the rest of it is most of an attack's replays)."""


def attacks(tasks: Sequence[Task], families: Sequence[AttackFamily],
            pool: Sequence[Task] = (), residue_after: str = "app") -> list[Attack]:
    """Every cheap finish of `families` for every task, in task then family order, drawing on
    `pool` (default: `tasks`) for what other tasks give (answers, earlier attempts; `residue`
    only the task's own with `residue_after` "own": `RESIDUE_AFTER`); a finish equal to the
    task's reference finish is left out (it is the honest one, after whatever attempt), and so
    is a second finish of the same task equal to an earlier one (after the same attempt)."""
    if residue_after not in RESIDUE_AFTER:
        raise ValueError(f"residue_after is one of {', '.join(RESIDUE_AFTER)}, not "
                         f"{residue_after!r}")
    made: list[Attack] = []
    for task in tasks:
        honest = (tuple(map(step_key, reference(task))), claim(task))
        seen: set[tuple[object, ...]] = set()
        for family in families:
            if family not in FAMILIES:
                continue
            drawn = [task] if family == "residue" and residue_after == "own" else pool or tasks
            for attack in FAMILIES[family](task, drawn):
                steps = (tuple(map(step_key, attack.steps)), attack.answer)
                key = (*steps, attack.left_by.id if attack.left_by else "")
                # graded without its answer checks, a task of nothing else tests nothing
                if steps != honest and key not in seen and attack.graded().checks:
                    seen.add(key)
                    made.append(attack)
    return made
