"""A real iPhone's keyboard, as WDA's JSON page source gives it: the shape of two public iOS 26
dumps (iPhone 17 Pro simulator, 402x874; mobiumdev/mobium `internal/uitree/testdata/
ios-keyboard-over-button.xml` and `ios-keyboard-over-scrolled-form.xml`), transcribed as data.

What matters, and what the simulator once did otherwise: the space key is a Key named "space"
and labelled " "; at the start of a field shift is on (a Button "shift", value "1") and the
letter keys are named and labelled in capitals; the keyboard's window is full-screen; inside
it an Other over the bottom of the screen holds the Keyboard (whose bottom row holds the 123
key, a Button "emoji", space and the Return key) and, in an unnamed and hidden Other, the globe
("Next keyboard") and "dictation" buttons; the "inputView" is an empty hidden Other in another
window.
"""

from __future__ import annotations

from typing import Any

Node = dict[str, Any]

ROWS = ((590, "qwertyuiop", (4, 44, 83, 122, 162, 202, 241, 281, 320, 360)),
        (644, "asdfghjkl", (24, 63, 103, 142, 182, 221, 261, 300, 340)),
        (698, "zxcvbnm", (63, 103, 142, 182, 221, 261, 300)))


def node(kind: str, x: int, y: int, w: int, h: int, *children: Node, **attrs: Any) -> Node:
    """A JSON-source node (short type, rect, `is*` flags as "1"/"0")."""
    found: Node = {"type": kind, "rect": {"x": x, "y": y, "width": w, "height": h},
                   "isVisible": "1", "isAccessible": "0", "isFocused": "0", "name": None,
                   "label": None, "value": None, **attrs}
    if children:
        found["children"] = list(children)
    return found


def key(name: str, label: str, x: int, y: int, w: int, kind: str = "Key", **attrs: Any) -> Node:
    return node(kind, x, y, w, 54, name=name, label=label, isAccessible="1", **attrs)


def keyboard_window(caps: bool = False, return_name: str = "Return") -> Node:
    """The keyboard's window: shift on and capitals (`caps`) or lower case; the Return key
    named `return_name` and labelled in lower case."""
    keys: list[Node] = []
    for y, letters, xs in ROWS:
        if y == 698:
            keys.append(key("shift", "shift", 4, y, 52, "Button", value="1" if caps else None))
        for char, x in zip(letters, xs, strict=True):
            shown = char.upper() if caps else char
            keys.append(key(shown, shown, x, y, 40))
    keys += [key("delete", "delete", 348, 698, 52), key("more", "numbers", 4, 752, 50),
             key("emoji", "Emoji", 53, 752, 51, "Button"), key("space", " ", 103, 752, 198),
             key(return_name, return_name.lower(), 300, 752, 100, "Button")]
    board = node("Keyboard", 0, 583, 402, 233,
                 node("Other", 0, 583, 402, 233,
                      node("Other", 0, 583, 402, 233, *keys,
                           name="UIKeyboardLayoutStar Preview")))
    extras = node("Other", 0, 583, 402, 291,
                  node("Button", 8, 805, 69, 70, name="Next keyboard", label="Next keyboard",
                       value="Русская"),
                  node("Button", 325, 805, 69, 70, name="dictation", label="Dictate"),
                  isVisible="0", isAccessible="1")
    return node("Window", 0, 0, 402, 874,
                node("Other", 0, 0, 402, 874,
                     node("Other", 0, 566, 402, 308,
                          node("Other", 0, 566, 402, 308, node("Other", 0, 566, 402, 308)),
                          node("Other", 0, 583, 402, 233, board), extras)))


def phone_tree(*app: Node, caps: bool = False, return_name: str = "Return") -> Node:
    """An app whose window holds `app`, the hidden window with the empty "inputView", and the
    keyboard's window over both."""
    hidden = node("Window", 0, 0, 402, 874,
                  node("Other", 0, 0, 402, 874,
                       node("Other", 0, 566, 402, 308,
                            node("Other", 0, 566, 402, 308, name="inputView", isVisible="0"),
                            isVisible="0"), isVisible="0"), isVisible="0")
    return node("Application", 0, 0, 402, 874,
                node("Window", 0, 0, 402, 874, node("Other", 0, 0, 402, 874, *app)),
                hidden, keyboard_window(caps, return_name), name="MobiumApp", label="MobiumApp")
