"""What an agent's request bodies cost the harness is bounded whatever it sends (red team 143,
RT143-1): a body of many small JSON values is refused before it is parsed, a body over the
limit unread, and the bytes held at once across requests are bounded; each refusal is a
`refused` line of the attempt's log. Raw HTTP to the bridge on loopback."""

from __future__ import annotations

import json
import socket
import time
import tracemalloc
from urllib.parse import urlsplit

from bridge_rig import Rig
from raw_http import exchange, wait_until, wda_error

from bridge.body_budget import BODIES_AT_ONCE_BYTES
from bridge.gate import MAX_BODY_BYTES, MAX_JSON_ITEMS, Refused, decode_body
from bridge.http_server import BridgeHTTPServer


def listener(rig: Rig) -> BridgeHTTPServer:
    """The bridge's HTTP listener."""
    assert rig.bridge._server is not None
    return rig.bridge._server


def agent_head(rig: Rig, method: str, route: str, *headers: str) -> tuple[int, bytes]:
    """A granted agent's port and request head for `route`, with `headers`."""
    where = urlsplit(rig.bridge.grant_agent())
    assert where.port is not None
    lines = "".join(f"{h}\r\n" for h in ("Host: x", *headers))
    return where.port, f"{method} {where.path}{route} HTTP/1.1\r\n{lines}\r\n".encode()


def refusals(rig: Rig) -> list[str]:
    """The errors of the refused lines of the guarded rig's attempt."""
    return [e.error for e in rig.events("R") if e.stage == "refused"]


def many_values(unit: bytes, size: int) -> bytes:
    """A body of about `size` bytes holding `unit` over and over (the red team's `{},`)."""
    head, tail = b'{"using":"xpath","value":"//a","x":[', b"]}"
    count = (size - len(head) - len(tail)) // len(unit)
    return head + unit * count + b"{}" + tail


def test_a_body_of_many_values_is_refused_unparsed_at_a_small_multiple_of_its_bytes(
        guarded: Rig) -> None:
    body = many_values(b"{},", MAX_BODY_BYTES - 64)  # 350,000 objects: 40 MB parsed
    port, head = agent_head(guarded, "POST", "/wda/homescreen",
                            f"Content-Length: {len(body)}")
    tracemalloc.start()
    try:
        status, answer = exchange(port, head + body)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert status == 413 and wda_error(answer) == "invalid argument", answer[:300]
    assert f"more than {MAX_JSON_ITEMS:,} JSON values".encode() in answer
    assert peak < 6 * len(body), f"the bridge held {peak:,} bytes for a {len(body):,} body"
    assert guarded.sim.ledger()[0] == 0
    assert any(f"more than {MAX_JSON_ITEMS:,}" in e for e in refusals(guarded))


def test_a_body_over_the_limit_is_refused_unread_and_logged(guarded: Rig) -> None:
    port, head = agent_head(guarded, "POST", "/wda/homescreen",
                            f"Content-Length: {60 * 1024 * 1024}")
    status, answer = exchange(port, head + b"{}")  # the rest never comes: it is never read
    assert status == 400 and f"over {MAX_BODY_BYTES:,}".encode() in answer
    assert any("too large" in e and f"over {MAX_BODY_BYTES:,}" in e for e in refusals(guarded))


def test_bodies_held_at_once_are_bounded_and_the_excess_refused_and_logged(
        guarded: Rig) -> None:
    bodies = listener(guarded).bodies
    bodies.wait_s = 0.5
    port, head = agent_head(guarded, "POST", "/wda/homescreen",
                            f"Content-Length: {MAX_BODY_BYTES}")
    slow = [socket.create_connection(("127.0.0.1", port), timeout=10)
            for _ in range(BODIES_AT_ONCE_BYTES // MAX_BODY_BYTES)]
    try:
        for conn in slow:  # each sends its head and a start, and holds its share of the room
            conn.sendall(head + b'{"a":')
        wait_until(lambda: bodies.held == BODIES_AT_ONCE_BYTES, 10)
        small_port, small = agent_head(guarded, "POST", "/wda/homescreen", "Content-Length: 2")
        status, answer = exchange(small_port, small + b"{}")
        assert status == 503 and wda_error(answer) == "unknown error", answer[:300]
        assert any("found no room" in e for e in refusals(guarded))
    finally:
        for conn in slow:
            conn.close()
    assert bodies.most_held == BODIES_AT_ONCE_BYTES
    wait_until(lambda: bodies.held == 0, 10)
    status, answer = exchange(small_port, small + b"{}")
    assert status == 200, answer[:300]


def test_what_routes_really_take_fits() -> None:
    # the most one request types, as a list of escaped astral characters (15 KB)
    typed = json.dumps({"value": ["\U0001f600"] * 1000}, ensure_ascii=True).encode()
    assert decode_body(typed) is not None and len(typed) < MAX_BODY_BYTES // 16
    # a 5 s touch chain at one move a millisecond
    moves = [{"type": "pointerMove", "duration": 1, "x": 100 + i % 50, "y": 300}
             for i in range(5000)]
    chain = {"actions": [{"type": "pointer", "id": "finger1",
                          "parameters": {"pointerType": "touch"}, "actions": moves}]}
    assert decode_body(json.dumps(chain).encode()) == chain
    # commas, colons and brackets inside strings are text, not values
    text = {"value": [",:[{" * 20_000]}
    assert decode_body(json.dumps(text).encode()) == text


def test_a_body_of_many_keys_is_refused_quickly() -> None:
    # the last key repeats one: found in one pass, not by counting each key in turn
    keys = ",".join(f'"k{i}":0' for i in [*range(24_000), 23_999])
    started = time.monotonic()
    try:
        decode_body(("{" + keys + "}").encode())
    except Refused as refused:
        assert "repeats the key 'k23999'" in refused.reason
    else:
        raise AssertionError("repeated keys were admitted")
    assert time.monotonic() - started < 1.0


def test_a_body_of_strings_left_open_is_read_in_one_pass() -> None:
    # every quote of \"\"\"... could start a string read to the end: 80 KB once took 32 s
    body = b'{"a":' + b'\\"' * 40_000
    started = time.monotonic()
    try:
        decode_body(body)
    except Refused as refused:
        assert "not JSON" in refused.reason
    else:
        raise AssertionError("a string left open was admitted")
    assert time.monotonic() - started < 1.0
