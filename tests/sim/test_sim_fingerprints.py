"""Answers that told the simulator from a phone: pids counting up from 1000 at each launch, an
element's `index` attribute answering null, and Safari's address field reading empty when a
page's address is being edited (iOS shows it there, selected)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import wda

SETTINGS, SAFARI = "com.apple.Preferences", "com.apple.mobilesafari"


def test_app_pids_are_large_unrelated_and_kept_until_terminated(client: wda.Client) -> None:
    session = client.session()
    pids = []
    for bundle in (SETTINGS, SAFARI, "com.apple.reminders", "com.apple.mobilenotes"):
        session.app_activate(bundle)
        pids.append(client.app_current()["pid"])
    assert len(set(pids)) == 4 and all(300 <= p <= 65000 for p in pids)
    assert [b - a for a, b in zip(pids, pids[1:], strict=False)] != [1, 1, 1]  # not a counter
    session.app_activate(SETTINGS)  # still running: the same process
    assert client.app_current()["pid"] == pids[0]


def test_the_index_attribute_is_the_sources_index(client: wda.Client,
                                                  raw: Callable[..., Any]) -> None:
    session = client.session(SETTINGS)
    scope = f"/session/{session.session_id}"
    source = client.source()
    for name in ("com.apple.settings.general", "com.apple.settings.wifi"):
        element = raw("POST", scope + "/element", {"using": "accessibility id", "value": name})
        uuid = element.value["ELEMENT"]
        shown = re.search(rf'type="XCUIElementTypeButton"[^>]*name="{re.escape(name)}"'
                          r'[^>]*index="(\d+)"', source)
        assert shown is not None
        assert raw("GET", f"{scope}/element/{uuid}/attribute/index").value == int(shown.group(1))


def test_the_address_field_holds_the_address_selected_and_typing_replaces_it(
        client: wda.Client) -> None:
    safari = client.session(SAFARI)
    safari.open_url("https://example.com/")
    safari(name="TabBarItemTitle").click()
    field = safari(name="TabBarItemTitle").get(timeout=2)
    assert field.value == "https://example.com/"
    safari.send_keys("iana.org")
    assert safari(name="TabBarItemTitle").get(timeout=2).value == "iana.org"
    safari(label="Cancel").click()
    safari(name="TabBarItemTitle").click()
    safari.send_keys("\b")  # Backspace deletes the selection, nothing more
    assert safari(name="TabBarItemTitle").get(timeout=2).value == "Search or enter website"
