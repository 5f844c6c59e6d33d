"""Maps turned to landscape with the keyboard up (red team 114): the results list shows down to
the keyboard's top, never at a negative height, and the first result shows and takes a tap, so an
honest search turned sideways passes. The sheet is a card at the left side, not across the map.
And the class: no rotating app, turned and typed into, lays out any frame of negative size or a
list of absurdly many pages. Over facebook-wda, and `phoneshell run` as a subprocess."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest
import wda
from cli_process import run_cli

from phoneshell.sim import SimServer
from phoneshell.sim.apps import builtin_apps

MAPS = "com.apple.Maps"
ROOT = Path(__file__).resolve().parents[2]
TURNS = Path(__file__).with_name("turns_then_solves.py")
ROTATING = sorted(a.bundle_id for a in builtin_apps() if a.rotates)
NEGATIVE = re.compile(r'<XCUIElementType(\w+)[^>]*?\b(?:width|height)="-\d+')
PAGES = re.compile(r"Vertical scroll bar, (\d+) pages")
NO_FIELD_FIRST = frozenset({"com.apple.calculator", "com.apple.iBooks", "com.apple.mobilecal"})
"""The apps that turn and show no field on their first screen (Books' and Calendar's search are
a tab or a button away): nothing to type into there, which the test holds them to."""


def turned(client: wda.Client, bundle: str) -> wda.Client:
    """A session on `bundle`, the phone turned to landscape."""
    session = client.session(bundle)
    session.orientation = "LANDSCAPE"
    return session


def test_turned_with_the_keyboard_up_the_first_result_shows_and_takes_a_tap(client):
    maps = turned(client, MAPS)
    maps(className="SearchField").click()
    maps.send_keys("Eiffel Tower")
    width, height = client.window_size()
    assert width > height and maps(className="Keyboard").exists
    table = maps(className="Table").get(timeout=1).bounds
    # the list spans the card under the field and the keyboard, which inset its content, as
    # UIKit's do (fixer AY): it shows from under the field to the landscape keyboard's top
    assert table.y + table.height == height, table
    shows = maps(predicate="name BEGINSWITH 'Vertical scroll bar'").get(timeout=1).bounds
    assert shows.height > 0 and shows.y + shows.height == height - 200, shows
    assert table.width < width  # the card at the side, not across the map
    row = maps(className="Cell", label="Eiffel Tower").get(timeout=1)
    assert row.visible, row.bounds
    assert maps(predicate="type == 'XCUIElementTypeCell' AND label == 'Eiffel Tower' "
                          "AND hittable == true").exists
    assert NEGATIVE.findall(client.source()) == []
    row.click()  # the place card opens on the turned screen, its Close within reach
    close = maps(name="Close").get(timeout=1).bounds
    assert close.y >= 0 and close.y + close.height <= height, close
    maps(name="Close").click()
    assert [c.label for c in maps(className="Cell").find_elements()] == ["Eiffel Tower"]


@pytest.mark.parametrize("bundle", ROTATING)
def test_no_turned_app_typed_into_lays_out_a_negative_frame(client, bundle):
    app = turned(client, bundle)
    fields = [e for kind in ("SearchField", "TextField", "TextView")
              for e in app(className=kind).find_elements() if e.visible]
    if bundle in NO_FIELD_FIRST:
        assert fields == [], f"{bundle} shows a field now: take it off NO_FIELD_FIRST"
        return
    assert fields, f"{bundle} shows no field on its first screen: list it in NO_FIELD_FIRST"
    fields[0].click()
    app.send_keys("a")
    source = client.source()
    assert NEGATIVE.findall(source) == []
    # a list's scroll bar pages by the list's height: a list squeezed to a sliver is no list
    assert all(int(n) < 20 for n in PAGES.findall(source)), PAGES.findall(source)


@pytest.mark.slow  # two whole runs of 2 s: the README's command stays quick
@pytest.mark.parametrize("when", ["before", "after"])
def test_the_honest_search_turned_sideways_passes(tmp_path: Path, when: str) -> None:
    with SimServer() as sim:
        done = run_cli("run", "environments/maps.search_place.yaml", "--device", sim.url,
                       "--agent", f"command:{shlex.quote(sys.executable)} {TURNS} {when}",
                       "--sandbox", "none", "--runs", str(tmp_path), "--run-id", "R",
                       env={"PHONESHELL_EXPOSE_TASK_FILE": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "maps.search_place" in done.stdout and "passed" in done.stdout


def test_a_list_the_keyboard_squeezes_keeps_a_height_and_a_sane_page_count(client):
    # Reminders' list, turned and typed into, ends at the landscape keyboard's top (its row in
    # view: tests/sim/test_sim_reminders_landscape.py), never at a negative height
    reminders = client.session("com.apple.reminders")
    reminders(className="Cell", name="Reminders").click()
    reminders.orientation = "LANDSCAPE"
    reminders(name="New Reminder").click()
    source = client.source()
    assert "XCUIElementTypeKeyboard" in source and NEGATIVE.findall(source) == []
    assert all(int(n) < 20 for n in PAGES.findall(source)), PAGES.findall(source)
