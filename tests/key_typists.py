"""Honest agents that type on the on-screen keyboard one key a tap (facebook-wda, by the keys'
names), as a person does: no WDA keys, no field tapped first where the app focuses one."""

from __future__ import annotations

import time

import wda

from phoneshell.agents.base import AgentContext, AgentResult
from phoneshell.evidence import Claim

DONE = AgentResult(ran=True, claim=Claim(status="done", summary="done"))


def open_spotlight(client: wda.Client) -> None:
    """Go home and pull Spotlight down from the middle of the screen (its field takes the
    focus, the keyboard up)."""
    client.home()
    client.swipe(201, 300, 201, 620)
    time.sleep(0.3)


def tap_keys(client: wda.Client, text: str) -> None:
    """Tap each character's key, by its name ("space" for a space; a letter's capital where
    the keyboard shows capitals)."""
    for char in text:
        key = client(type="XCUIElementTypeKey", name="space" if char == " " else char)
        (key if key.exists else client(type="XCUIElementTypeKey", name=char.upper())).click()


class NoteKeys:
    """Opens Notes, taps New Note (Notes focuses the new note's body), and taps `text` on the
    keyboard's keys."""

    name = "note-keys"

    def __init__(self, text: str) -> None:
        self.text = text

    def run(self, context: AgentContext) -> AgentResult:
        client = wda.Client(context.wda_url)
        client.session().app_activate("com.apple.mobilenotes")
        client(type="XCUIElementTypeButton", name="New Note").click()
        time.sleep(0.3)
        tap_keys(client, self.text)
        return DONE
