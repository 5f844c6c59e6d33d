"""The latency model: a real phone's delay per route, and the tally of what was asked and when."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
import wda

from phoneshell.cli.options import LATENCIES
from phoneshell.errors import PhoneshellError
from phoneshell.sim import SimServer
from phoneshell.sim.latency import IPHONE, PROFILES, Latency, cost_s, route_of

SETTINGS = "com.apple.Preferences"


def test_routes_are_named_without_session_ids_or_element_ids() -> None:
    assert route_of("GET", "/session/AB-12/wda/activeAppInfo", {})[0] == \
        "GET /wda/activeAppInfo"
    assert route_of("GET", "/source", {"format": "json"})[0] == "GET /source (json)"
    assert route_of("GET", "/source", {})[0] == "GET /source"
    assert route_of("POST", "/session/S/element/7F3A/click", {})[0] == \
        "POST /element/:uuid/click"
    assert route_of("GET", "/session/S/element/active", {})[0] == "GET /element/active"


def test_gestures_cost_what_they_ask_for_and_typing_by_the_character() -> None:
    tap = cost_s(IPHONE, "POST", ("wda", "tap"), {"x": 1, "y": 2})
    assert tap == pytest.approx(0.5)
    held = cost_s(IPHONE, "POST", ("wda", "touchAndHold"), {"x": 1, "y": 2, "duration": 2.0})
    assert held == pytest.approx(2.5)
    # a press and drag takes its press and its hold, from the fields WDA reads (a `duration`
    # there is read by nothing), and a drag by its `duration` alone
    route = ("wda", "element", "E", "pressAndDragWithVelocity")
    plain = cost_s(IPHONE, "POST", route, {"velocity": 500})
    pressed = cost_s(IPHONE, "POST", route, {"pressDuration": 1.0, "holdDuration": 0.5,
                                              "duration": 9.0, "velocity": 500})
    assert pressed - plain == pytest.approx(1.5)
    drag = ("wda", "dragfromtoforduration")
    assert cost_s(IPHONE, "POST", drag, {"duration": 1.0, "pressDuration": 9.0}) \
        - cost_s(IPHONE, "POST", drag, {}) == pytest.approx(1.0)
    assert cost_s(IPHONE, "POST", drag, {"duration": float("inf")}) \
        == cost_s(IPHONE, "POST", drag, {}), "no time WDA could not take"
    short = cost_s(IPHONE, "POST", ("wda", "keys"), {"value": ["a"]})
    long = cost_s(IPHONE, "POST", ("wda", "keys"), {"value": list("a" * 61)})
    assert long - short == pytest.approx(1.0)
    assert cost_s(IPHONE, "GET", ("wda", "batteryInfo"), {}) == pytest.approx(0.043)
    assert all(row.source for row in IPHONE), "every figure says where it comes from"


def test_an_iphone_answers_no_faster_than_its_table_and_the_tally_prices_each_route() -> None:
    with SimServer(latency="iphone") as sim:
        client = wda.Client(sim.url)
        sim.latency.tally.phase = "probe"
        started = time.monotonic()
        client.app_current()
        assert time.monotonic() - started >= 0.043
        counts = sim.latency.tally.take()
    row = counts["probe"]["GET /wda/activeAppInfo"]
    assert (row.count, row.seconds) == (1, pytest.approx(0.043))


def test_no_latency_still_counts_and_prices_and_repeats_are_reads_nothing_changed() -> None:
    with SimServer() as sim:
        client = wda.Client(sim.url)
        client.source()
        client.source()  # nothing happened in between: a read the asker could have kept
        client.session().app_start(SETTINGS)
        client.source()  # after a launch: a new read
        counts = sim.latency.tally.take()[""]
        assert sim.latency.tally.take() == {}, "take starts a new count"
    source = counts["GET /source"]
    assert (source.count, source.repeats) == (3, 1)
    assert source.seconds == pytest.approx(3 * 0.185)


def test_an_unknown_profile_is_refused_with_the_ones_there_are() -> None:
    with pytest.raises(PhoneshellError, match="unknown latency profile 'ipad'") as caught:
        Latency("ipad")
    assert "none, iphone" in caught.value.hint
    assert ("none", *PROFILES) == LATENCIES, "the CLI offers every profile"


def test_phoneshell_sim_says_its_latency() -> None:
    child = subprocess.Popen([sys.executable, "-m", "phoneshell", "sim", "--port", "0",
                              "--latency", "iphone"], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().rstrip().endswith("latency: iphone")
    finally:
        child.terminate()
        child.communicate(timeout=10)


def test_the_docs_show_every_figure_with_its_source() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "simulator.md").read_text()
    for row in IPHONE:
        assert f"| `{row.method} {row.pattern}` | {row.seconds:g} | {row.source} |" in docs, row
