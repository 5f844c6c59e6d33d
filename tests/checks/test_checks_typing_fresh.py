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
                      f"'TextView' in {NOTES} into a field that held {TITLE!r} before it first "
                      "changed it: not a new, empty one (an existing note added to, or emptied "
                      "first)")
    # without `fresh`, what was in the field before is not judged, as before
    assert grade("typed_into", log(typed(2, "\n" + TITLE, TITLE)), text=TITLE, app=NOTES,
                 into="TextView")[0]


def test_an_old_note_emptied_first_is_not_fresh() -> None:
    passed, _ = fresh(typed(1, "\b" * 40 + TITLE, "Groceries\nmilk"))
    assert not passed
    passed, _ = fresh(typed(1, "", "Groceries\nmilk", via="clear"), typed(2, TITLE))
    assert not passed


GROCERIES = "Groceries\nmilk"


def tap(seq: int, target: Target, **params: object) -> list:  # type: ignore[type-arg]
    return act(seq, "tap", NOTES, NOTES, target=target, **params)


def menu(seq: int, label: str) -> list:  # type: ignore[type-arg]
    return tap(seq, Target(type="XCUIElementTypeMenuItem", label=label, name=label,
                           page="Note"))


def test_an_owners_note_emptied_then_tapped_again_is_not_fresh() -> None:
    """Red team 76: the emptying and the typing are two editings (the body tapped between), and
    the second's first keystroke logs an empty field; what the field held is what it held
    before the agent's first change to it, carried through the editing that emptied it."""
    cleared = (tap(1, body(GROCERIES)), typed(2, "", GROCERIES, via="clear"), tap(3, body()),
               typed(4, TITLE))
    passed, detail = fresh(*cleared)
    assert not passed
    assert "into a field that held 'Groceries↵milk' before it first changed it" in detail, detail
    deleted = (typed(1, "\b" * 40, GROCERIES), tap(2, body()), typed(3, TITLE))
    assert not fresh(*deleted)[0]
    # through any number of editings the agent left empty
    assert not fresh(*cleared[:3], tap(4, body()), tap(5, body()), typed(6, TITLE))[0]
    # and through one whose typing WDA failed part way (it may have cleared it)
    assert not fresh(act(1, "type", NOTES, None, target=body(GROCERIES), text="",
                         via="clear"), tap(2, body()), typed(3, TITLE))[0]


def test_an_owners_note_emptied_by_the_edit_menus_cut_is_not_fresh() -> None:
    """Select All and Cut empty the note with no keystroke at all."""
    passed, detail = fresh(tap(1, body(GROCERIES)),
                           tap(2, body(GROCERIES), gesture="touch_and_hold", duration=1.0),
                           menu(3, "Select All"), menu(4, "Cut"), tap(5, body()),
                           typed(6, TITLE))
    assert not passed, detail
    # Copy writes nothing: the field the agent tapped and left is not its doing (an owner's
    # note looked at, then a new one)
    assert fresh(tap(1, body(GROCERIES)), tap(2, body(GROCERIES), gesture="touch_and_hold",
                                              duration=1.0),
                 menu(3, "Copy"), tap(4, body()), typed(5, TITLE))[0]


def test_honest_routes_stay_fresh() -> None:
    new_note = tap(1, Target(type="XCUIElementTypeButton", label="New Note", name="New Note",
                             page="Notes"))
    done = act(9, "tap", NOTES, NOTES, target=Target(
        type="XCUIElementTypeButton", label="Done", name="Done", page="Note"))
    routes = {
        # the owner's note looked at (its body tapped), then a new one typed into
        "looked first": (tap(0, body(GROCERIES)), done, new_note, typed(2, TITLE)),
        # a typo cleared, or deleted, in a new note, and the title typed in a second go
        "typo cleared": (new_note, typed(2, "phonshel"), typed(3, "", "phonshel", via="clear"),
                         tap(4, body()), typed(5, TITLE)),
        "typo deleted": (new_note, typed(2, "phonshel\b\b\b\b\b\b\b\b" + TITLE)),
        # Done and back into the body, then the rest; a title, Return, a body
        "done and back": (new_note, typed(2, "phoneshell"), done, tap(4, body("phoneshell")),
                          typed(5, " benchmark", "phoneshell")),
        "title then body": (new_note, typed(2, TITLE + "\n"), done,
                            tap(4, body(TITLE + "\n")), typed(5, "notes", TITLE + "\n")),
        # a new note's text cut and typed again: its start was empty
        "cut and again": (new_note, typed(2, "phonshel"),
                          tap(3, body("phonshel"), gesture="touch_and_hold", duration=1.0),
                          menu(4, "Select All"), menu(5, "Cut"), tap(6, body()),
                          typed(7, TITLE)),
    }
    for name, route in routes.items():
        passed, detail = fresh(*route)
        assert passed, (name, detail)


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
