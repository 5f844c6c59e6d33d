"""`phoneshell sim` serves the control routes that change the phone only when asked to: a
program that finds a standalone simulator's port while a run uses it cannot switch a fault,
reset the phone or save over its state (red team 75)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from standalone_sim import standalone_sim


@contextmanager
def _sim(*args: str) -> Iterator[tuple[str, str]]:
    """`phoneshell sim --port 0 ARGS` as a process: its URL and the line about its control."""
    with standalone_sim(*args) as (url, said):
        yield url, said[1]


def _post(url: str, route: str, body: object) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(f"{url}/phoneshell/sim/{route}", method="POST",
                                     data=json.dumps(body).encode())
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, json.load(reply)
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, json.load(exc)


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_the_routes_that_change_the_phone_are_closed_unless_opened() -> None:
    with _sim() as (url, said):
        assert "closed (--open-control opens them)" in said
        status, answer = _post(url, "faults", {"on": ["locked"]})
        assert status == 403 and "--open-control" in str(answer["hint"])
        assert _post(url, "reset", {})[0] == 403
        with urllib.request.urlopen(f"{url}/phoneshell/sim/faults", timeout=10) as reply:
            assert json.load(reply) == {"faults": []}  # reads stay open; nothing switched
    with _sim("--open-control") as (url, said):
        assert "open to any local process" in said
        assert _post(url, "faults", {"on": ["locked"]}) == (200, {"faults": ["locked"]})
