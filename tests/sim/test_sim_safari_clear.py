"""Safari's address field clears as a UITextField does: while it is edited and holds text, its
clear button ("Clear text", inside the field) empties it and the field keeps its focus (red
team 95: an agent that fixed a typo this way found no button and failed). Played through the
bridge on the simulated iPhone with facebook-wda, graded by the suite's own tasks."""

from __future__ import annotations

from pathlib import Path

import wda
from played_finish import failed_checks, played

from phoneshell.sim import SimServer
from phoneshell.tasks import Task

SAFARI = "com.apple.mobilesafari"


def _typed_cleared_retyped(wrong: str, right: str):  # type: ignore[no-untyped-def]
    def play(c: wda.Client) -> None:
        s = c.session(SAFARI)
        s(label="Address", className="XCUIElementTypeTextField").click()
        s.send_keys(wrong)
        field = s(label="Address", className="XCUIElementTypeTextField")
        field.child(label="Clear text").click()
        # emptied, it shows its placeholder as its value, as an empty UITextField does
        assert s(label="Address", className="XCUIElementTypeTextField").value \
            == "Search or enter website"
        s.send_keys(right)
    return play


def test_a_typo_cleared_and_the_address_retyped_loads_it(sim: SimServer, tmp_path: Path,
                                                         suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["safari.navigate.example"],
                 _typed_cleared_retyped("exmaple.org", "example.com\n"))
    assert row.outcome == "passed", failed_checks(row)


def test_a_query_cleared_and_retyped_is_the_search_sent(sim: SimServer, tmp_path: Path,
                                                        suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["safari.search.web"],
                 _typed_cleared_retyped("iso 8601 time", "iso 8601 date format\n"))
    assert row.outcome == "passed", failed_checks(row)


def test_the_button_is_there_only_while_the_field_holds_typing(sim: SimServer) -> None:
    c = wda.Client(sim.url)
    s = c.session(SAFARI)
    field = s(label="Address", className="XCUIElementTypeTextField")
    field.click()
    assert not field.child(label="Clear text").exists, "nothing typed: no clear button"
    s.send_keys("example")
    assert field.child(label="Clear text").exists
