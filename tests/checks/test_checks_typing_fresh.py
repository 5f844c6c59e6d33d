"""`typed_into` with `fresh`: the typing begins in an empty field, by the value the bridge logged
at its first keystroke (red team 72: the title typed on the second line of a note recovered
from Recently Deleted passed "type the first line of a new note"). The agent's own text carried
across a refocus keeps the field's start; an old note emptied first is still not fresh."""

from __future__ import annotations

from audit_logs import act, grade, log

from phoneshell.audit import Target
from phoneshell.tasks import parse_task

NOTES = "com.apple.mobilenotes"
TITLE = "phoneshell benchmark"


def body(value: str = "") -> Target:
    return Target(type="XCUIElementTypeTextView", label="Note", name="Note", value=value,
                  page="Note")


def typed(seq: int, text: str, value: str = "", via: str = "keys") -> list:  # type: ignore[type-arg]
    return act(seq, "type", NOTES, NOTES, target=body(value), text=text, via=via)


def fresh(*actions: list, **more: object) -> tuple[bool, str]:  # type: ignore[type-arg]
    return grade("typed_into", log(*actions), text=TITLE, app=NOTES, into="TextView",
                 fresh=True, **more)


def test_a_new_notes_empty_body_passes() -> None:
    passed, detail = fresh(act(1, "tap", NOTES, NOTES, target=Target(
        type="XCUIElementTypeButton", label="New Note", name="New Note", page="Notes")),
        typed(2, TITLE))
    assert passed, detail


def test_a_note_that_held_text_fails() -> None:
    passed, detail = fresh(act(1, "tap", NOTES, NOTES, target=body(TITLE)),
                           typed(2, "\n" + TITLE, TITLE))
    assert not passed
    assert detail == (f"{TITLE!r} was not typed into an empty field; it typed {TITLE!r} into "
                      f"'TextView' in {NOTES} into a field that held {TITLE!r} before it typed "
                      "there: not a new, empty one (an existing note added to)")
    # without `fresh`, what was in the field before is not judged, as before
    assert grade("typed_into", log(typed(2, "\n" + TITLE, TITLE)), text=TITLE, app=NOTES,
                 into="TextView")[0]


def test_an_old_note_emptied_first_is_not_fresh() -> None:
    passed, _ = fresh(typed(1, "\b" * 40 + TITLE, "Groceries\nmilk"))
    assert not passed
    passed, _ = fresh(typed(1, "", "Groceries\nmilk", via="clear"), typed(2, TITLE))
    assert not passed


def test_a_placeholder_is_empty() -> None:
    placeholder = Target(type="XCUIElementTypeTextView", label="Note", name="Note", value="Note")
    assert fresh(act(1, "type", NOTES, NOTES, target=placeholder, text=TITLE, via="keys"))[0]


def test_its_own_text_carried_across_a_refocus_stays_fresh() -> None:
    # typed in two goes, the body tapped between: the second starts on the agent's own words
    passed, detail = fresh(typed(1, "phoneshell"),
                           act(2, "tap", NOTES, NOTES, target=body("phoneshell")),
                           typed(3, " benchmark", "phoneshell"))
    assert passed, detail


def test_an_unlogged_field_is_not_known_fresh() -> None:
    passed, detail = fresh(act(1, "type", NOTES, NOTES, text=TITLE, via="keys"))
    assert not passed, detail


def test_with_whole_only_fresh_fields_are_judged() -> None:
    assert fresh(typed(1, TITLE), whole=True)[0]
    passed, detail = fresh(typed(1, TITLE, "Groceries"), whole=True)
    assert not passed and detail.startswith("nothing typed"), detail


TASK = """\
id: t.fresh
name: n
instruction: i
app: {app}
checks:
- kind: typed_into
  text: hello
  fresh: {value}
"""


def test_fresh_is_validated_at_load() -> None:
    task, problems = parse_task(TASK.format(app=NOTES, value="true"), "t.yaml")
    assert task is not None and task.checks[0].flag_of("fresh"), problems
    task, problems = parse_task(TASK.format(app=NOTES, value="'yes'"), "t.yaml")
    assert task is None and any("fresh" in str(p) for p in problems), problems
