"""The going in of `settings.back.twice`'s plays: Settings, General, About (the way back's
tests, tests/checks/test_checks_way_back*.py)."""

from __future__ import annotations

import wda

PREFS = "com.apple.Preferences"


def into_about(c: wda.Client) -> wda.Session:
    """Settings, General, About: the going in."""
    c.app_launch(PREFS)
    s = c.session()
    s(label="General", className="XCUIElementTypeButton").click()
    s(label="About").click()
    return s
