"""Slips a model makes with the tools, on the simulated iPhone behind the bridge (red team 112):
each is answered with what to send instead, and none acts on the phone. A name `open_app`
cannot place (a bundle id no Apple app has, "Calculator.", a path) costs no action, while an
Apple app's name or bundle id opens it in any spelling ("Calculator.app", "com.apple.Calculator"
each cost a failed launch before); a `read` past the end of a text says so, with its length."""

from __future__ import annotations

from pathlib import Path

import pytest
from agents.screen_script import find_row

from phoneshell.agents.tools import PhoneTools
from phoneshell.audit import agent_steps, read_audit


def actions_logged(tmp_path: Path) -> int:
    """The agent's actions as the runner counts them from the log (`audit.agent_steps`)."""
    path = tmp_path / "R" / "audit.jsonl"
    return agent_steps(read_audit(path).records) if path.exists() else 0


@pytest.mark.parametrize(("name", "app"), [
    ("Calculator.app", "Calculator (com.apple.calculator)"),
    ("com.apple.Calculator", "Calculator (com.apple.calculator)"),
    (" notes ", "Notes (com.apple.mobilenotes)"),
    ("COM.APPLE.PREFERENCES.app", "Settings (com.apple.Preferences)")])
def test_an_apple_app_opens_by_its_name_or_id_in_any_spelling(
        tools: PhoneTools, tmp_path: Path, name: str, app: str) -> None:
    opened = tools.call("open_app", {"name": name})
    assert not opened.error and f"· app: {app}\n" in opened.text, opened.text
    assert actions_logged(tmp_path) == 1, "one launch"


def test_a_name_open_app_cannot_place_costs_no_action(tools: PhoneTools,
                                                      tmp_path: Path) -> None:
    tools.call("observe", {})
    told = {name: tools.call("open_app", {"name": name}) for name in (
        "Calculator.", "com.apple.calculatr", "com.apple.Preview", "com.example.shop",
        "../../etc/passwd", "Calculator.app.app")}
    assert all(reply.error for reply in told.values())
    assert actions_logged(tmp_path) == 0, "nothing reached the phone"
    for name, suggested in [("Calculator.", "'Calculator'"),
                            ("com.apple.calculatr", "'com.apple.calculator'"),
                            ("com.apple.Preview", "'Preview'"),  # its icon, on the home screen
                            ("Calculator.app.app", "'Calculator'")]:
        meant = told[name].text.split("did you mean ", 1)[-1].split("?")[0]
        assert suggested in meant, told[name].text
    assert told["com.example.shop"].text == (
        "open_app: no app is called 'com.example.shop'; open_app takes Apple's apps by name or "
        "bundle id, and an icon's name on the home-screen page showing; nothing was done")
    # the icon the miss pointed at opens by its name, on its page
    assert "another home-screen page" in tools.call("open_app", {"name": "Preview"}).text
    tools.call("swipe", {"direction": "right"})
    preview = tools.call("open_app", {"name": "Preview"})
    assert not preview.error and "· app: Preview" in preview.text, preview.text


def test_a_read_past_the_end_says_so_with_the_texts_length(tools: PhoneTools) -> None:
    seen = tools.call("observe", {}).text
    notes = find_row(seen, "Notes").id
    assert tools.call("read", {"id": notes, "start": 4}).text == (
        f"{notes}\tIcon\t5 characters, 4 to 5 here:\ns")
    for start, said in [(5, "5"), (1e15, "1,000,000,000,000,000")]:
        past = tools.call("read", {"id": notes, "start": start})
        assert past.error and past.text == (
            f"read: start {said} is past the end: the text of {notes} has 5 characters; read "
            "from 0"), past.text
