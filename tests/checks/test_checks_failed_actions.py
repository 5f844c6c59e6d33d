"""One reading of a failed action for every reader of the log (`Action.acted`, red team 59).

A route can act and then fail: WDA's keyboard dismiss presses the key it is named and answers an
error when the keyboard stays up; a request WDA ran but never answered (the link broke, the
bridge stopped waiting) is logged `ok` false with no answer. A check that passes on an action
counts only what the phone surely did (`acted` True), and a ban or anything that fails a check
counts whatever may have acted (`acted` not False). Through the real bridge in front of the
simulator, over facebook-wda and raw requests; `Relay` stands for a USB link that drops WDA's
answer to some requests after the phone ran them.
"""

from __future__ import annotations

import http.client
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest
import wda
from bridge_tests.bridge_rig import Rig, post, runner_bridge, start_bridge

from phoneshell.audit import actions
from phoneshell.checks import Check, grade_check
from phoneshell.evidence import Evidence
from phoneshell.sim import SimServer

NOTES, SETTINGS, SAFARI = "com.apple.mobilenotes", "com.apple.Preferences", \
    "com.apple.mobilesafari"
SPRINGBOARD = "com.apple.springboard"


class Relay:
    """A link between the bridge and the phone that forwards every request and, for a request
    whose path ends with `drop` (when set), lets the phone run it and then closes the connection
    unanswered: the bridge logs it as WDA never answering."""

    def __init__(self, upstream: str) -> None:
        self.upstream = urlsplit(upstream).netloc
        self.drop = ""
        relay = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                self._forward()

            def do_POST(self) -> None:  # noqa: N802
                self._forward()

            def do_DELETE(self) -> None:  # noqa: N802
                self._forward()

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                conn = http.client.HTTPConnection(relay.upstream, timeout=30)
                try:
                    conn.request(self.command, self.path, body=body,
                                 headers={"Content-Type": "application/json"})
                    answer = conn.getresponse()
                    data = answer.read()
                finally:
                    conn.close()
                if relay.drop and self.path.split("?")[0].endswith(relay.drop):
                    self.close_connection = True  # the phone ran it; its answer never comes
                    return
                self.send_response(answer.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def rig(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    with runner_bridge(sim, tmp_path) as found:
        yield found


@pytest.fixture
def relayed(sim: SimServer, tmp_path: Path) -> Iterator[tuple[Rig, Relay]]:
    """A bridge as the runner starts one (`runner_bridge`), in front of the relay in front of
    the simulator."""
    relay = Relay(sim.url)
    runs = tmp_path / "runs"
    bridge, writer = start_bridge(SimpleNamespace(url=relay.url), runs,  # type: ignore[arg-type]
                                  token="harness-token", control_token="control")
    bridge.set_context("R", "t", 1, "agent")
    try:
        yield Rig(sim, bridge, runs), relay
    finally:
        bridge.stop()
        writer.close()
        relay.stop()


def _evidence(rig: Rig) -> Evidence:
    return Evidence("t", 1.0, events=tuple(rig.events("R")), audited=True)


def _grade(rig: Rig, kind: str, **values: object) -> tuple[bool, str]:
    negate = bool(values.pop("negate", False))
    result = grade_check(Check.make(kind, negate=negate, **values),  # type: ignore[arg-type]
                         _evidence(rig))
    return result.passed, result.detail


def _note(rig: Rig) -> wda.Session:
    session = wda.Client(rig.bridge.url).session(NOTES)
    session(name="New Note").get(timeout=5).click()
    return session


def _dismiss(rig: Rig, session: wda.Session, *names: str) -> int:
    status, _ = post(rig, f"/session/{session.session_id}/wda/keyboard/dismiss",
                     {"keyNames": list(names)})
    return status


def test_a_key_a_failed_dismiss_pressed_is_tapped(rig: Rig) -> None:
    """A ban on a key is broken by a dismiss that pressed it and failed (red team 59: the log
    read it as nothing), and a check asking for the tap passes on it."""
    session = _note(rig)
    assert _dismiss(rig, session, "s") == 400  # the keyboard stayed up: WDA failed it
    assert session(className="TextView").get(timeout=2).value == "s"  # the phone took it
    last = actions(rig.events("R"))[-1]
    assert last.ok is False and last.acted is True
    banned, detail = _grade(rig, "tapped", text="s", whole=True, negate=True)
    assert not banned and "unexpectedly present" in detail, detail
    assert _grade(rig, "tapped", text="s", whole=True, app=NOTES)[0]


def test_a_dismiss_that_pressed_nothing_tapped_nothing(rig: Rig) -> None:
    session = _note(rig)
    assert _dismiss(rig, session, "nothing") == 400
    assert actions(rig.events("R"))[-1].acted is False
    passed, detail = _grade(rig, "tapped", text="keyboard", negate=True)
    assert passed, detail


def test_keys_failed_dismisses_pressed_are_the_computation(rig: Rig) -> None:
    """`tapped_keys` replays the keys the phone took, those of failed dismisses too."""
    client = wda.Client(rig.bridge.url)
    client.session()
    client.home()
    client.swipe(201, 300, 201, 620)  # Spotlight, its field focused, the keyboard up
    session = client.session()
    for key in "hi":
        assert _dismiss(rig, session, key) == 400
    passed, detail = _grade(rig, "tapped_keys", keys=("h", "i"), app=SPRINGBOARD)
    assert passed, detail


def test_a_tap_the_phone_ran_unanswered_breaks_a_ban(relayed: tuple[Rig, Relay]) -> None:
    """A tap WDA ran but never answered (the link dropped its answer) may have pressed: a ban
    on it cannot pass, and a check asking for it cannot pass either (the log cannot say)."""
    rig, relay = relayed
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    general = session(label="General").get(timeout=5)
    relay.drop = "/click"
    status, _ = post(rig, f"/session/{session.session_id}/element/{general.id}/click", {})
    relay.drop = ""
    assert status == 502  # the bridge: no answer from WDA
    assert session(label="About").wait(timeout=5)  # the phone went into General
    last = actions(rig.events("R"))[-1]
    assert last.ok is False and last.acted is None and "no answer" in last.error
    banned, detail = _grade(rig, "tapped", text="General", negate=True)
    assert not banned and "never answered" in detail, detail
    passed, detail = _grade(rig, "tapped", text="General")
    assert not passed and "never answered" in detail, detail


def test_a_url_opened_unanswered_after_the_text_fails_whole(relayed: tuple[Rig, Relay]) -> None:
    """`typed_into whole`: a URL opened into the app after the text runs another search, even
    one WDA never answered."""
    rig, relay = relayed
    session = wda.Client(rig.bridge.url).session(SAFARI)
    session(name="TabBarItemTitle").get(timeout=5).click()
    session.send_keys("apple.com\n")
    check = {"text": "apple.com", "whole": True, "submitted": True, "app": SAFARI}
    assert _grade(rig, "typed_into", **check)[0]
    relay.drop = "/url"
    post(rig, f"/session/{session.session_id}/url", {"url": "https://example.org/?q=other"})
    relay.drop = ""
    passed, detail = _grade(rig, "typed_into", **check)
    assert not passed and "URL opened" in detail, detail
