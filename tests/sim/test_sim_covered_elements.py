"""Each element of a screen is shown and hittable on its own (red teams 130 and 131).

RT131-1: `hittable` was `visible and enabled`, so a search result under the keyboard, or a
cell's title scrolled under the navigation bar while the cell's centre was below it, read
hittable though a tap by id on it pressed a key or landed on the bar. It is now the simulator's
own hit test at the element's hit point. RT130-3: `visible` was decided per row, so a tall
card's text wholly under the tab bar read visible and a row's text below the bar read hidden
with its row; each element now shows by its own centre. All through facebook-wda over HTTP.
"""

from __future__ import annotations

import wda

from phoneshell.sim import SimServer


def _hittable(element: wda.Element) -> bool:
    return bool(element._prop("attribute/hittable"))


def _centre_y(element: wda.Element) -> int:
    bounds = element.bounds
    return bounds.y + bounds.height // 2


def test_a_result_under_the_keyboard_is_visible_but_not_hittable_and_a_tap_presses_the_key(
        ) -> None:
    with SimServer() as sim:
        s = wda.Client(sim.url).session("com.apple.Preferences")
        field = s(className="SearchField").get(timeout=3)
        field.tap()
        s.send_keys("a")
        keyboard = s(className="Keyboard").get(timeout=3).bounds
        row = s(label="Larger Text").get(timeout=3)
        assert keyboard.y <= _centre_y(row) < keyboard.y + keyboard.height
        assert row.visible is True  # the keyboard's window hides nothing
        assert _hittable(row) is False  # a touch there is the key's
        assert _hittable(s(label="General", className="Button").get(timeout=3))
        assert not s(predicate="label == 'Larger Text' AND hittable == 1").exists


def test_a_cells_title_under_the_bar_is_hidden_and_not_hittable_its_cell_below_shows() -> None:
    with SimServer() as sim:
        s = wda.Client(sim.url).session("com.apple.Preferences")
        # 92 points: the bar is the standard one (62..116), the account cell's title (centre
        # 111) under it, the cell's centre (121) below it
        s.swipe(200, 600, 200, 508, 1.5)
        bar = s(className="NavigationBar").get(timeout=3).bounds
        cell = s(label="Apple Account", className="StaticText").get(timeout=3)
        bottom = bar.y + bar.height
        assert _centre_y(cell) < bottom
        assert cell.visible is False and _hittable(cell) is False
        account = s(predicate="label BEGINSWITH 'Apple Account,'").get(timeout=3)
        assert _centre_y(account) >= bottom and account.visible is True
