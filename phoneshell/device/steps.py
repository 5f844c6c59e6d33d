"""Run setup, teardown and solution steps on a phone, and prove each one took effect.

WDA answers 200 to a tap on a locked phone, to a launch that left the app in the background and
to keys that went nowhere, so no step trusts its reply: a launch is confirmed by the foreground
app, a tap by a change on screen, typing by reading the field back. A step that does not take
effect raises `StepError` naming the step and where it was written.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable

from phoneshell.device.apps import bundle_for
from phoneshell.device.phone import SPRINGBOARD, Phone, wait_until
from phoneshell.errors import RIG_DOWN, DeviceError, StepError
from phoneshell.registry import Registry
from phoneshell.tasks import STEPS, Step
from phoneshell.tree import Element, PageSource
from phoneshell.xcui import TEXT_INPUTS

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
        EXECUTORS.lookup(step.kind)(phone, step)
    except (StepError, *RIG_DOWN):
        raise  # a broken rig is not the step's fault: the caller stops the run
    except DeviceError as exc:
        raise StepError(f"{step.describe()}: {exc.message}", hint=exc.hint) from exc


def run_steps(phone: Phone, steps: Iterable[Step]) -> None:
    """Run steps in order, stopping at the first that fails."""
    for step in steps:
        run_step(phone, step)


def _fail(step: Step, what: str) -> StepError:
    return StepError(f"{step.describe()}: {what}")


def screen_signature(phone: Phone) -> str:
    """A hash of what is on screen and which app is in front, to tell whether a step changed it."""
    page = PageSource.parse(phone.source())
    shown = [(e.type, e.label, e.name, e.value, e.traits, e.x, e.y) for e in page.on_screen()]
    return hashlib.sha1(repr((page.bundle_id, shown)).encode()).hexdigest()


def _changes_screen(phone: Phone, step: Step, act: Callable[[], None], what: str) -> None:
    before = screen_signature(phone)
    act()
    if not wait_until(lambda: screen_signature(phone) != before, phone.effect_timeout_s):
        raise _fail(step, f"{what} had no visible effect")


def _in_front(phone: Phone, bundle_id: str) -> bool:
    return phone.foreground().bundle_id == bundle_id


def is_home_screen(phone: Phone) -> bool:
    """SpringBoard in front showing app icons (not Spotlight or Notification Center)."""
    if not _in_front(phone, SPRINGBOARD):
        return False
    page = PageSource.parse(phone.source())
    icons = [e for e in page.on_screen() if e.type == "XCUIElementTypeIcon"]
    typing = any(e.type in TEXT_INPUTS for e in page.on_screen())
    return bool(icons) and not typing


def go_home(phone: Phone) -> bool:
    """Go to the home screen, trying WDA's route, the home button and the bottom-edge swipe."""
    width, height = screen_size(phone)
    for attempt in (phone.home, lambda: phone.press("home"),
                    lambda: phone.drag((width / 2, height - 2), (width / 2, height * 0.4))):
        attempt()
        if wait_until(lambda: is_home_screen(phone), phone.effect_timeout_s / 2):
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
    if not wait_until(lambda: _in_front(phone, step.arg), phone.effect_timeout_s * 2):
        raise _fail(step, f"{step.arg} did not come to the front (in front: "
                          f"{phone.foreground().bundle_id}); is it installed?")


@executes("terminate")
def _terminate(phone: Phone, step: Step) -> None:
    phone.terminate(step.arg)
    if not wait_until(lambda: phone.app_state(step.arg) < 3 and not _in_front(phone, step.arg),
                      phone.effect_timeout_s):
        raise _fail(step, f"{step.arg} is still running")


@executes("open_app")
def _open_app(phone: Phone, step: Step) -> None:
    bundle = bundle_for(step.arg)
    if bundle is not None:
        _launch(phone, Step("launch", bundle, file=step.file, line=step.line))
        return
    if not go_home(phone):
        raise _fail(step, "the home screen did not show, so the app icon cannot be found")
    width, height = screen_size(phone)
    for _page in range(4):  # look through the home-screen pages, as a person would
        icon = _find(PageSource.parse(phone.source()), step.arg, exact=True)
        if icon is not None:
            phone.tap(*_centre(icon))
            if wait_until(lambda: not _in_front(phone, SPRINGBOARD), phone.effect_timeout_s * 2):
                return
            raise _fail(step, "tapping the icon did not open the app")
        phone.drag((width * 0.8, height / 2), (width * 0.2, height / 2))
    raise _fail(step, f"no app called {step.arg!r} on the home screen")


@executes("open_url")
def _open_url(phone: Phone, step: Step) -> None:
    before = phone.foreground().bundle_id
    phone.open_url(step.arg)
    web = step.arg.lower().startswith(("http://", "https://"))
    if web and not wait_until(lambda: _in_front(phone, "com.apple.mobilesafari"),
                              phone.effect_timeout_s * 2):
        raise _fail(step, f"Safari did not come to the front (in front: "
                          f"{phone.foreground().bundle_id})")
    if not web and not wait_until(lambda: phone.foreground().bundle_id != before,
                                  phone.effect_timeout_s * 2):
        raise _fail(step, "no app opened the URL")


def _find(page: PageSource, text: str, exact: bool = False) -> Element | None:
    """The element a person would mean by `text`: not a text field, exact text first, a control
    before a label, then the shortest text, then the highest on screen."""
    wanted = text.strip().lower()
    best: tuple[object, ...] | None = None
    found: Element | None = None
    for element in page.find(text):
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


def _centre(element: Element) -> tuple[float, float]:
    return element.x + element.width / 2, element.y + element.height / 2


def _element_step(phone: Phone, step: Step, act: Callable[[float, float], None],
                  verb: str) -> None:
    page = PageSource.parse(phone.source())
    element = _find(page, step.arg)
    if element is None:
        raise _fail(step, f"no on-screen element matches {step.arg!r}; the screen shows "
                          f"{page.summary()}")
    x, y = _centre(element)
    _changes_screen(phone, step, lambda: act(x, y), f"{verb} {element.describe()}")


@executes("tap")
def _tap(phone: Phone, step: Step) -> None:
    _element_step(phone, step, phone.tap, "tapping")


@executes("long_press")
def _long_press(phone: Phone, step: Step) -> None:
    _element_step(phone, step, lambda x, y: phone.touch_and_hold(x, y, step.seconds or 1.0),
                  "holding")


@executes("type")
def _type(phone: Phone, step: Step) -> None:
    focused = [f for f in phone.fields() if f.focused]
    if not focused:
        raise _fail(step, "no text field has focus; tap the field first")
    field = focused[0]
    text = step.arg.replace("\r", "")
    if "\n" in text:  # Return submits: the field may lose focus, so the screen is the witness
        _changes_screen(phone, step, lambda: phone.type_keys(text), "typing and Return")
        return
    phone.type_keys(text)

    def read_back() -> bool:
        now = next((f for f in phone.fields() if f.focused and f.type == field.type), None)
        if now is None:
            return False
        if field.type == "SecureTextField":  # dots only: the length is all that can be read
            return len(now.value) >= len(field.value) + len(text)
        return text in now.value

    if not wait_until(read_back, phone.effect_timeout_s):
        raise _fail(step, f"the {field.type} did not show {text!r} after typing")


def screen_size(phone: Phone) -> tuple[float, float]:
    """The screen in points, from the application frame of the source (a session-free read)."""
    page = PageSource.parse(phone.source())
    if page.width <= 0 or page.height <= 0:
        raise DeviceError(f"WDA at {phone.url} sent a page source without a screen size")
    return float(page.width), float(page.height)


def scroll_points(phone: Phone, direction: str) -> tuple[tuple[float, float],
                                                         tuple[float, float]]:
    """Drag points that scroll the content `direction` (down: the finger moves up)."""
    w, h = screen_size(phone)
    return {
        "down": ((w / 2, h * 0.7), (w / 2, h * 0.3)),
        "up": ((w / 2, h * 0.3), (w / 2, h * 0.7)),
        "right": ((w * 0.8, h / 2), (w * 0.2, h / 2)),
        "left": ((w * 0.2, h / 2), (w * 0.8, h / 2)),
    }[direction]


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


@executes("press")
def _press(phone: Phone, step: Step) -> None:
    phone.press(step.arg)
    if step.arg == "home" and not wait_until(lambda: _in_front(phone, SPRINGBOARD),
                                             phone.effect_timeout_s):
        raise _fail(step, "SpringBoard did not come to the front")
