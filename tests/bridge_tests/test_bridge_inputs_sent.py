"""The bridge counts the inputs it sends the phone by route, as the simulator's ledger names the
inputs it receives: held against each other, the two show what reached the phone around the
bridge (`runner.around`), and nothing else."""

from __future__ import annotations

import json
import urllib.request
from collections import Counter

import wda
from bridge_rig import LOGIN, Rig

from phoneshell.wda_routes import is_input


def test_what_the_bridge_sent_is_what_the_phone_received(rig: Rig) -> None:
    received, sent = rig.sim.ledger()[0], rig.bridge.upstream.inputs_sent()
    session = wda.Client(rig.bridge.url).session(LOGIN)  # a session, a launch
    session.tap(100, 170)
    session.send_keys("ok")
    session(label="Log In").exists  # noqa: B018 - a find: a POST that only reads
    session.home()
    wda.Client(rig.bridge.url).source()
    total, inputs = rig.sim.ledger(received)
    by_bridge = rig.bridge.upstream.inputs_sent() - sent
    assert Counter(str(e["route"]) for e in inputs) == by_bridge, (inputs, by_bridge)
    assert total - received == by_bridge.total() >= 4
    assert all(is_input(*route.split(" ", 1)) for route in by_bridge)


def test_an_input_sent_around_the_bridge_is_the_difference(rig: Rig) -> None:
    received, sent = rig.sim.ledger()[0], rig.bridge.upstream.inputs_sent()
    wda.Client(rig.bridge.url).home()
    urllib.request.urlopen(urllib.request.Request(  # straight to the phone
        rig.sim.url + "/wda/lock", data=b"{}", method="POST"), timeout=10).read()
    _, inputs = rig.sim.ledger(received)
    around = Counter(str(e["route"]) for e in inputs) - (rig.bridge.upstream.inputs_sent() - sent)
    assert around == Counter({"POST /wda/lock": 1}), json.dumps(inputs)

