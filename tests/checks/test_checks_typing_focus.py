"""Keys tapped into a field the phone focused by itself are typing into that field: Spotlight's
search field (focused as it opens), a new note's body. Played with facebook-wda through a bridge
in front of the simulated iPhone, as an honest agent that types on the on-screen keyboard does
(a red team's find: the keys were dropped, for no tap on the field began an editing)."""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from attempt_rig import run_one
from audit_logs import CALC, PREFS, SAFARI, SB, act, grade, log, tgt
from key_typists import DONE, NoteKeys, open_spotlight, tap_keys

from phoneshell.agents.base import AgentContext, AgentResult
from phoneshell.audit import AuditEvent, Target
from phoneshell.checks.keystrokes import editings
from phoneshell.sim import SimServer
from phoneshell.tasks import Task


class SpotlightKeys:
    """Swipes down on the home screen (Spotlight opens, its field focused), taps c, a, l, c on
    the keyboard, then the Calculator result, or the keyboard's go key with `go`."""

    name = "spotlight-keys"

    def __init__(self, go: bool = False) -> None:
        self.go = go

    def run(self, context: AgentContext) -> AgentResult:
        client = wda.Client(context.wda_url)
        open_spotlight(client)
        tap_keys(client, "calc")
        if self.go:
            client(type="XCUIElementTypeButton", name="Go").click()
        else:
            client(type="XCUIElementTypeCell", labelContains="Calculator").click()
        return DONE


@pytest.mark.slow  # 2.3 s measured: the README's command stays quick
def test_keys_into_spotlight_open_its_result(sim: SimServer, tmp_path: Path,
                                             suite: dict[str, Task]) -> None:
    task = suite["system.spotlight.find_app"]
    for go in (False, True):
        done = run_one(sim, tmp_path / str(go), task, SpotlightKeys(go=go))
        assert done.row.outcome == "passed", [c.detail for c in done.row.checks]
        assert done.evidence is not None
        (search,) = [e for e in editings(done.evidence.agent_actions()) if e.text]
        into = (search.field_action or search.opened_by).target
        assert search.text.rstrip("\n") == "calc"
        assert into is not None and into.type == "XCUIElementTypeSearchField"


def test_keys_into_a_new_notes_body_are_typed_into_it(sim: SimServer, tmp_path: Path,
                                                      suite: dict[str, Task]) -> None:
    done = run_one(sim, tmp_path, suite["notes.type_long"], NoteKeys("fox"))
    assert done.evidence is not None
    (typed,) = [e for e in editings(done.evidence.agent_actions()) if e.text]
    into = (typed.field_action or typed.opened_by).target
    assert typed.text == "fox"
    assert into is not None and into.type == "XCUIElementTypeTextView"
    assert not typed.single_line  # a note's Return is a new line, never a send


def _keyed(seq: int, char: str, field: Target) -> list[AuditEvent]:
    """A key tapped in SpringBoard, logged with the field it typed into."""
    intent, outcome = act(seq, "tap", SB, SB, target=Target(
        type="XCUIElementTypeKey", label=char, name=char, keyboard=True))
    return [intent.model_copy(update={"field": field}), outcome]


def test_a_spotlight_failure_says_what_the_log_shows() -> None:
    """Typed into Spotlight, cancelled, then a Calculator row tapped: the detail names the text
    typed, the field, and the tap that ended the search (it said "no Spotlight result")."""
    field = tgt("XCUIElementTypeSearchField", "Search", "Search")
    keys = [_keyed(i, c, field) for i, c in enumerate("calc", 1)]
    cancel = act(5, "tap", SB, SB, target=tgt("XCUIElementTypeButton", "Cancel"))
    row = act(6, "tap", SB, CALC, target=tgt("XCUIElementTypeCell", "Calculator"))
    assert grade("opened_via_spotlight", log(*keys, row), app=CALC)[0]
    passed, detail = grade("opened_via_spotlight", log(*keys, cancel, row), app=CALC)
    assert not passed
    assert "typed 'calc' into SearchField 'Search', and #5 agent tap 'Cancel' ok ended" in detail
    passed, detail = grade("opened_via_spotlight", log(row), app=CALC)
    assert not passed and "typed nothing into SpringBoard before it" in detail


def _keys_in(app: str, text: str, field: Target, first: int = 1) -> list[list[AuditEvent]]:
    """`text` tapped key by key in `app` (its Return "go" for a newline), each key logged with
    the field it typed into, none tapped first."""
    found = []
    for seq, char in enumerate(text, first):
        name = "go" if char == "\n" else "space" if char == " " else char
        intent, outcome = act(seq, "tap", app, app, target=Target(
            type="XCUIElementTypeButton" if char == "\n" else "XCUIElementTypeKey",
            label=name, name=name, keyboard=True))
        found.append([intent.model_copy(update={"field": field}), outcome])
    return found


def test_every_check_that_reads_typing_takes_keys_into_a_focused_field() -> None:
    """typed_into (with `into` and `submitted`), visited and opened_from_search agree with
    opened_via_spotlight: keys into a field nobody tapped are typed into that field."""
    address = tgt("XCUIElementTypeTextField", "Address", "URL")
    sent = log(*_keys_in(SAFARI, "example.com\n", address))
    assert grade("typed_into", sent, text="example.com", app=SAFARI, into="Address",
                 submitted=True)[0]
    assert grade("visited", sent, url="example.com")[0]
    search = tgt("XCUIElementTypeSearchField", "Search", "Search")
    keys = _keys_in(PREFS, "wi", search)
    row = act(3, "tap", PREFS, PREFS, target=tgt("XCUIElementTypeCell", "Wi-Fi"))
    passed, detail = grade("opened_from_search", log(*keys, row), text="wi", result="Wi-Fi",
                           app=PREFS, into="Search")
    assert passed, detail
