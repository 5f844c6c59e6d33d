"""One way to the phone: a secret per attempt, revoked when it ends; the phone's own control routes
and the bridge's health out of the agent's reach."""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import wda
from bridge_rig import CONTROL_HEADER, Rig, request, start_bridge

from bridge.gate import MAX_BODY_BYTES
from bridge.proxy import AGENT_READS_AT_ONCE, BridgeServer
from phoneshell.audit import actions, read_audit, refusals
from phoneshell.errors import BridgeError
from phoneshell.sim import SimServer

CALCULATOR = "com.apple.calculator"


def test_the_agent_gets_its_own_secret_which_ends_with_its_attempt(guarded: Rig) -> None:
    agent_url = guarded.bridge.grant_agent()
    assert "harness-token" not in agent_url and agent_url.startswith(guarded.bridge.base_url)
    wda.Client(agent_url).session(CALCULATOR)
    assert guarded.sim.state()["foreground"] == CALCULATOR
    guarded.bridge.revoke_agent()
    status, _, data = request(agent_url, "POST", "/wda/homescreen")
    assert status == 401 and "access ended" in json.loads(data)["value"]["message"]
    assert request(agent_url, "GET", "/status")[0] == 401  # reads too
    assert guarded.sim.state()["foreground"] == CALCULATOR  # the late request never arrived
    late = refusals(guarded.events("R"))
    assert [e.params["route"] for e in late] == ["/wda/homescreen", "/status"]
    next_url = guarded.bridge.grant_agent()
    assert next_url != agent_url and request(agent_url, "GET", "/status")[0] == 401
    assert request(next_url, "GET", "/status")[0] == 200
    assert request(guarded.bridge.url, "GET", "/status")[0] == 200  # the harness's token holds


def test_nothing_the_agent_sent_reaches_the_phone_after_its_grant_ends(guarded: Rig) -> None:
    """An agent may queue actions behind a slow one, then finish: what waits its turn when the
    grant ends is refused, and the revoke returns once the one in flight has landed."""
    agent_url = guarded.bridge.grant_agent()
    request(agent_url, "POST", "/wda/homescreen")
    guarded.sim.set_faults(["slow=0.4"])  # each of an action's reads and its press: 1.2 s
    replies: list[int] = []
    senders = [threading.Thread(target=lambda: replies.append(
        request(agent_url, "POST", "/wda/homescreen")[0])) for _ in range(4)]
    for sender in senders:
        sender.start()
    time.sleep(0.3)  # the first is on its way, the others wait behind it
    guarded.bridge.revoke_agent()
    landed = guarded.sim.ledger()[0]
    guarded.bridge.set_context("R", "t", 1, "check")
    for sender in senders:
        sender.join()
    assert guarded.sim.ledger()[0] == landed, "an agent's action reached the phone after"
    assert sorted(replies) == [200, 401, 401, 401]
    events = guarded.events("R")
    late = [e for e in events if e.stage == "refused"]
    assert [(e.phase, e.error) for e in late] == [
        ("agent", "the agent's access ended with its attempt")] * 3
    assert [e.phase for e in actions(events)] == ["agent", "agent"]


def test_reads_an_agent_floods_the_phone_with_do_not_outlast_its_turn(tmp_path: Path) -> None:
    """Forty sources sent at once would keep a real phone busy 7 s past the agent's turn (it
    answers one at a time); the bridge sends two at a time and refuses the rest once the grant
    ends, so the harness's first read after waits behind at most two."""
    with SimServer(latency="iphone") as slow_phone:
        bridge, writer = start_bridge(slow_phone, tmp_path / "runs", token="harness-token",
                                      control_token="control")
        try:
            bridge.set_context("R", "t", 1, "agent")
            agent_url = bridge.grant_agent()
            replies: list[int] = []
            senders = [threading.Thread(target=lambda: replies.append(
                request(agent_url, "GET", "/source")[0])) for _ in range(40)]
            for sender in senders:
                sender.start()
            deadline = time.monotonic() + 10
            while not replies and time.monotonic() < deadline:  # a loaded CI machine starts the
                time.sleep(0.05)  # senders late: the first answered, the rest waiting
            bridge.revoke_agent()
            slow_phone.latency.tally.phase = "after the agent's turn"
            assert request(bridge.url, "GET", "/wda/activeAppInfo")[0] == 200
            for sender in senders:
                sender.join()
            after = slow_phone.latency.tally.take()["after the agent's turn"]
            # at most those in flight when the grant ended (none, when the two then were done)
            assert (after["GET /source"].count if "GET /source" in after else 0) \
                <= AGENT_READS_AT_ONCE
            assert set(replies) == {200, 401} and len(replies) == 40
            late = refusals(read_audit(tmp_path / "runs" / "R" / "audit.jsonl").records)
            assert len(late) == replies.count(401) and {e.phase for e in late} == {"agent"}
        finally:
            bridge.stop()
            writer.close()


def test_clients_gone_before_their_answers_leave_no_traceback(
        guarded: Rig, capsys: pytest.CaptureFixture[str]) -> None:
    """An agent stopped at the end of its turn leaves requests waiting; their answers meet a
    closed socket, which is nobody's error (a flood of 150 printed 150 tracebacks)."""
    agent_url = guarded.bridge.grant_agent()
    where = urlsplit(agent_url)
    guarded.sim.set_faults(["slow=0.3"])
    for _ in range(3):
        conn = socket.create_connection((where.hostname, where.port), timeout=10)
        conn.sendall(f"GET {where.path}/status HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()  # reset: the answer cannot be written
    time.sleep(1.0)  # the three answers are written, or fail to be
    assert request(agent_url, "GET", "/status")[0] == 200  # the bridge serves on
    assert "Traceback" not in capsys.readouterr().err


def test_a_body_that_comes_after_the_grant_ended_is_refused(guarded: Rig) -> None:
    agent_url = guarded.bridge.grant_agent()
    where = urlsplit(agent_url)
    body = b"{}"
    with socket.create_connection((where.hostname, where.port), timeout=10) as conn:
        conn.sendall(f"POST {where.path}/wda/homescreen HTTP/1.1\r\nHost: x\r\n".encode()
                     + f"Content-Length: {len(body)}\r\n\r\n".encode())
        time.sleep(0.2)  # admitted by its headers while the grant stood
        guarded.bridge.revoke_agent()
        before = guarded.sim.ledger()[0]
        conn.sendall(body)
        assert conn.recv(4096).split(b" ")[1] == b"401"
    assert guarded.sim.ledger()[0] == before
    assert [e.error for e in refusals(guarded.events("R"))] == [
        "the agent's access ended with its attempt"]


def test_a_stranger_is_refused_and_leaves_no_line(guarded: Rig) -> None:
    guarded.bridge.grant_agent()
    base = guarded.bridge.base_url
    for path in ("/status", "/t/guess/status", "/t/harness-token-x/status"):
        assert request(base, "GET", path)[0] == 401
    assert request(base, "POST", "/wda/homescreen")[0] == 401
    assert not (guarded.runs / "R" / "audit.jsonl").exists()  # nobody known: nothing logged


def test_a_strangers_body_is_never_read(guarded: Rig) -> None:
    where = urlsplit(guarded.bridge.base_url)
    with socket.create_connection((where.hostname, where.port), timeout=10) as conn:
        conn.sendall(b"POST /wda/homescreen HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Length: 1000000000000\r\n\r\n")  # and never sends it
        assert conn.recv(4096).split(b" ")[1] == b"401"
    agent_url = guarded.bridge.grant_agent()
    where = urlsplit(agent_url)
    with socket.create_connection((where.hostname, where.port), timeout=10) as conn:
        conn.sendall(f"POST {where.path}/wda/homescreen HTTP/1.1\r\nHost: x\r\n".encode()
                     + b"Content-Length: 1000000000000\r\n\r\n")
        reply = b""
        while chunk := conn.recv(4096):  # the bridge closes the connection after it
            reply += chunk
        assert reply.split(b" ")[1] == b"400" and f"over {MAX_BODY_BYTES:,}".encode() in reply


def test_a_bridge_without_a_token_grants_nothing(sim: SimServer, tmp_path: Path) -> None:
    with pytest.raises(BridgeError, match="needs a token"), \
            BridgeServer(sim.url, runs_dir=tmp_path) as bridge:
        bridge.grant_agent()


@pytest.mark.parametrize(("method", "path", "body"), [
    ("POST", "/phoneshell/sim/faults", {"on": ["locked"]}),
    ("POST", "/phoneshell/sim/save", {"path": "/tmp/anywhere.json"}),
    ("POST", "/phoneshell/sim/reset", {}),
    ("GET", "/phoneshell/sim/state", None),
])
def test_the_phones_control_routes_are_never_forwarded(guarded: Rig, method: str, path: str,
                                                       body: object) -> None:
    agent_url = guarded.bridge.grant_agent()
    wda.Client(agent_url).session(CALCULATOR)
    for base in (agent_url, guarded.bridge.url):  # whoever asks
        data = None if body is None else json.dumps(body).encode()
        status, _, reply = request(base, method, path, data)
        assert status == 403 and "not forwarded" in json.loads(reply)["value"]["message"]
    state = guarded.sim.state()
    assert not state["locked"] and state["faults"] == [] and state["foreground"] == CALCULATOR
    assert not Path("/tmp/anywhere.json").exists()
    assert [e.params["route"] for e in refusals(guarded.events("R"))] == [path, path]
    assert [a.kind for a in actions(guarded.events("R"))] == ["launch"]


def test_health_needs_the_control_token_and_never_names_the_phone(guarded: Rig) -> None:
    agent_url = guarded.bridge.grant_agent()
    for base in (agent_url, guarded.bridge.url):
        status, _, data = request(base, "GET", "/phoneshell/bridge/health")
        assert status == 401 and guarded.sim.url not in data.decode()
    status, _, data = request(guarded.bridge.url, "GET", "/phoneshell/bridge/health",
                              headers={CONTROL_HEADER: "control"})
    health = json.loads(data)["value"]
    assert status == 200 and health["agent_granted"] is True
    assert guarded.sim.url not in data.decode() and "upstream" not in health


def test_an_agent_cannot_ask_the_status_whether_the_phone_is_simulated(guarded: Rig) -> None:
    agent_url = guarded.bridge.grant_agent()
    told = wda.Client(agent_url).status()
    assert told["ready"] is True and told["build"]["version"]  # WDA's own report, whole
    assert "simulated" not in told and "instance" not in told
    _, _, data = request(agent_url, "GET", "/status")
    assert b"simulated" not in data and b"phoneshell" not in data
    assert data.startswith(b'{\n  "value"'), "laid out as every other reply is"
    harness = json.loads(request(guarded.bridge.url, "GET", "/status")[2])["value"]
    assert harness["simulated"] == "phoneshell"  # the harness's own reads are as the phone's
