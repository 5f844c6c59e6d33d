"""When the phone does not answer, the agent learns which request failed and why, never where
the phone is.

A harness-started simulator serves only under a secret path, and its fault and reset routes
too; the bridge's upstream URL holds that secret. The bridge used to answer a forward that got
no answer with "no answer from WDA at http://127.0.0.1:PORT/SECRET to ...", to whoever sent it:
an agent that made the simulator fail to answer (a flood of its port, say) got the secret. Here
the simulator stops answering (its `gone` switch), and every answer the agent gets, read or
action, names its request and the failure only. The harness's answer and the audit log tell
the rest, naming the simulator by host and port: its secret is in no message anyone reads
(`errors.shown_url`).
"""

from __future__ import annotations

import http.client
import json
import socketserver
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import wda
from bridge_rig import Rig, request, runner_bridge

from bridge.actions import classify
from bridge.audit_log import AuditWriter
from bridge.context import UNSCOPED
from bridge.proxy import BridgeServer
from bridge.upstream import ForwardError, Reply, why_no_answer
from phoneshell.audit import actions
from phoneshell.errors import nothing_listens
from phoneshell.sim import SimServer


@pytest.fixture
def secret_rig(tmp_path: Path) -> Iterator[Rig]:
    """A simulator under a secret, as the harness starts one, behind a runner's bridge."""
    with SimServer(secret=SimServer.new_secret()) as sim, runner_bridge(sim, tmp_path) as rig:
        yield rig


def tells_nothing_of_the_phone(rig: Rig, answer: bytes) -> None:
    """Fails the test when an answer names the simulator's URL, port or secret."""
    assert rig.sim.secret is not None
    for told in (rig.sim.secret, rig.sim.url, f":{rig.sim.port}"):
        assert told.encode() not in answer, answer


@pytest.mark.parametrize(("method", "route", "body"), [
    ("GET", "/source", None),  # a read
    ("GET", "/status", None),  # the read answered as a phone would
    ("POST", "/wda/homescreen", b"{}"),  # an action: logged, then forwarded
])
def test_an_agent_told_the_phone_did_not_answer_is_not_told_where_it_is(
        secret_rig: Rig, method: str, route: str, body: bytes | None) -> None:
    agent = secret_rig.bridge.grant_agent(confined=True)
    secret_rig.sim.set_faults(["gone"])  # nothing listens on its port any more
    status, headers, answer = request(agent, method, route, body)
    assert status == 502
    tells_nothing_of_the_phone(secret_rig, answer + json.dumps(headers).encode())
    message = json.loads(answer)["value"]["message"]
    assert message == (f"phoneshell bridge: no answer from the phone's WDA to {method} {route}: "
                       "the connection was refused")
    # the harness gets the whole story: where the phone is, never its secret
    status, _, answer = request(secret_rig.bridge.url, method, route, body)
    assert status == 502 and f"127.0.0.1:{secret_rig.sim.port} to".encode() in answer
    assert secret_rig.sim.secret is not None and secret_rig.sim.secret.encode() not in answer


def test_facebook_wda_raises_bad_gateway_without_the_secret(secret_rig: Rig) -> None:
    client = wda.Client(secret_rig.bridge.grant_agent(confined=True))
    client.source()  # the screen it acts on: the home button needs no read of the bridge's
    secret_rig.sim.set_faults(["gone"])
    with pytest.raises(wda.WDABadGateway) as raised:
        client.home()
    tells_nothing_of_the_phone(secret_rig, str(raised.value).encode())
    # the audit log is the harness's: the action's outcome keeps the detail, but the secret
    (home,) = [a for a in actions(secret_rig.events("R")) if a.kind == "home"]
    assert home.ok is False and f"127.0.0.1:{secret_rig.sim.port} to" in home.error
    assert secret_rig.sim.secret is not None and secret_rig.sim.secret not in home.error


def test_a_forward_that_fails_any_other_way_is_shown_without_the_url(secret_rig: Rig) -> None:
    action = classify("POST", "/wda/homescreen", None)
    assert action is not None

    def broken() -> Reply:  # a forward that fails in a way no transport error describes
        raise RuntimeError(f"a pool for {secret_rig.sim.url} is gone")

    with pytest.raises(ForwardError) as raised:
        secret_rig.bridge.recorder.perform(UNSCOPED, action, broken, "POST /wda/homescreen")
    # the audit log's, the harness's: where, never the secret, even in the error's own words
    assert f"127.0.0.1:{secret_rig.sim.port} failed" in raised.value.message
    assert secret_rig.sim.secret is not None
    assert secret_rig.sim.secret not in raised.value.message
    assert raised.value.shown == "forwarding POST /wda/homescreen failed (RuntimeError)"


def test_an_agent_refused_for_an_unwritable_log_is_not_told_where_it_is(tmp_path: Path) -> None:
    (tmp_path / "runs" / "R" / "audit.jsonl").mkdir(parents=True)  # not a file: unwritable
    with SimServer() as sim, runner_bridge(sim, tmp_path) as rig:
        status, _, answer = request(rig.bridge.grant_agent(), "POST", "/wda/homescreen", b"{}")
        assert status == 500 and str(tmp_path).encode() not in answer
        assert json.loads(answer)["value"]["message"] == (
            "phoneshell bridge: refused POST /wda/homescreen: the audit log could not be "
            "written; the action was NOT sent to the phone")
        status, _, answer = request(rig.bridge.url, "POST", "/wda/homescreen", b"{}")
        assert status == 500 and b"runs/R/audit.jsonl" in answer  # the harness's: the file


class _NotHttp(socketserver.BaseRequestHandler):
    """A listener that answers every request with a line that is not HTTP."""

    def handle(self) -> None:
        self.request.recv(65536)
        self.request.sendall(b"SSH-2.0-OpenSSH_9.6\r\n\r\n")


def test_only_a_phone_nothing_listens_for_is_said_to_be_gone(secret_rig: Rig,
                                                              tmp_path: Path) -> None:
    """A bridge's 502 carries `nothing_listens` when the connection was refused (a client
    gives up on such a phone at once), and not when something answered that is not WDA (it
    may be WDA broken or busy: a client waits for it)."""
    agent = secret_rig.bridge.grant_agent(confined=True)
    secret_rig.sim.set_faults(["gone"])
    for base in (agent, secret_rig.bridge.url):
        status, _, answer = request(base, "GET", "/status")
        assert status == 502 and json.loads(answer)["value"] == {
            "error": "unknown error", "message": json.loads(answer)["value"]["message"],
            "traceback": "", "nothing_listens": True}
    listener = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _NotHttp)
    threading.Thread(target=listener.serve_forever, daemon=True).start()
    writer = AuditWriter(tmp_path / "other")
    bridge = BridgeServer(f"http://127.0.0.1:{listener.server_address[1]}",
                          runs_dir=tmp_path / "other", writer=writer)
    try:
        status, _, answer = request(bridge.start().url, "GET", "/status")
        value = json.loads(answer)["value"]
        assert status == 502 and "its answer was not HTTP" in value["message"]
        assert "nothing_listens" not in value
    finally:
        bridge.stop()
        writer.close()
        listener.shutdown()
        listener.server_close()


@pytest.mark.parametrize(("exc", "why", "gone"), [
    (ConnectionRefusedError(), "the connection was refused", True),
    (ConnectionResetError(), "the connection closed before an answer came", True),
    (BrokenPipeError(), "the connection closed before an answer came", True),
    (http.client.RemoteDisconnected(), "the connection closed before an answer came", True),
    (TimeoutError(), "it timed out", False),
    (http.client.BadStatusLine("SSH-2.0"), "its answer was not HTTP", False),
    (OSError(), "the connection failed (OSError)", False),
])
def test_what_a_client_is_told_agrees_with_nothing_listens(exc: Exception, why: str,
                                                           gone: bool) -> None:
    """The words a client gets and the `nothing_listens` it gets sort failures alike (one
    `errors.CLOSED_UNANSWERED`): a failure told as refused or closed is one nothing listens for."""
    assert (why_no_answer(exc), nothing_listens(exc)) == (why, gone)
