"""Forwarding: what comes back through the bridge is what WDA said; reads leave no trace."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import wda
from bridge_rig import Rig, request, start_bridge
from wda.exceptions import WDABadGateway

from bridge.actions import classify
from bridge.context import UNSCOPED
from bridge.upstream import ForwardError, Reply, as_a_phone_answers
from phoneshell.audit import actions, read_audit
from phoneshell.sim import SimServer


@pytest.mark.parametrize(("method", "path", "body"), [
    ("GET", "/status", None),
    ("GET", "/source?format=json", None),
    ("GET", "/source", None),
    ("GET", "/wda/activeAppInfo", None),
    ("GET", "/health", None),  # HTML, not JSON: passed through as it is
    ("GET", "/session/not-a-session/window/size", None),  # WDA error: 404 invalid session id
    ("POST", "/session/not-a-session/elements", b'{"using": "id", "value": "x"}'),
])
def test_reads_come_back_unchanged_and_unlogged(rig: Rig, method: str, path: str,
                                                body: bytes | None) -> None:
    direct = request(rig.sim.url, method, path, body)
    bridged = request(rig.bridge.url, method, path, body)
    if path == "/status":  # but for the simulator's own keys, the harness's alone
        direct = (direct[0], direct[1], as_a_phone_answers(Reply(200, "OK", (), direct[2])).body)
        direct[1]["content-length"] = str(len(direct[2]))
    assert bridged[0] == direct[0]
    assert bridged[2] == direct[2]
    for header in ("content-type", "content-length"):
        assert bridged[1][header] == direct[1][header]
    assert not (rig.runs / "unscoped" / "audit.jsonl").exists()


def test_a_route_wda_does_not_serve_is_refused_as_wda_would_refuse_it(rig: Rig) -> None:
    direct = request(rig.sim.url, "GET", "/wda/no/such/route")
    bridged = request(rig.bridge.url, "GET", "/wda/no/such/route")
    assert bridged[0] == direct[0] == 404
    error = json.loads(bridged[2])["value"]
    assert error["error"] == json.loads(direct[2])["value"]["error"] == "unknown command"
    assert "not a WebDriverAgent route" in error["message"]
    (refused,) = rig.events()
    assert (refused.stage, refused.params["route"]) == ("refused", "/wda/no/such/route")


def test_a_wda_error_on_an_action_passes_through_and_is_logged_not_ok(rig: Rig) -> None:
    body = b'{"x": 10, "y": 20}'
    status, _, data = request(rig.bridge.url, "POST", "/session/stale-id/wda/tap", body)
    assert status == 404 and json.loads(data)["value"]["error"] == "invalid session id"
    (action,) = actions(rig.events())
    assert action.kind == "tap" and action.ok is False
    assert action.error == "invalid session id: Session does not exist"


def test_facebook_wda_works_unchanged_through_the_bridge(rig: Rig) -> None:
    client = wda.Client(rig.bridge.url)
    assert client.status()["ready"] is True
    session = client.session("com.apple.Preferences")
    assert client.app_current()["bundleId"] == "com.apple.Preferences"
    assert session(name="com.apple.settings.wifi").exists
    assert client.window_size() == (402, 874)
    assert client.screenshot(format="raw")[:4] == b"\x89PNG"
    with pytest.raises(wda.WDAStaleElementReferenceError):
        wda.Element(session, "no-such-element").tap()  # WDA's 404 reaches the client as it is


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_concurrent_clients_get_their_own_answers_and_unique_seq(rig: Rig) -> None:
    sid = wda.Client(rig.bridge.url).session("com.apple.Preferences").session_id
    errors: list[str] = []

    def client(n: int) -> None:
        for i in range(15):
            status, _, data = request(rig.bridge.url, "POST", f"/session/{sid}/wda/tap",
                                      json.dumps({"x": 300 + n, "y": 5 + i}).encode())
            if status != 200:
                errors.append(f"tap {n}/{i}: {status} {data[:80]!r}")
            status, _, data = request(rig.bridge.url, "GET", "/wda/activeAppInfo")
            if json.loads(data)["value"]["bundleId"] != "com.apple.Preferences":
                errors.append(f"read {n}/{i}: {data[:80]!r}")

    threads = [threading.Thread(target=client, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    events = rig.events()  # every line parses: none interleaved
    taps = [e for e in events if e.kind == "tap"]
    intents = [e.seq for e in taps if e.stage == "intent"]
    assert len(intents) == len(set(intents)) == 90
    assert intents == sorted(intents)
    seen = {(e.params["x"], e.params["y"]) for e in taps if e.stage == "intent"}
    assert seen == {(300 + n, 5 + i) for n in range(6) for i in range(15)}
    assert all(a.ok for a in actions(events) if a.kind == "tap")


def test_wda_gone_answers_502_naming_the_upstream_and_logs_the_failure(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session("com.apple.Preferences")
    rig.sim.fault_on("gone")  # connections to the phone are refused from now on
    with pytest.raises(WDABadGateway) as raised:
        session.tap(100, 100)
    message = str(raised.value)
    assert rig.sim.url in message and "/wda/tap" in message
    status, _, data = request(rig.bridge.url, "GET", "/status")  # reads fail the same way
    assert status == 502 and "no answer from WDA" in json.loads(data)["value"]["message"]
    failed = [a for a in actions(rig.events()) if a.kind == "tap"]
    assert failed and all(a.ok is False and "no answer from WDA" in a.error for a in failed)
    assert all(a.app_after == "" for a in failed)


def test_an_unwritable_log_refuses_actions_and_keeps_serving_reads(sim: SimServer,
                                                                   tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    (runs / "unscoped" / "audit.jsonl").mkdir(parents=True)  # not a file: cannot be written
    bridge, writer = start_bridge(sim, runs)
    try:
        client = wda.Client(bridge.url)
        assert client.status()["ready"] is True
        before = sim.state()["foreground"]
        with pytest.raises(wda.WDAError) as raised:
            client.app_launch("com.apple.calculator")
        assert "unscoped/audit.jsonl" in str(raised.value)
        assert "NOT sent" in str(raised.value)
        assert sim.state()["foreground"] == before  # the launch never reached the phone
        assert client.app_current()["bundleId"] == before
    finally:
        bridge.stop()
        writer.close()


def test_a_log_swapped_for_a_symlink_refuses_actions(sim: SimServer, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    (runs / "R").mkdir(parents=True)
    (runs / "R" / "audit.jsonl").symlink_to(tmp_path / "elsewhere")
    bridge, writer = start_bridge(sim, runs)
    try:
        bridge.set_context("R", "t", 1, "agent")
        status, _, data = request(bridge.url, "POST", "/wda/homescreen")
        assert status == 500 and "symbolic links" in json.loads(data)["value"]["message"]
        assert not (tmp_path / "elsewhere").exists()
        assert request(bridge.url, "GET", "/status")[0] == 200
        assert read_audit(runs / "unscoped" / "audit.jsonl").records == ()
    finally:
        bridge.stop()
        writer.close()


def test_a_chunked_request_body_is_forwarded_whole(rig: Rig) -> None:
    sid = wda.Client(rig.bridge.url).session("com.apple.Preferences").session_id
    conn = http.client.HTTPConnection(urlsplit(rig.bridge.url).netloc, timeout=10)
    try:
        body = iter([b'{"x": 300, ', b'"y": 6}'])
        conn.request("POST", f"/session/{sid}/wda/tap", body=body, encode_chunked=True,
                     headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        assert response.status == 200 and b'"value"' in response.read()
    finally:
        conn.close()
    tap = actions(rig.events())[-1]
    assert (tap.kind, tap.params["x"], tap.params["y"], tap.ok) == ("tap", 300, 6, True)


def raw_request(base: str, request_line: bytes, body: bytes = b"") -> tuple[int, bytes]:
    """Send bytes HTTP clients refuse to send (a path that is not ASCII); status and body."""
    parts = urlsplit(base)
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as conn:
        conn.sendall(request_line + b"\r\nHost: x\r\nContent-Type: application/json\r\n"
                     + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        reply = b""
        while chunk := conn.recv(65536):
            reply += chunk
    head, _, data = reply.partition(b"\r\n\r\n")
    assert head, "the bridge closed the connection without answering"
    return int(head.split()[1]), data


def test_a_path_that_is_not_ascii_is_refused_and_logged(rig: Rig) -> None:
    sid = wda.Client(rig.bridge.url).session("com.apple.Preferences").session_id
    line = f"POST /session/{sid}/wda/café HTTP/1.1".encode()  # UTF-8, not percent-encoded
    status, data = raw_request(rig.bridge.url, line, b"{}")
    error = json.loads(data)["value"]
    assert status == 400 and error["error"] == "invalid argument"
    assert "holds a character outside" in error["message"]
    refused = rig.events()[-1]
    assert (refused.stage, refused.params["route"]) == ("refused", f"/session/{sid}/wda/cafÃ©")
    status, data = raw_request(rig.bridge.url, "GET /café HTTP/1.1".encode())
    assert status == 400  # reads too
    assert len(actions(rig.events())) == 1  # the session only: nothing else was forwarded
    assert request(rig.bridge.url, "GET", "/status")[0] == 200  # and the bridge serves on


def test_any_error_while_forwarding_is_logged_as_the_outcome(rig: Rig) -> None:
    action = classify("POST", "/wda/homescreen", None)
    assert action is not None

    def broken() -> Reply:  # a forward that fails in a way no transport error describes
        raise RuntimeError("the connection pool is gone")

    with pytest.raises(ForwardError) as raised:
        rig.bridge.recorder.perform(UNSCOPED, action, broken, "POST /wda/homescreen")
    assert rig.sim.url in raised.value.message
    assert "POST /wda/homescreen" in raised.value.message
    (home,) = actions(rig.events())
    assert (home.kind, home.ok, home.app_after) == ("home", False, "")
    assert "RuntimeError: the connection pool is gone" in home.error
