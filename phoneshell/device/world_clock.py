"""Clock's World Clock list as a count of its cities (`world_clocks`), and deleting the cities
an attempt, or a run's agents, added.

A city an agent adds to World Clock stays on the phone, run after run (a random agent played
over the suite added some, and nothing counted them). Clock lists a city once, so a row is
named by its city: the one text in the row that is not its time, AM or PM, or its day and
offset ("Today, +8HRS"), which change as the clock moves while the city does not. A row whose
city cannot be told so is not counted, and the count says why. A city is deleted as an alarm
is: its row swiped left, its Delete tapped, and checked gone with every other city still there.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from phoneshell.device.alarms import ends_on_screen, list_bottom, swipe_to_delete
from phoneshell.device.cleanup import DELETERS, kept_rows
from phoneshell.device.phone import Phone
from phoneshell.device.probes import (
    CLOCK,
    ROWS,
    SCROLLS,
    STATIC_TEXT,
    Overflow,
    ProbeError,
    leaving_open,
    merge_scrolled,
    probe,
    run_rows,
    scrolled_down,
    stop_app,
)
from phoneshell.device.steps import run_steps
from phoneshell.device.timers import left_key, open_tab
from phoneshell.device.wholes import unplaced
from phoneshell.errors import StepError
from phoneshell.tasks import Step
from phoneshell.tree import Element, PageSource

WORLD_TABS = ("World Clock",)
NOT_A_CITY = re.compile(r"^\d{1,2}:\d{2}$|^(AM|PM)$|^(Today|Tomorrow|Yesterday)\b", re.I)
"""A row's texts that change with the time: the clock, AM or PM, the day and offset."""
CELL = "XCUIElementTypeCell"


def _fail(step: Step, what: str) -> StepError:
    return StepError(f"{step.describe()}: {what}")


def _city(page: PageSource, cell: Element) -> str:
    """The city a World Clock row shows.

    Raises:
        ProbeError: the row has no one text that is not a time, AM or PM, or a day.
    """
    texts = [e.label.strip() for e in page.elements if e.type == STATIC_TEXT and e.label.strip()
             and page.holds(cell, e) and not NOT_A_CITY.match(e.label.strip())]
    if len(texts) != 1:
        raise ProbeError(f"cannot tell the city of the World Clock row {cell.label!r} (its "
                         f"texts: {texts})")
    return texts[0]


def rows_of(page: PageSource) -> list[tuple[str, Element]]:
    """Each city row on screen, top to bottom, with its cell."""
    cells = sorted((e for e in page.on_screen() if e.type == CELL and page.inside(e, "Table")),
                   key=lambda e: (e.y, e.x))
    return [(_city(page, cell), cell) for cell in cells]


def _ends(page: PageSource) -> bool:
    return ends_on_screen(page, list_bottom(page), lambda cell: page.inside(cell, "Table"))


@ROWS.register("world_clocks")
def world_clock_rows(phone: Phone, arg: str) -> tuple[str, ...]:
    """The cities of Clock's World Clock list, top to bottom, scrolling through it; with
    `arg`, only those whose name contains it (ignoring case)."""
    page = open_tab(phone, Step("probe", "world_clocks"), WORLD_TABS)
    seen = [city for city, _ in rows_of(page)]
    scrolled = False
    for _ in range(SCROLLS):
        if _ends(page) or not scrolled_down(phone):
            break
        scrolled, page = True, phone.page()
        seen = merge_scrolled(seen, [city for city, _ in rows_of(page)])
    else:
        raise Overflow(f"the World Clock list is longer than {SCROLLS} screens; cannot count it")
    if leaving_open() and not scrolled:
        phone.leave(left_key(WORLD_TABS))  # the deleting after may start from this tab
    else:
        stop_app(phone, CLOCK)
    return tuple(city for city in unplaced(seen) if arg.lower() in city.lower())


@probe("world_clocks")
def world_clocks(phone: Phone, arg: str) -> int:
    """How many cities `world_clock_rows` lists."""
    return len(world_clock_rows(phone, arg))


def delete_cities(phone: Phone, step: Step, cities: Iterable[str]) -> None:
    """Delete each of `cities` from World Clock (in list order), each checked gone with every
    other city still there; Clock is stopped after.

    Raises:
        StepError: a city is not in the list, or its delete did not take effect as it should.
    """
    page = open_tab(phone, step, WORLD_TABS)
    for city in cities:
        row = _find(phone, page, city)
        if row is None:  # above where the list stands now: from its top
            row = _find(phone, open_tab(phone, step, WORLD_TABS), city)
        if row is None:
            raise _fail(step, f"{city!r} is not in the World Clock list")
        delete = swipe_to_delete(phone, step, row)
        phone.forget()
        button = delete()
        if button is None:
            raise _fail(step, f"the Delete button of {city!r} went away")
        others = [c for c, _ in rows_of(phone.page()) if c != city]
        phone.tap(*button.centre)

        def gone(city: str = city, others: list[str] = others) -> bool:
            shown = [c for c, _ in rows_of(phone.page())]
            return city not in shown and all(c in shown for c in others)

        if not phone.poll(gone, phone.effect_timeout_s):
            raise _fail(step, f"deleting {city!r} from World Clock did not take effect as it "
                              f"should (it shows {[c for c, _ in rows_of(phone.page())]})")
        page = phone.page()
    stop_app(phone, CLOCK)


def add_cities(phone: Phone, step: Step, cities: Iterable[str]) -> None:
    """Add each of `cities` to World Clock as a person does: Add, the city's name typed into the
    chooser's search field, the city tapped among the results (on a phone a result may carry
    its country: "London, U.K."); all checked in the list after. Clock is stopped after.

    Raises:
        StepError: the chooser found no such city, or a city is not in the list after.
    """
    cities = tuple(cities)
    open_tab(phone, step, WORLD_TABS)
    for city in cities:
        run_steps(phone, (Step.tap_on("Add", "Button"), Step("type", city)))
        result = next((e for e in phone.page().on_screen() if e.type == CELL
                       and (e.label == city or e.label.startswith(f"{city}, "))), None)
        if result is None:
            raise _fail(step, f"World Clock's chooser lists no {city!r} to add back")
        phone.tap(*result.centre)
        if not phone.poll(lambda: _on_list(phone.page()), phone.effect_timeout_s):
            raise _fail(step, f"choosing {city!r} did not close World Clock's chooser")
    missing = set(cities) - set(world_clock_rows(phone, ""))  # stops Clock
    if missing:
        raise _fail(step, f"{sorted(missing)} did not come back to World Clock")


def _on_list(page: PageSource) -> bool:
    """Whether the World Clock list shows (its chooser closed)."""
    return not any(e.type == "XCUIElementTypeSearchField" for e in page.on_screen())


def _find(phone: Phone, page: PageSource, city: str) -> Element | None:
    """The whole row of `city` on screen, scrolling down to it (None: not below here)."""
    for _ in range(SCROLLS):
        bottom = list_bottom(page)
        whole = [cell for name, cell in rows_of(page)
                 if name == city and cell.y + cell.height <= bottom]
        if whole:
            return whole[0]
        if _ends(page) or not scrolled_down(phone):
            return None
        page = phone.page()
    return None


@DELETERS.register("world_clocks")
def _world_clocks(phone: Phone, step: Step, text: str, n: int) -> None:
    """Delete the cities the list gained: those not among the cities counted before the agent
    (a city is listed once, so one gone since changes nothing of which are new). Nothing goes
    when those are not known."""
    kept = kept_rows(step)
    if kept is None:
        raise _fail(step, "the cities counted before the agent are not known, so which the "
                          "attempt added cannot be told: none deleted")
    shown = run_rows(phone, "world_clocks", text, leave_open=True)  # the tab left for deleting
    made = Counter(shown) - kept
    delete_cities(phone, step, [city for city in shown if made[city] > 0][:n])
