"""The live bindings a screen's nodes show: small mutable objects owned by app state.

Nodes are frozen and rebuilt after every change (`ui.py`); what changes between renders lives
here, referenced from the nodes that show it: a text input's text (`EditText`), a list's scroll
offset (`Scroll`), a picker wheel's selected row (`Wheel`). `ui` re-exports all three.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from phoneshell.sim.key_planes import KeyboardType
from phoneshell.typed_keys import typed_over

Handler = Callable[[], None]
"""A tap or hold behaviour: a closure over app state, run by the phone under its lock."""


@dataclass(eq=False)
class EditText:
    """The live text of one text input, owned by app state (mutable on purpose: it is a binding).

    The phone types into the focused field and sets `focused`; apps only read `text` and may
    clear it. `on_submit` runs when Return is typed; a field without it (and not multiline)
    just loses focus, like a search field's Search key.
    """

    placeholder: str = ""
    """Shown (and reported as the value) while the field is empty."""
    text: str = ""
    secure: bool = False
    """A password field: the value reads as bullets."""
    multiline: bool = False
    """A text view: Return types a newline instead of ending editing."""
    return_key: str = "return"
    """The label of the keyboard's Return key while this field has focus ("search", "go"...)."""
    keyboard: KeyboardType = "default"
    """The keyboard its focus shows, as the iOS app sets the field's `keyboardType` ("email"
    for an email address, "phonePad" for a phone number...). It changes only what the keys
    are: text typed by `/wda/keys` or an element's value goes in whole, on any keyboard."""
    on_submit: Handler | None = None
    focused: bool = False
    """Set by the phone only (`Host.focus`)."""
    selection: tuple[int, int] | None = None
    """The selected characters [start, end) (Safari's address once editing starts, the edit
    menu's Select All or a word selected in a note), or the caret alone (start == end) where a
    typing over a selection left it; None: the caret at the end of the text, where typing goes
    otherwise. Only `type_run` and a selection made on purpose set it: any other change of
    `text` (an app clearing it, a Cut) drops it (`__setattr__`), as does a change of focus."""
    on_tap_outside: Handler | None = None
    """What a tap anywhere but on this field or the keyboard does, while it has focus, before
    the tap lands where it was aimed (`editing.tap`). None, UIKit's default: nothing (the
    keyboard stays and the tap lands as if no field had focus)."""

    def __setattr__(self, name: str, value: object) -> None:
        super().__setattr__(name, value)
        if name == "text":  # what was selected is gone with the text it was made on
            super().__setattr__("selection", None)

    def select_all(self) -> None:
        """Select the whole text (nothing to select when it is empty)."""
        self.selection = (0, len(self.text)) if self.text else None

    def type_run(self, run: str) -> None:
        """Type `run` (a run of keys with no Return that ends the field's editing,
        `typed_keys.up_to_return`) where the caret is, as UIKit does: a selection is replaced
        by what comes next, a delete deleting it alone and a character typed taking its place;
        with none, the keys act before the caret (`typed_keys.typed_over`, the one rule the
        checks replay the log by too). The caret then sits after what was typed."""
        self.text, caret = typed_over(self.text, self.selection, run)
        if caret < len(self.text):
            self.selection = (caret, caret)

    def shown_value(self) -> str | None:
        """What WDA reports as `value`: the text, bullets if secure, else the placeholder."""
        if self.text:
            return "\u2022" * len(self.text) if self.secure else self.text
        return self.placeholder or None


@dataclass(eq=False)
class Scroll:
    """The scroll offset of one scrollable list, owned by app state (a mutable binding).

    `limit` is written by the layout that shows the list (content length minus viewport), so a
    drag can clamp without knowing the content. `page` > 0 makes it snap whole pages (SpringBoard).
    """

    offset: int = 0
    limit: int = 0
    horizontal: bool = False
    page: int = 0

    def scroll_by(self, delta: float) -> bool:
        """Move by `delta` points (snapping to a page if paged); return whether it moved."""
        before = self.offset
        if self.page:
            step = self.page if delta > 0 else -self.page
            target = before + step if abs(delta) >= self.page // 6 else before
        else:
            target = before + round(delta)  # a drag's travel may be a fraction
        self.offset = max(0, min(self.limit, target))
        return self.offset != before

    def clamp(self, limit: int, page: int | None = None) -> None:
        """Record the scrollable length (and page size) and pull the offset back inside it."""
        if page is not None:
            self.page = page
        self.limit = max(0, limit)
        self.offset = max(0, min(self.limit, self.offset))


@dataclass(eq=False)
class Wheel:
    """The selected row of one picker wheel, owned by app state (a mutable binding).

    `rows` are the values the wheel can show, top to bottom; `value` is the one in the middle.
    A wheel that `wrap`s is endless, as iOS's hour and minute wheels are; one that does not
    (AM/PM) stops at its ends. A tap or drag moves it by whole rows of `row_height` points.
    """

    rows: tuple[str, ...]
    index: int = 0
    wrap: bool = False
    row_height: int = 34

    @property
    def value(self) -> str:
        """The selected row (what WDA reports as the wheel's value)."""
        return self.rows[self.index] if self.rows else ""

    def step(self, rows: int) -> bool:
        """Move by `rows` (positive: further down the list); return whether the value changed."""
        if not self.rows:
            return False
        before = self.index
        target = self.index + rows
        self.index = target % len(self.rows) if self.wrap else max(0, min(len(self.rows) - 1,
                                                                          target))
        return self.index != before

    def select(self, value: str) -> bool:
        """Show `value` if it is one of the rows (XCTest's adjust-to-value); say whether it is."""
        if value not in self.rows:
            return False
        self.index = self.rows.index(value)
        return True
