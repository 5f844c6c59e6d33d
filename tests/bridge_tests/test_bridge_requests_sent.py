"""The bridge counts every WDA request it sends the phone by route, its own reads too, as the
simulator counts those it receives: held against each other, the two show what reached the phone
around the bridge (`runner.around`), and nothing else."""

from __future__ import annotations

import urllib.request
from collections import Counter

import pytest
import wda
from bridge_rig import LOGIN, Rig

from bridge.upstream import Upstream, UpstreamDown
from phoneshell.sim import SimServer


def _received(sim: SimServer) -> Counter[str]:
    return Counter({k: v for k, v in sim.request_counts().items() if k != "total"})


def test_what_the_bridge_sent_is_what_the_phone_received(rig: Rig) -> None:
    received, sent = _received(rig.sim), rig.bridge.upstream.requests_sent()
    session = wda.Client(rig.bridge.url).session(LOGIN)  # a session, a launch
    session.tap(100, 170)
    session.send_keys("ok")
    session(label="Log In").exists  # noqa: B018 - a find: a POST that only reads
    session.home()
    wda.Client(rig.bridge.url).source()
    by_phone = _received(rig.sim) - received
    by_bridge = rig.bridge.upstream.requests_sent() - sent
    assert by_phone == by_bridge, (by_phone, by_bridge)
    # reads count as much as inputs, the bridge's own (custody) among them
    assert by_bridge["GET /source"] >= 1 and by_bridge["POST /elements"] >= 1, by_bridge
    assert rig.bridge.upstream.requests_sent(settled=True) == rig.bridge.upstream.requests_sent()


def test_the_health_check_is_logged_as_the_home_press_it_is(rig: Rig) -> None:
    """facebook-wda's `healthcheck()` is a GET that presses Home on a phone (WDA's
    handleGetHealthCheck): logged as a `home` action, as `/wda/homescreen` is, and what the
    bridge sent is still what the phone received (red team 84)."""
    client = wda.Client(rig.bridge.url)
    client.session(LOGIN)
    received, sent = _received(rig.sim), rig.bridge.upstream.requests_sent()
    assert client.healthcheck().value is None
    assert rig.sim.state()["foreground"] == "com.apple.springboard"
    home = [e for e in rig.events() if e.kind == "home" and e.stage == "intent"]
    assert [(e.params.get("via"), e.app_before) for e in home] == [("healthcheck", LOGIN)]
    by_phone = _received(rig.sim) - received
    assert by_phone == rig.bridge.upstream.requests_sent() - sent, by_phone
    assert by_phone["GET /wda/healthcheck"] == 1


def test_a_read_sent_around_the_bridge_is_the_difference(rig: Rig) -> None:
    received, sent = _received(rig.sim), rig.bridge.upstream.requests_sent()
    wda.Client(rig.bridge.url).home()
    urllib.request.urlopen(rig.sim.url + "/source", timeout=10).read()  # straight to the phone
    around = (_received(rig.sim) - received) - (rig.bridge.upstream.requests_sent() - sent)
    assert around == Counter({"GET /source": 1}), around


def test_a_request_with_no_answer_never_settles_and_control_reads_are_not_counted() -> None:
    with SimServer() as sim:
        upstream = Upstream(sim.url)
        upstream.send("GET", "/status", None, {})
        upstream.send("GET", "/phoneshell/sim/requests", None, {}, counted=False)
        with sim.lock, pytest.raises(UpstreamDown):  # the phone busy past the wait
            upstream.send("GET", "/source", None, {}, timeout_s=0.2)
        assert upstream.requests_sent() == Counter({"GET /status": 1, "GET /source": 1})
        # it may still reach the phone: a witness's window must not leave it out
        assert upstream.requests_sent(settled=True) == Counter({"GET /status": 1})
