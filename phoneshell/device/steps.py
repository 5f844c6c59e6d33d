"""Run setup, teardown and solution steps on a phone, and prove each one took effect.

WDA answers 200 to a tap on a locked phone, to a launch that left the app in the background and
to keys that went nowhere, so no step trusts its reply: a launch is confirmed by the foreground
app, a tap by a change on screen, typing by reading the field back. A step that does not take
effect raises `StepError` naming the step and where it was written.

Each read costs a real phone a round trip, so steps keep their reads (`Phone.keeping_reads`):
the source a tap was aimed by is the one its change is judged against, a list of steps reuses
what the step before read, and a step whose effect already holds (`terminate` of an app that
is not running, `home` on the home screen) sends nothing.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable

from phoneshell.apps import bundle_for
from phoneshell.device.phone import NOT_RUNNING, SPRINGBOARD, Phone
from phoneshell.device.screen_part import clear_of_edges
from phoneshell.device.screen_reads import TextInput
from phoneshell.errors import RIG_DOWN, DeviceError, StepError
from phoneshell.patterns import PatternTimeout, compile_pattern
from phoneshell.registry import Registry
from phoneshell.tasks import STEPS, Step
from phoneshell.tree import Element, PageSource
from phoneshell.xcui import SAFARI, TEXT_INPUTS

CONTROL_TYPES = frozenset(f"XCUIElementType{t}" for t in (
    "Button", "Cell", "Icon", "Link", "Key", "Switch", "Tab", "SegmentedControl", "MenuItem",
    "PickerWheel", "Slider", "Stepper", "Toggle"))
"""Types a person taps; a label with the same text (a calculator's display) loses to them."""

Executor = Callable[[Phone, Step], None]
EXECUTORS: Registry[Executor] = Registry("step", "phoneshell schema --steps")


def executes(name: str) -> Callable[[Executor], Executor]:
    """Register the decorated function as the executor of step `name` (which must exist)."""
    STEPS.lookup(name)
    return EXECUTORS.register(name)


def run_step(phone: Phone, step: Step) -> None:
    """Run one step and confirm its effect.

    Raises:
        StepError: the step failed or did not take effect (the message names the step).
        DeviceUnreachable, DeviceUnusable, DeviceLocked: the rig itself is down.
    """
    if step.kind not in EXECUTORS:
        raise StepError(f"{step.describe()}: this phoneshell cannot run {step.kind!r} steps "
                        "on a phone", hint="`phoneshell schema --steps` lists the steps")
    try:
        with phone.keeping_reads():
            EXECUTORS.lookup(step.kind)(phone, step)
    except (StepError, *RIG_DOWN):
        raise  # a broken rig is not the step's fault: the caller stops the run
    except DeviceError as exc:
        raise StepError(f"{step.describe()}: {exc.message}", hint=exc.hint) from exc


def still_left(phone: Phone, what: str, bundle_id: str,
               shows: Callable[[PageSource], bool]) -> PageSource | None:
    """The screen a count left up on purpose (`Phone.leave(what)`), read afresh, when nothing
    acted since and it still shows so (`bundle_id` in front, `shows` true); None otherwise, and
    the caller gets there again. Read afresh: what is deleted next is aimed by what shows now."""
    if phone.left() != what:
        return None
    phone.forget()
    page = phone.page()
    return page if page.bundle_id == bundle_id and shows(page) else None


def run_steps(phone: Phone, steps: Iterable[Step]) -> None:
    """Run steps in order, stopping at the first that fails (each reuses what the one before
    read, when nothing could have changed it since)."""
    with phone.keeping_reads():
        for step in steps:
            run_step(phone, step)


NO_EFFECT = "had no visible effect"
"""How a step ends that the phone took and that changed nothing on screen: a tab already
chosen, today already shown."""


def _fail(step: Step, what: str) -> StepError:
    return StepError(f"{step.describe()}: {what}")


def screen_signature(phone: Phone) -> str:
    """A hash of what is on screen and which app is in front, to tell whether a step changed it."""
    page = phone.page()
    shown = [(e.type, e.label, e.name, e.value, e.traits, e.x, e.y) for e in page.on_screen()]
    return hashlib.sha1(repr((page.bundle_id, shown)).encode()).hexdigest()


def _changes_screen(phone: Phone, step: Step, act: Callable[[], None], what: str) -> None:
    before = screen_signature(phone)
    act()
    if not phone.poll(lambda: screen_signature(phone) != before, phone.effect_timeout_s):
        raise _fail(step, f"{what} {NO_EFFECT}")


def _in_front(phone: Phone, bundle_id: str) -> bool:
    return phone.foreground().bundle_id == bundle_id


def is_home_screen(phone: Phone) -> bool:
    """SpringBoard in front showing app icons (not Spotlight or Notification Center)."""
    page = phone.page()  # first: its application node says which app is in front
    if not _in_front(phone, SPRINGBOARD):
        return False
    icons = [e for e in page.on_screen() if e.type == "XCUIElementTypeIcon"]
    typing = any(e.type in TEXT_INPUTS for e in page.on_screen())
    return bool(icons) and not typing


def go_home(phone: Phone) -> bool:
    """Go to the home screen, trying WDA's route, the home button and the bottom-edge swipe
    (nothing when it already shows)."""
    if is_home_screen(phone):
        return True

    def swipe_up() -> None:
        width, height = phone.screen_size()
        phone.drag((width / 2, height - 2), (width / 2, height * 0.4))

    for attempt in (phone.home, lambda: phone.press("home"), swipe_up):
        attempt()
        if phone.poll(lambda: is_home_screen(phone), phone.effect_timeout_s / 2):
            return True
    return False


@executes("home")
def _home(phone: Phone, step: Step) -> None:
    if not go_home(phone):
        raise _fail(step, f"the home screen did not show; in front: "
                          f"{phone.foreground().bundle_id}")


@executes("launch")
def _launch(phone: Phone, step: Step) -> None:
    phone.launch(step.arg)
    if not phone.poll(lambda: _in_front(phone, step.arg), phone.effect_timeout_s * 2):
        # One more request, on the way to a failure only: a locked phone launches nothing,
        # and "is it installed?" would send its owner looking in the wrong place.
        why = "the phone is locked" if phone.locked() else "is it installed?"
        raise _fail(step, f"{step.arg} did not come to the front (in front: "
                          f"{phone.foreground().bundle_id}); {why}")


@executes("terminate")
def _terminate(phone: Phone, step: Step) -> None:
    # Terminating an app that is not running costs a real phone half a second for nothing;
    # one known to be in front is running, and needs no asking.
    front = phone.kept_foreground()
    if (front is None or front.bundle_id != step.arg) and \
            phone.app_state(step.arg) == NOT_RUNNING:
        return
    # WDA answers once XCTest's `terminate` has returned, which waits for the app to exit and
    # fails the request when it does not: an answer is the effect, and asking again after it
    # cost every attempt's teardown a round trip for nothing.
    phone.terminate(step.arg)


@executes("open_app")
def _open_app(phone: Phone, step: Step) -> None:
    bundle = bundle_for(step.arg)
    if bundle is not None:
        _launch(phone, Step("launch", bundle, file=step.file, line=step.line))
        return
    if not go_home(phone):
        raise _fail(step, "the home screen did not show, so the app icon cannot be found")
    for _page in range(4):  # look through the home-screen pages, as a person would
        # an Icon: a widget showing the name (a note titled "Calculator") is not the app
        icon = _find(phone.page(), step.arg, exact=True, short_type="Icon")
        if icon is not None:
            phone.tap(*icon.centre)
            if phone.poll(lambda: not _in_front(phone, SPRINGBOARD), phone.effect_timeout_s * 2):
                return
            raise _fail(step, "tapping the icon did not open the app")
        phone.drag(*scroll_points(phone, "right"))
    raise _fail(step, f"no app called {step.arg!r} on the home screen")


@executes("open_url")
def _open_url(phone: Phone, step: Step) -> None:
    before = phone.foreground().bundle_id
    phone.open_url(step.arg)
    web = step.arg.lower().startswith(("http://", "https://"))
    if web and not phone.poll(lambda: _in_front(phone, SAFARI),
                              phone.effect_timeout_s * 2):
        raise _fail(step, f"Safari did not come to the front (in front: "
                          f"{phone.foreground().bundle_id})")
    if not web and not phone.poll(lambda: phone.foreground().bundle_id != before,
                                  phone.effect_timeout_s * 2):
        raise _fail(step, "no app opened the URL")


def _find(page: PageSource, text: str, exact: bool = False, short_type: str = "",
          ) -> Element | None:
    """The element a person would mean by `text`: not a text field, exact text first, a control
    before a label, then the shortest text, then the highest on screen; of `short_type` only,
    when given."""
    wanted = text.strip().lower()
    best: tuple[object, ...] | None = None
    found: Element | None = None
    for element in page.find(text):
        if short_type and element.short_type != short_type:
            continue
        texts = [t.lower() for _, t in element.texts()]
        is_exact = wanted in texts
        if exact and not is_exact:
            continue
        shortest = min((len(t) for t in texts if wanted in t), default=0)
        rank = (element.type in TEXT_INPUTS, not is_exact, element.type not in CONTROL_TYPES,
                shortest, element.y, element.x)
        if best is None or rank < best:
            best, found = rank, element
    return found


def rows_showing(page: PageSource, text: str, short_type: str = "") -> list[Element]:
    """The on-screen places that show `text`, top to bottom, one a row: an element inside one
    already listed (a result's title inside its button) is that row again. What was typed,
    the keyboard and the navigation bar (the page's title, not a row) are left out."""
    rows: list[Element] = []
    for element in sorted(page.shown(text, short_type), key=lambda e: (e.y, e.x, e.order)):
        if element.type in TEXT_INPUTS or element.short_type == "NavigationBar" or \
                page.inside(element, "NavigationBar"):
            continue
        if not any(page.holds(row, element) for row in rows):
            rows.append(element)
    return rows


def _element_step(phone: Phone, step: Step, act: Callable[[float, float], None],
                  verb: str) -> None:
    page = phone.page()
    only, nth = step.option("type"), int(step.option("nth", "0"))
    if nth:
        rows = rows_showing(page, step.arg, only)
        element = rows[nth - 1] if len(rows) >= nth else None
    else:
        element = _find(page, step.arg, short_type=only)
    if element is None:
        kind = f" {only}" if only else ""
        which = f" in row {nth} from the top" if nth else ""
        raise _fail(step, f"no on-screen{kind} element{which} matches {step.arg!r}; the screen "
                          f"shows {page.summary()}")
    x, y = _word_in(element, step.arg) or element.centre
    _changes_screen(phone, step, lambda: act(x, y), f"{verb} {element.describe()}")


BACK_STEPS = 6
"""How many screens deep an app may reopen and still be taken back to where a step starts."""


def back_until(phone: Phone, ready: Callable[[PageSource], bool]) -> None:
    """Tap the navigation bar's back button until the screen is `ready`, or there is no way
    back (what comes next then says what it misses). An app reopens where it stopped (iOS
    state restoration: Reminders in a list). A web page's back button in Safari's toolbar is
    history, not navigation, and is never tapped."""
    for _ in range(BACK_STEPS):
        page = phone.page()
        if ready(page) or not _way_back(page):
            return
        run_steps(phone, [Step.tap_on("BackButton", "Button")])


def _way_back(page: PageSource) -> bool:
    shown = page.on_screen()
    return any(e.name == "BackButton" and e.type == "XCUIElementTypeButton"
               and page.holds(bar, e)
               for bar in shown if bar.type == "XCUIElementTypeNavigationBar" for e in shown)


@executes("back_to")
def _back_to(phone: Phone, step: Step) -> None:
    only = step.option("type")
    back_until(phone, lambda page: _find(page, step.arg, short_type=only) is not None)
    page = phone.page()
    if _find(page, step.arg, short_type=only) is None:
        kind = f" {only}" if only else ""
        raise _fail(step, f"no way back to a{kind} element matching {step.arg!r}; the screen "
                          f"shows {page.summary()}")


LINE_PT, CHAR_PT, INSET_PT = 22.0, 8.5, 8.0
"""A text view's lines (17 pt body text: 22 pt a line, about 8.5 pt a character) and its inset:
enough to put a finger on a word, which is no element of its own."""


def _word_in(element: Element, text: str) -> tuple[float, float] | None:
    """Where `text` shows inside a multi-line text view that holds it among other text (a
    word of a note): a finger held there holds the word, where the view's middle is blank
    space (the caret's menu, not the word's). None for anything else."""
    value = element.value
    at = value.lower().find(text.strip().lower())
    if element.type != "XCUIElementTypeTextView" or at < 0 or value.strip() == "":
        return None
    per_line = max(1, int((element.width - 2 * INSET_PT) // CHAR_PT))
    row = col = 0
    for line in value[:at].split("\n")[:-1]:
        row += 1 + len(line) // per_line
    col = len(value[:at].split("\n")[-1])
    row, col = row + col // per_line, col % per_line
    x = element.x + INSET_PT + (col + len(text.strip()) / 2) * CHAR_PT
    y = element.y + INSET_PT + (row + 0.5) * LINE_PT
    if not (element.x <= x < element.x + element.width and element.y <= y < element.y +
            element.height):
        return None
    return x, y


@executes("tap")
def _tap(phone: Phone, step: Step) -> None:
    _element_step(phone, step, phone.tap, "tapping")


@executes("long_press")
def _long_press(phone: Phone, step: Step) -> None:
    _element_step(phone, step, lambda x, y: phone.touch_and_hold(x, y, step.seconds or 1.0),
                  "holding")


@executes("type")
def _type(phone: Phone, step: Step) -> None:
    field = phone.focused_input()
    if field is None:
        raise _fail(step, "no text field has focus; tap the field first")
    text = step.arg.replace("\r", "")
    if "\n" in text:  # Return submits: the field may lose focus, so the screen is the witness
        _changes_screen(phone, step, lambda: phone.type_keys(text), "typing and Return")
        return
    phone.type_keys(text)

    def shows(now: TextInput) -> bool:
        if field.type == "SecureTextField":  # dots only: the length is all that can be read
            return len(now.value) >= len(field.value) + len(text)
        return text in now.value

    if not phone.poll(lambda: phone.input_shows(field, shows), phone.effect_timeout_s):
        raise _fail(step, f"the {field.type} did not show {text!r} after typing")


def scroll_points(phone: Phone, direction: str) -> tuple[tuple[float, float],
                                                         tuple[float, float]]:
    """Drag points that scroll the content `direction` (down: the finger moves up)."""
    w, h = phone.screen_size()
    start, end = {
        "down": ((w / 2, h * 0.7), (w / 2, h * 0.3)),
        "up": ((w / 2, h * 0.3), (w / 2, h * 0.7)),
        "right": ((w * 0.8, h / 2), (w * 0.2, h / 2)),
        "left": ((w * 0.2, h / 2), (w * 0.8, h / 2)),
    }[direction]
    # never in the system's edge zones (`screen_part.drag_area`): a scroll there is the system's
    return clear_of_edges(start, w, h), clear_of_edges(end, w, h)


@executes("swipe")
def _swipe(phone: Phone, step: Step) -> None:
    if step.start is not None and step.end is not None:
        start, end = step.start, step.end
    else:
        start, end = scroll_points(phone, step.arg or "down")
    _changes_screen(phone, step, lambda: phone.drag(start, end), "the swipe")


@executes("wait")
def _wait(phone: Phone, step: Step) -> None:
    time.sleep(step.seconds)
    phone.forget()  # the wait is there for the screen to change


@executes("press")
def _press(phone: Phone, step: Step) -> None:
    phone.press(step.arg)
    if step.arg == "home" and not phone.poll(lambda: _in_front(phone, SPRINGBOARD),
                                             phone.effect_timeout_s):
        raise _fail(step, "SpringBoard did not come to the front")


@executes("answer_read")
def _answer_read(phone: Phone, step: Step) -> None:
    read_answer(phone, step)  # played as a step, it confirms the value shows; the solution
    # agent keeps what it reads as its answer


def read_answer(phone: Phone, step: Step) -> str:
    """The answer an `answer_read` step reads: the first text on screen its pattern matches
    (`PageSource.search`, as `regex_on_screen` reads), read afresh, as an agent reads the value
    it was asked for.

    Raises:
        StepError: nothing on screen matches (the message says what shows instead).
    """
    phone.forget()  # the value shows now: what an earlier step read may be older
    page = phone.page()
    try:
        hit = page.search(compile_pattern(step.arg))
    except PatternTimeout as exc:
        raise _fail(step, str(exc)) from exc
    if hit is None:
        raise _fail(step, f"nothing on screen matches {step.arg!r}; the screen shows "
                          f"{page.summary()}")
    return hit.matched
