"""No action makes a line long, and no agent makes the log long: each line holds at most a bounded
piece of what the phone or the client chose, and each agent's turn a bounded share of the log,
past which its grant ends and what it sends is refused and counted, never written."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import wda
from bridge_rig import Rig, request, runner_bridge

from phoneshell.audit import share_spent
from phoneshell.records import ELEMENT_MAX, LOG_SHARE, shortened
from phoneshell.sim import SimServer

NOTES = "com.apple.mobilenotes"
SHARE = 6000
"""The share of the log the `cut` bridge gives an agent's turn."""


@pytest.fixture
def cut(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    """A bridge as the runner starts one, whose agents may write `SHARE` bytes of the log;
    context R/t/1/agent."""
    with runner_bridge(sim, tmp_path, agent_log_bytes=SHARE) as rig:
        yield rig


def test_a_field_full_of_text_keeps_every_line_short(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(NOTES)
    session(label="New Note").click()
    chunk = "x" * 999 + " "
    for _ in range(6):  # the note's text, on each intent's target, grows by 1,000 each time
        session.send_keys(chunk)
    lines = (rig.runs / "unscoped" / "audit.jsonl").read_bytes().splitlines()
    assert max(map(len, lines)) < 5 * ELEMENT_MAX, "a line holds the field's whole text"
    typed = [e for e in rig.intents() if e.kind == "type"]
    assert [e.params["text"] for e in typed] == [chunk] * 6  # what a request types: whole
    last = typed[-1].target  # the note's text before the last request typed
    assert last is not None and last.value == shortened(chunk * 5, ELEMENT_MAX)
    assert last.value.endswith("… [5,000 characters, sha256 "
                               f"{last.value[-17:-1]}]") and len(last.value) == ELEMENT_MAX
    # the same text shortens alike, another differs: a field is still told from another
    assert shortened(chunk * 5, ELEMENT_MAX) != shortened(chunk * 4 + "y" * 1000, ELEMENT_MAX)


def press_until_refused(url: str) -> tuple[int, str]:
    """Press home until the bridge says no; how many presses it took, and what it said."""
    for presses in range(1, 100):
        status, _, data = request(url, "POST", "/wda/homescreen")
        if status != 200:
            assert status == 401
            return presses, json.loads(data)["value"]["message"]
    raise AssertionError("the bridge never ended the agent's turn")


def size(rig: Rig) -> int:
    return (rig.runs / "R" / "audit.jsonl").stat().st_size


@pytest.mark.slow  # 1.8 s measured: the README's command stays quick
def test_an_agent_past_its_share_is_cut_off_and_the_rest_is_counted_not_logged(
        cut: Rig) -> None:
    url = cut.bridge.grant_agent()
    presses, said = press_until_refused(url)
    assert "the agent's share of the audit log is used up" in said and presses > 3
    written = size(cut)
    for method, path in (("POST", "/wda/homescreen"), ("GET", "/status"),
                         ("GET", "/wda/shutdown"), ("POST", "/wda/lock")):
        status, _, data = request(url, method, path)
        assert status == 401 and "share of the audit log" in data.decode(), path
    assert size(cut) == written, "a line of the agent's was written after its share ran out"
    assert not cut.sim.state()["locked"]
    shown = cut.bridge.health()["agent_log"]
    assert shown == {"limit": SHARE, "bytes": shown["bytes"], "lines": shown["lines"],
                     "spent": True, "dropped": 4}
    cut.bridge.revoke_agent()
    events = cut.events("R")
    said_lines = [e for e in events if e.params.get("via") == LOG_SHARE]
    assert [e.params.get("dropped") for e in said_lines] == [None, 4]
    assert sum(len(e.to_json()) + 1 for e in events if e not in said_lines) <= SHARE + 600
    assert share_spent(events).endswith("(4 of its later lines refused, not logged)")
    cut.bridge.set_context("R", "t", 1, "check")  # the harness acts on, as the runner does
    assert request(cut.bridge.url, "POST", "/wda/homescreen")[0] == 200
    fresh = cut.bridge.grant_agent()  # the next attempt's agent has a share of its own
    cut.bridge.set_context("R", "t", 2, "agent")
    assert request(fresh, "POST", "/wda/homescreen")[0] == 200


def test_requests_the_bridge_refuses_use_up_the_share_too(cut: Rig) -> None:
    url = cut.bridge.grant_agent()
    answers = [request(url, "GET", "/wda/shutdown")[0] for _ in range(60)]
    assert answers[0] == 403 and answers[-1] == 401  # refused and logged; then cut off
    assert size(cut) <= SHARE + 1000
