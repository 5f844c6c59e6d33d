"""The simulator as a witness: a secret path only the harness knows, its instance id, the requests
it served and the ledger of every input it received."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import wda

from phoneshell.errors import PhoneshellError
from phoneshell.sim import SimServer


def test_with_a_secret_nothing_answers_outside_it(raw_at: Callable[..., Any]) -> None:
    with SimServer(secret=SimServer.new_secret()) as sim:
        assert sim.secret is not None and sim.url.endswith("/" + sim.secret)
        base = sim.url.rsplit("/", 1)[0]
        for method, path in (("GET", "/status"), ("POST", "/wda/homescreen"),
                             ("GET", "/phoneshell/sim/state"), ("GET", "/" + "0" * 32 + "/status"),
                             ("POST", "/phoneshell/sim/faults")):
            reply = raw_at(base, method, path, {"on": ["locked"]})
            assert reply.status == 404 and reply.text == "not found\n", (method, path)
        assert not sim.state()["locked"]
        client = wda.Client(sim.url)  # facebook-wda works under the secret path
        client.session("com.apple.calculator")
        assert client.app_current()["bundleId"] == "com.apple.calculator"
        assert raw_at(sim.url, "GET", "/phoneshell/sim/state").json["foreground"] == (
            "com.apple.calculator")


def test_a_weak_secret_is_refused() -> None:
    with pytest.raises(PhoneshellError, match="16 or more"):
        SimServer(secret="short")


def test_status_names_the_instance(sim: SimServer, raw: Callable[..., Any]) -> None:
    status = raw("GET", "/status").json["value"]
    assert status["instance"] == sim.instance_id and len(sim.instance_id) == 32
    with SimServer() as other:
        assert other.instance_id != sim.instance_id


def test_requests_are_counted_by_route(sim: SimServer, raw: Callable[..., Any]) -> None:
    raw("GET", "/source")
    raw("GET", "/source?format=json")
    raw("POST", "/wda/homescreen")
    raw("GET", "/no/such/route")
    counts = raw("GET", "/phoneshell/sim/requests").json
    assert counts["GET /source"] == 2 and counts["POST /wda/homescreen"] == 1
    assert counts["GET ?"] == 1 and counts["total"] == 4  # control routes are not counted


def test_the_ledger_has_every_input_and_no_read(sim: SimServer, raw: Callable[..., Any]) -> None:
    session = wda.Client(sim.url).session("com.apple.Preferences")
    before, _ = sim.ledger()
    assert session(name="General").exists  # a find: a read, though it is a POST
    session.source()
    session.tap(100, 300)
    raw("POST", "/wda/homescreen")
    total, inputs = sim.ledger(before)
    assert total == before + 2
    assert [e["route"] for e in inputs] == ["POST /wda/tap", "POST /wda/homescreen"]
    reply = raw("GET", f"/phoneshell/sim/ledger?since={before + 1}").json
    assert reply["total"] == total and [e["n"] for e in reply["inputs"]] == [total]
    assert raw("GET", "/phoneshell/sim/ledger?since=x").status == 400
    # the Ethiopic digit one: `str.isdigit` takes it, `int` refuses it (the server dropped the
    # connection with a traceback)
    assert raw("GET", "/phoneshell/sim/ledger?since=%E1%8D%A9").status == 400
