"""Spotlight lists Settings pages, as a real iOS 26 phone does, and opens Settings on the page
(red team 54: typing "Bluetooth" showed "No Results", so an agent that reached a Settings page
the way a phone offers failed here and passed there)."""

from __future__ import annotations

import wda

SETTINGS = "com.apple.Preferences"


def front(client: wda.Client) -> str:
    return str(client.app_current()["bundleId"])


def test_a_settings_page_is_a_spotlight_result_that_opens_it(app: wda.Client,
                                                             client: wda.Client) -> None:
    app.swipe_down()
    app.send_keys("Bluetooth")
    assert app(label="Settings", className="StaticText").exists  # the section's header
    assert not app(label="No Results").exists
    app(label="Bluetooth", className="Cell").get(timeout=1).click()
    assert front(client) == SETTINGS
    assert app(className="NavigationBar", name="Bluetooth").exists
    app(label="Settings", className="Button").click()  # the page's back: Settings' root under it
    assert app(className="NavigationBar", name="Settings").get(timeout=1)


def test_a_deeper_page_opens_with_its_parents_under_it_and_return_opens_the_top_hit(
        app: wda.Client, client: wda.Client) -> None:
    app.swipe_down()
    app.send_keys("Date & Time")
    assert app(label="Date & Time", className="Cell").exists
    assert app(label="Settings > General").exists  # the trail under the title
    app.send_keys("\n")  # no app matches: the page is the top hit
    assert front(client) == SETTINGS
    assert app(className="NavigationBar", name="Date & Time").exists
    app(label="General", className="Button").click()
    assert app(className="NavigationBar", name="General").get(timeout=1)


def test_apps_come_first_and_a_query_matching_nothing_says_so(app: wda.Client) -> None:
    app.swipe_down()
    app.send_keys("Cal")
    names = [e.label for e in app(className="Cell").find_elements()]
    assert names[:2] == ["Calculator", "Calendar"]
    app.send_keys("\b\b\bzzqx")
    assert app(label="No Results").exists
