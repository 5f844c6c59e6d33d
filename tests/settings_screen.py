"""What Settings shows, read off a page source through facebook-wda: its list's rows and its
navigation bar's title (the simulator's Settings tests)."""

from __future__ import annotations

import wda
from lxml import etree

SETTINGS = "com.apple.Preferences"


def rows(client: wda.Client, visible_only: bool = False) -> list[str]:
    """The rows of the list showing: a cell's label, or (in the root's unnamed cells) the
    title of the Button or Switch inside it."""
    root = etree.fromstring(client.source().encode())
    found = []
    for cell in root.iter("XCUIElementTypeCell"):
        control = cell if cell.get("label") else next(
            (e for e in cell.iter("XCUIElementTypeButton", "XCUIElementTypeSwitch")
             if e.get("label")), None)
        if control is not None and (not visible_only or control.get("visible") == "true"):
            found.append(control.get("label").split(", ")[0])
    return found


def title(client: wda.Client) -> str:
    """The title of the navigation bar showing."""
    root = etree.fromstring(client.source().encode())
    return str(root.find(".//XCUIElementTypeNavigationBar").get("name"))
