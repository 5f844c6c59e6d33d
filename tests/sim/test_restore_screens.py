"""Apps that reopen where they stopped after a terminate, as a real iPhone restores them: Files
on its last tab, Calendar on its last view. An app without the restore opens on its first
screen, as before."""

from __future__ import annotations

import wda

FILES = "com.apple.DocumentsApp"
CALENDAR = "com.apple.mobilecal"


def _selected_tab(session: wda.Client) -> str:
    tabs = session(className="TabBar").child(className="Button").find_elements()
    return next(t.label for t in tabs if t.selected())


def test_files_reopens_on_the_tab_it_stopped_on(app):
    session = app
    session.app_launch(FILES)
    assert _selected_tab(session) == "Recents"
    session(label="Browse", className="Button").click()
    session.app_terminate(FILES)
    session.app_launch(FILES)
    assert _selected_tab(session) == "Browse"
    session(label="Recents", className="Button").click()
    session.app_terminate(FILES)
    session.app_launch(FILES)
    assert _selected_tab(session) == "Recents"


def test_calendar_reopens_on_the_view_it_stopped_on(app):
    session = app
    session.app_launch(CALENDAR)
    assert not session(label="January", className="StaticText").exists
    session(label="January", className="Button").click()  # the day view's chevron up a level
    assert session(label="January", className="StaticText").exists
    session.app_terminate(CALENDAR)
    session.app_launch(CALENDAR)
    assert session(label="January", className="StaticText").exists
