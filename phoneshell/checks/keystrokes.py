"""What the agent typed, field by field, what it sent, and what its typing was followed by.

Read from the audit log's actions of phase `agent` (pure: never touches a device). One field's
**editing** begins at a tap on a text input or the first keystroke into it (a `type`, or a tap
on the keyboard: the field is then the one the bridge saw with focus, `Action.field`, for the
phone focuses some by itself: Spotlight's, a new note's body, a search opened ready to type),
and lasts while the agent only types into it, taps the on-screen keyboard, scrolls what shows
under it (`scrolls_in_place`) or hides the keyboard. Keystrokes are `type` actions (WDA's keys,
an element's value) and taps on the keyboard's keys (the key a keyboard dismiss pressed by name
is one, logged as a tap on it); a clear empties the field. Any other action ends the editing: a
tap anywhere else (Cancel, a result, the field itself again), another field, a launch, home, a
button, a URL, and a swipe that leaves the screen the field is on: a system edge's (Notification
Center, Control Center, home, the app switcher, back), one that brought another app to the
front, or one that goes sideways (a page's swipe back, a home screen's paging). That first other
action is the editing's **end**: for a search, the tap that opened a result from its list while
the search still showed it.

Typed text is read as XCTest's typeText reads it (`phoneshell.typed_keys`, the simulator's own
table): "\\b" and "\\x7f" delete, "\\n" and "\\r" are Return, and every other character is
itself, WebDriver's private-use key codes ("\\ue003") included: WDA's `/wda/keys` does not
translate them, and the bridge logs W3C key actions already mapped as WDA maps them.

Text is **sent** only by the keyboard's own Return key (a Button or Key inside the keyboard,
labelled as `xcui.RETURN_KEYS`), or Return typed, while the field still has the editing: a Done
elsewhere on the screen, or a Return after a Cancel, sends nothing. In a text view (a note's
body) Return is a new line, never a send. A Return in a field of one line also ends its focus,
as on the phone (`typed_keys.up_to_return`, which the simulator types by): what follows in the
same keystrokes is not that field's, and keys tapped after it type nothing there, until a
keystroke is aimed at it again. A delete removes a composed character (`typed_keys.typed`).

A failed action (`ok` false) is read as `Action.acted` reads it: one whose route fails before
acting (a tap, a swipe of one gesture) changed nothing. WDA's keyboard dismiss presses the key it
is named and then fails when the keyboard stays up (a letter, a note's Return): that key press
counts as any other. Any other failure (typing that may have focused its field or typed part of
its text, a clear that may have deleted part, a scroll to an element, one WDA never answered)
ends the editing where it was: what the field holds is no longer known, and an editing after it
begins as any does (the carry below).

A field keeps what the agent typed into it across anything that only refocuses it (a tap on it
mid-typing, a Return then a tap), as the phone does: an editing begins holding the text the
agent's own last editing of the same field (`_field_key`) left there, but only when the log shows
the field still holding exactly that text where the new editing begins (the value the bridge
logged for the tap or keystroke that begins it) and again at its first keystroke
(`held.shows`). Otherwise it begins empty, as before: a field the app cleared or replaced
(Safari's address, which shows the loaded page and selects it for typing over), another
screen's field of the same name, or one showing its placeholder, holds nothing the agent typed
there. Like the simulator, the replay types at the end of the field's text, or over what is
selected there (`selections`: Select All replaced whole, a held word leaving the text not
known, `Editing.unknown`). What the field held
before the agent typed there (`Editing.held`) is what it held before the agent's first change to
it: the value logged at the first keystroke, or the one the agent's earlier editing of the field
carried, which it also carries through an editing the agent emptied (a clear, deletes, the edit
menu's Cut) to the next (`held.carried`: an owner's note emptied and typed into again is not an
empty one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from phoneshell.audit import Action
from phoneshell.checks.held import Left, carried, shows, value_held, writes_text
from phoneshell.checks.keyboard_keys import in_keyboard, key_identity, key_text
from phoneshell.checks.selections import Selected, after, holds_on
from phoneshell.presses import VERTICAL, logged_heading
from phoneshell.records import Target
from phoneshell.typed_keys import typed_over, up_to_return
from phoneshell.xcui import (
    RETURN_KEYS,
    SWIPE_ENDS,
    TEXT_INPUTS,
    full_type,
    short_type,
    swipe_ends,
)

TEXT_VIEW = full_type("TextView")
TOP_EDGE_PT = 40
"""A swipe starting above this y pulls down Notification Center or Control Center (as the
simulator's `TOP_EDGE`; a phone needs y near 0)."""
BOTTOM_EDGE_PT = 40
"""A swipe starting this near the screen's bottom may be a bottom-edge gesture (home, the app
switcher): the simulator's `BOTTOM_EDGE`."""
SMALLEST_SCREEN_PT = 667
"""The smallest iPhone's height in points: the screen taken where the check is told none (the
log holds no screen size; a check with the evidence passes the captured screen's)."""
@dataclass(frozen=True)
class Typed:
    """What the agent had typed into one field at one moment, and whether it sent it then."""

    action: Action
    """The keystroke action whose target is the field (for details and `into`)."""
    text: str
    """The field's text from the agent's keystrokes so far: in a text view "\\n" where Return
    was typed; a field of one line never holds one (its Return sends instead). "" when
    `unknown`."""
    sent: bool = False
    """This is the moment the text was sent (Return typed, or the keyboard's Return tapped):
    what was sent is `text`."""
    by: Action | None = None
    """The action that made this text, or sent it (a `type`, or a tap on a key)."""
    held: str | None = None
    """What the field held before the agent's first change to it (`Editing.held`): "" when it
    began empty; None when the log does not say."""
    unknown: str = ""
    """Why the field's text is not known at this moment ("" when it is): the agent typed over a
    selection the log does not name (`selections`). Never judged as any text."""

    @property
    def last_line(self) -> str:
        """What was typed since the last Return: the text a send sends."""
        return self.text.rsplit("\n", 1)[-1]


@dataclass
class Editing:
    """One field's editing, from its first tap or keystroke to the action that ended it."""

    opened_by: Action
    key: tuple[str, str, str, str]
    single_line: bool
    text: str = ""
    states: list[Typed] = field(default_factory=list)
    """The field's text after each keystroke, and at each send, in order."""
    field_action: Action | None = None
    """The last `type` action into the field, or the key tap that began the editing aimed at
    the field it typed into (`Action.field`): its target names the field."""
    end: Action | None = None
    """The first action that ended the editing (None: the agent's turn ended first)."""
    focused: bool = True
    """The field has the focus: False from a Return in a field of one line, which ends its
    editing on the phone, until the log shows it focused again (a `type` aimed at it). The
    editing itself lasts until another action ends it (a tap on a result the search shows)."""
    unproven: bool = False
    """The text it began holding, carried from the agent's own earlier editing of the field
    (module docstring), is not yet confirmed by a keystroke's logged value (its first one
    checks)."""
    held: str | None = None
    """What the field held before the agent's first change to it (`held.value_held` of the
    field logged at the first keystroke, and until then where the editing began; a carry's,
    when carried); None: not known. A clear does not change it."""
    keyed: bool = False
    """A keystroke went into the field in this editing (`held` is read at the first)."""
    changed: bool = False
    """The agent changed the field, in this editing or one whose start it carries: a
    keystroke, or an edit menu's item that writes, tapped on it (`held.writes_text`)."""
    selected: Selected | None = None
    """What is selected in the field as its next keystroke comes (`selections`)."""
    unknown: str = ""
    """Why the field's text is not known ("" when it is, as `text`): a keystroke typed over a
    selection the log does not name; known again once the field logs empty, or its whole text
    is selected and typed over."""
    carried_from: Editing | None = None
    """The agent's last editing of the field, whose text this one began holding (a carry)."""
    went_on: bool = False
    """A later editing carried this one's text on and typed into it (confirmed at its first
    keystroke): where this one ended the text was not left, so it is no end (`typed_ends`)."""

    def _confirm(self, shown: Target | None) -> None:
        """At the editing's first keystroke: after a carry, drop the carried text unless the
        field the keystroke logged (when the bridge read it) still holds it (Safari selects its
        address when focused, and typing replaces it), and keep the carried start while it
        holds that text or, carrying none, is still empty; otherwise note what the field held
        (`held`)."""
        if self.unknown and value_held(shown) == "":
            self.unknown, self.text = "", ""  # the field shows empty: nothing is left of it
        if self.keyed:
            return
        self.keyed = self.changed = True
        if self.unproven:
            self.unproven = False
            if self.unknown:
                self._went_on()
                return  # carried not known: nothing the field shows can confirm it
            if shown is None or shows(shown, self.text) or (
                    not self.text and value_held(shown) == ""):
                self._went_on()
                return  # the agent's own doing: it holds what that editing began with
            self.text = ""
        self.held = value_held(shown)

    def _went_on(self) -> None:
        """The carry is confirmed: the editings it came from (through any with no keystroke,
        a hold's or a refocus's) did not leave their text where they ended."""
        before = self.carried_from
        while before is not None and not before.went_on:
            before.went_on = True
            before = before.carried_from if not before.keyed else None

    def _note(self, by: Action, sent: bool = False) -> None:
        self.states.append(Typed(self.field_action or self.opened_by,
                                 "" if self.unknown else self.text, sent, by, self.held,
                                 self.unknown))

    def type(self, action: Action, chars: str, clear: bool = False) -> None:
        """Apply a `type` action's keystrokes as the simulator types them (`typed_keys.typed`,
        `up_to_return`): a delete removes a composed character; in a field of one line a
        Return sends the text and ends the field's focus, and what follows in the same action
        goes to no field the log shows (the phone types it into a field a submit focused, or
        nowhere), so it is not this field's; in a text view a Return is a new line. The action
        itself shows the field focused (the bridge aims it at the focused field)."""
        self._confirm(action.target)
        if clear:
            self.text = ""
        self.focused = True
        self._type(action, chars)

    def _type(self, action: Action, chars: str) -> None:
        run, rest = up_to_return(chars, 0, self.single_line)
        self.text = self._typed_over(run)
        if rest is None:
            self._note(action)
            return
        self._note(action, sent=True)
        self.focused = False

    def _typed_over(self, run: str) -> str:
        """The field's text after `run`, typed over what is selected (`typed_keys.typed_over`,
        as the phone types): all of it, selected, is replaced, what the field held before the
        agent's text too; over a part the log does not name, what is left is not known."""
        selected = self.selected
        if not run:
            return self.text  # a Return alone, a key that types nothing: the selection stays
        self.selected = None
        if selected is not None and selected.whole:
            self.unknown = ""
            return typed_over(self.text, (0, len(self.text)), run)[0]
        if selected is not None:
            self.unknown = selected.why()
        return typed_over(self.text, None, run)[0]

    def press(self, action: Action, target: Target) -> None:
        """A tap on the keyboard (`in_keyboard`): its Return sends, its keys type, into the
        field while it has the focus (after its Return, nothing: the keyboard types nowhere),
        once for each press (`Action.presses`: a double tap types a key twice; a touch the
        phone may or may not take as a press, two fingers, types nothing here)."""
        if not self.focused or not action.presses:
            return
        self._confirm(action.field)
        returns = key_identity(target).strip().lower() in RETURN_KEYS
        self._type(action, "\n" if returns else key_text(target) * action.presses)


def _field_key(action: Action) -> tuple[str, str, str, str]:
    target = action.target
    return (action.app_before, target.type if target else "", target.label if target else "",
            target.name if target else "")


def _keyed(action: Action) -> bool:
    """A tap on the keyboard (not a gesture that hides it): it types into the focused field."""
    return action.kind == "tap" and in_keyboard(action.target) and \
        action.params.get("gesture") != "keyboard_dismiss"


def _opens(action: Action) -> bool:
    """A tap on a text input: it takes the focus, and the keyboard types into it."""
    return action.kind == "tap" and action.target is not None and \
        action.target.type in TEXT_INPUTS


def scrolls_in_place(action: Action, screen_h: float = SMALLEST_SCREEN_PT) -> bool:
    """Whether a swipe only scrolled what the field's screen shows (a search's results, the
    suggestions under an address), which moves nothing into or out of the field: the app in
    front stayed, and it went up or down (`presses.logged_heading`) from away from the
    screen's top and bottom edges and not from the status bar. A swipe on an element by
    direction (no points logged) starts inside the element, away from its edges, as
    XCUITest's does."""
    if action.kind != "swipe" or (action.app_after and action.app_after != action.app_before):
        return False
    if action.target is not None and short_type(action.target.type) == "StatusBar":
        return False
    ends = swipe_ends(action.params)
    if ends is None:
        # no points logged: a swipe by direction (on an element, which XCUITest starts inside
        # it, or on the whole app) scrolls in place only up or down; sideways it pages, goes
        # back or leaves, and a drag between elements may go anywhere
        return all(action.params.get(k) is None for k in SWIPE_ENDS) and \
            action.params.get("direction") in ("up", "down")
    # up or down as the phone takes it: by its first move past the slop (a list's scroll that
    # turns sideways stays a scroll; a row's swipe that turns down stays a swipe)
    return TOP_EDGE_PT <= ends[1] <= screen_h - BOTTOM_EDGE_PT and \
        logged_heading(action.params) in VERTICAL


def _keeps(action: Action, screen_h: float) -> bool:
    """Whether an action leaves the editing of the field where it was."""
    if scrolls_in_place(action, screen_h):
        return True
    return action.kind == "tap" and (in_keyboard(action.target)
                                     or action.params.get("gesture") == "keyboard_dismiss")


def editings(actions: Sequence[Action], screen_h: float = SMALLEST_SCREEN_PT,
             ) -> list[Editing]:
    """Every field's editing in the agent's turn, in order (see the module's docstring).

    An action WDA failed (`ok` false) is read by what its route can do before failing (module
    docstring): a tap or swipe did nothing, a keyboard dismiss's key press pressed its key, and
    any other ends the editing. A keystroke with no field resolved still counts, as typed into
    an unknown field. `screen_h`:
    the phone's height in points, where a swipe from near its bottom may leave the screen
    (`scrolls_in_place`); the smallest iPhone's when not known.
    """
    done: list[Editing] = []
    current: Editing | None = None
    left: dict[tuple[str, str, str, str], Left] = {}
    """What the agent's last editing of each field left in it (`held.carried`)."""
    last_of: dict[tuple[str, str, str, str], Editing] = {}
    selected: Selected | None = None
    """What is selected, in which field, for the next keystroke (`selections`)."""

    def close(end: Action | None) -> None:
        nonlocal current
        if current is not None:
            current.end = end
            done.append(current)
            left[current.key], last_of[current.key] = _left(current), current
        current = None

    def begin(action: Action, key: tuple[str, str, str, str], shown: Target | None) -> Editing:
        editing = _begin(action, key)
        carry = carried(left.get(key), shown)
        if carry is None:
            editing.held = value_held(shown)
        else:
            editing.text, editing.held, editing.changed = carry.text, carry.held, carry.changed
            editing.unproven, editing.unknown = True, carry.unknown
            editing.carried_from = last_of.get(key)
        return editing

    def keyed(editing: Editing, typing: Callable[[], None]) -> None:
        """Type into `editing` over what is selected there, and keep what typing left."""
        nonlocal selected
        editing.selected = selected if selected is not None and selected.key == editing.key \
            else None
        typing()
        selected = editing.selected

    def changed(editing: Editing) -> None:
        editing.changed = True
        left[editing.key] = _left(editing)

    for action in actions:
        if action.kind == "tap" and action.presses == 0:
            continue  # it touched nothing (a tap of no finger)
        if action.ok is False and action.acted is not True:
            # failed before acting (a tap, a swipe), or by a route that may have acted first,
            # so what the field holds is no longer known (module docstring, `Action.acted`)
            if action.acted is None:
                close(action)
                selected = None
                if action.kind == "type":  # it may have typed, or cleared, before failing
                    changed(begin(action, _field_key(action), action.target))
            continue
        if action.kind == "type":
            key = _field_key(action)
            if current is None or current.key != key:
                close(action)
                current = begin(action, key, action.target)
            current.field_action = action
            keyed(current, partial(current.type, action, str(action.params.get("text") or ""),
                                   clear=action.params.get("via") == "clear"))
        elif current is not None and _keeps(action, screen_h):
            if action.kind == "tap" and in_keyboard(action.target):
                assert action.target is not None
                keyed(current, partial(current.press, action, action.target))
            if action.params.get("gesture") == "keyboard_dismiss":
                selected = None  # the keyboard goes, and the field's focus with it
        elif current is None and _keyed(action):
            # keys into a field the phone focused by itself: that field (when the bridge saw
            # it, else an unknown one) is what they type into
            into = replace(action, target=action.field)
            current = begin(action, _field_key(into), action.field)
            current.field_action = into
            assert action.target is not None
            keyed(current, partial(current.press, action, action.target))
        else:
            # an edit menu's Cut or Paste writes into the field the menu was opened on: the
            # editing it ends, or the last one (Select All ended it)
            last = current or (done[-1] if done else None)
            if writes_text(action) and last is not None and last.key[0] == action.app_before:
                changed(last)
            selected = after(selected, action, last.key if last is not None else None)
            close(action)
            if _opens(action):
                current = begin(action, _field_key(action), action.target)
                selected = holds_on(action, current.key)
    close(None)
    return done


def _begin(action: Action, key: tuple[str, str, str, str]) -> Editing:
    return Editing(action, key, single_line=key[1] != TEXT_VIEW)


def _left(editing: Editing) -> Left:
    return Left("" if editing.unknown else editing.text, editing.held, editing.changed,
                editing.unknown)
