"""A drag on the simulated iPhone presses what UIKit presses (`phoneshell.presses`): a button no
list holds, when the finger lifts within 70 pt of it however it moved; a context menu's item the
finger lifts on; not a row of a scrolling list once the finger moves past the slop (the list
scrolls). Driven by facebook-wda's drag and raw W3C actions, as a client drives a phone."""

from __future__ import annotations

import wda

CLOCK, SETTINGS = "com.apple.mobiletimer", "com.apple.Preferences"


def _add_alarm(client: wda.Client) -> tuple[wda.Client, wda.Rect]:
    session = client.session(CLOCK)
    session(label="Alarms", className="Button").click()
    session(label="Add", className="Button").click()
    return session, session(label="Save", className="Button").get(timeout=2).bounds


def _slide(x0: float, y0: float, x1: float, y1: float) -> dict[str, object]:
    steps = [{"type": "pointerMove", "duration": 0, "x": x0, "y": y0},
             {"type": "pointerDown", "button": 0},
             {"type": "pointerMove", "duration": 100, "x": x1, "y": y1},
             {"type": "pointerUp", "button": 0}]
    return {"actions": [{"type": "pointer", "id": "f1", "parameters": {"pointerType": "touch"},
                         "actions": steps}]}


def test_a_slide_that_lifts_within_reach_of_save_saves(client: wda.Client) -> None:
    session, save = _add_alarm(client)
    x, y = save.x + 10, save.y + save.height // 2
    session.swipe(x, y, x + 14, y, 0.1)  # dragfromtoforduration, 14 pt inside the button
    assert not session(label="Save", className="Button").exists  # the sheet closed
    assert session(className="Cell").exists  # the alarm it saved


def test_a_w3c_slide_past_the_edge_but_within_reach_saves(client: wda.Client) -> None:
    session, save = _add_alarm(client)
    x, y = save.x + 10, save.y + save.height // 2
    session.http.post("/actions", data=_slide(x, y, x, save.y + save.height + 50))
    assert not session(label="Save", className="Button").exists


def test_a_slide_lifted_out_of_reach_presses_nothing(client: wda.Client) -> None:
    session, save = _add_alarm(client)
    x, y = save.x + 10, save.y + save.height // 2
    # sideways along the sheet's bar: one pulled down would close the sheet (unsaved), as iOS's
    session.http.post("/actions", data=_slide(x, y, save.x - 100, y))
    assert session(label="Save", className="Button").exists


def test_a_slide_on_a_row_of_a_scrolling_list_scrolls_it(client: wda.Client) -> None:
    """Down on General, 40 pt up, lifted still on the row: the list scrolls (its pan cancels
    the row's touch), and General does not open."""
    session = client.session(SETTINGS)
    row = session(label="General", className="Button").get(timeout=2).bounds
    x, y = row.x + row.width // 2, row.y + row.height // 2
    session.swipe(x, y, x, y - 40, 0.1)
    moved = session(label="General", className="Button").get(timeout=2).bounds
    assert moved.y < row.y  # it scrolled with the finger
    assert not session(label="About").exists


def test_a_slide_on_an_icons_menu_picks_the_item_it_lifts_on(client: wda.Client) -> None:
    session = client.session()
    session(className="Icon", label="Weather").get(timeout=2).tap_hold(1.3)
    share = session(label="Share App", className="Button").get(timeout=2).bounds
    remove = session(label="Remove App", className="Button").get(timeout=2).bounds
    x = share.x + share.width // 2
    session.http.post("/actions", data=_slide(x, remove.y + remove.height // 2,
                                              x, share.y + share.height // 2))
    assert not session(label="Remove App").exists  # the menu closed: Share App was picked
    assert session(label="App Store").exists  # its share sheet
