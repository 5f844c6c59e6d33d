"""What key taps typed, replayed from the log, when the keys are a real iPhone's (iOS 26 dumps,
tests/keyboard_dump.py): a key is known by its name, not by what it shows."""

from __future__ import annotations

from keyboard_dump import node, phone_tree

from bridge.targets import node_at, target_in
from phoneshell.audit import Action, Target
from phoneshell.checks.keystrokes import editings
from phoneshell.checks.typed_texts import typed_sends

FIELD = node("SearchField", 17, 383, 368, 44, name="Search Maps", label="Search Maps",
             isAccessible="1", isFocused="1")
BUTTON = node("Button", 16, 200, 370, 48, name="saveBtn", label="Save", isAccessible="1")
CENTRES = {"S": (83, 671), "a": (44, 671), "n": (281, 725), "J": (281, 671), "o": (340, 617),
           "s": (83, 671), "e": (103, 617), " ": (202, 779), "shift": (30, 725),
           "dictation": (359, 840), "globe": (42, 840), "emoji": (78, 779), "go": (350, 779),
           "more": (29, 779), "save": (200, 224)}


def tapped(spots: list[str]) -> list[Target]:
    """What the bridge logs for taps at each spot: the field, then keys on the real tree (in
    capitals where iOS shows them: at the start, and after shift)."""
    found = []
    caps = True
    for spot in spots:
        tree = phone_tree(FIELD, BUTTON, caps=caps, return_name="Go")
        hit = node_at(tree, *CENTRES[spot.upper() if caps and len(spot) == 1 else spot])
        assert hit is not None, spot
        found.append(target_in(tree, hit))
        caps = spot == "shift"
    return found


def replay(targets: list[Target]) -> list[Action]:
    return [Action(seq=i, phase="agent", kind="tap", t=float(i), params={},
                   app_before="com.apple.Maps", app_after="com.apple.Maps", target=target,
                   ok=True, error="") for i, target in enumerate(targets)]


def test_a_real_space_key_types_a_space() -> None:
    """iOS names the space key "space" and labels it " ": read by its label alone it typed
    nothing, and "San Jose" tapped key by key was logged as "SanJose"."""
    field = target_in(phone_tree(FIELD), FIELD)
    keys = tapped(["S", "a", "n", " ", "shift", "J", "o", "s", "e", "more", "go"])
    assert keys[3].label == " " and keys[3].name == "space"
    assert [s.last_line for s in typed_sends(replay([field, *keys]))] == ["San Jose"]


def test_the_globe_dictation_and_emoji_keep_the_fields_editing() -> None:
    """On a phone the globe and dictation buttons sit outside the Keyboard, in an unnamed
    Other of the keyboard's window; a tap on them is still a tap on the keyboard, and the
    field keeps its editing. A button of the app ends it."""
    field = target_in(phone_tree(FIELD), FIELD)
    keys = tapped(["S", "dictation", "a", "globe", "n", "emoji", "go", "save"])
    assert [k.keyboard for k in keys] == [True] * 7 + [False]
    found = editings(replay([field, *keys]))
    assert len(found) == 1 and found[0].end is not None and found[0].end.seq == 8
    assert [s.last_line for s in typed_sends(replay([field, *keys]))] == ["San"]
