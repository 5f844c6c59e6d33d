"""A model's request is held to one deadline as a whole (connecting, sending, the status line,
the headers and the body), whatever the endpoint trickles: the stand-in over real HTTP sends a
header line a byte every 50 ms, each read well inside any socket timeout (red team 112: headers
a byte every 2 s held a 20 s attempt for 150 s)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from agents.openai_standin import API_KEY, StandIn

from phoneshell.agents.chat_api import ChatClient, ModelTimeout, OpenAISettings


@pytest.fixture(scope="module")
def stand_in() -> Iterator[StandIn]:
    with StandIn() as server:
        yield server


def test_headers_sent_a_byte_at_a_time_end_by_the_deadline(stand_in: StandIn) -> None:
    client = ChatClient(OpenAISettings(stand_in.url, API_KEY, retries=0))
    body = {"model": "stand-in-head-trickle", "messages": []}
    started = time.monotonic()
    try:
        with pytest.raises(ModelTimeout, match="no whole reply from .* within 1s"):
            client.complete(body, 5.0, started + 1.0)
    finally:
        stand_in.slow.set()  # the trickle stops
        stand_in.slow.clear()
    assert time.monotonic() - started < 2.0


def test_a_request_is_held_to_its_own_timeout_within_the_deadline(stand_in: StandIn) -> None:
    """A judge's request waits `timeout_s` at most, however far off its deadline is."""
    client = ChatClient(OpenAISettings(stand_in.url, API_KEY, retries=0))
    started = time.monotonic()
    try:
        with pytest.raises(ModelTimeout):
            client.complete({"model": "stand-in-head-trickle", "messages": []}, 1.0,
                            started + 60.0)
    finally:
        stand_in.slow.set()
        stand_in.slow.clear()
    assert time.monotonic() - started < 2.0
