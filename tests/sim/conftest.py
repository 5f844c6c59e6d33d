"""Fixtures for the simulated iPhone: a server on a free loopback port, and wda clients to it.

Every test talks to the simulator through the unmodified facebook-wda client over real HTTP,
or through `raw` (urllib) where the exact bytes, status code or error shape is the point.
`PROBE` is a tiny app model built through the public app-model interface, for what no built-in
app has yet (URLs, alerts, pixels-only text).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import wda

from phoneshell.sim import SimServer, layout
from phoneshell.sim.apps import AppModel, Host, builtin_apps
from phoneshell.sim.ui import Node, Rect


@dataclass
class ProbeState:
    """A test app's state: the last URL opened and whether its alert shows."""

    url: str = ""
    alert: bool = False
    answers: list[str] = field(default_factory=list)


def _render_probe(state: ProbeState, host: Host) -> Node:
    f = host.facts

    def answer(text: str) -> Callable[[], None]:
        def press() -> None:
            state.answers.append(text)
            state.alert = False
        return press

    def show() -> None:
        state.alert = True

    kids = [layout.nav_bar(f, "Probe"),
            layout.text(state.url or "no page", Rect(16, 140, 370, 22), name="page-url"),
            layout.button("Show Alert", Rect(16, 200, 200, 44), show),
            Node("StaticText", Rect(16, 300, 370, 60), name="probe-image",
                 pixels_text="SEVEN")]
    if state.alert:
        kids.append(layout.alert(f, "Allow Access?", "The probe wants to know.",
                                 [("Cancel", answer("Cancel")), ("Allow", answer("Allow"))]))
    return layout.screen(f, kids)


def _open_probe_url(state: ProbeState, host: Host, url: str) -> None:
    state.url = url


# Its own scheme: http(s) belongs to Safari, the first installed app that claims it.
PROBE = AppModel("com.example.probe", "Probe", ProbeState, _render_probe,
                 on_url=_open_probe_url, url_schemes=("probe",))




@pytest.fixture
def probe_sim() -> Iterator[SimServer]:
    """A simulator with the probe app installed next to the built-in ones."""
    with SimServer(apps=[*builtin_apps(), PROBE]) as server:
        yield server


@pytest.fixture
def client(sim: SimServer) -> wda.Client:
    """A root facebook-wda client (it finds or makes the session by itself)."""
    return wda.Client(sim.url)


@pytest.fixture
def app(client: wda.Client) -> wda.Client:
    """A session client; creating the session sends the phone home, as on a real phone."""
    return client.session()


@dataclass(frozen=True)
class Raw:
    """A raw HTTP answer: status, headers and the decoded JSON body (None for non-JSON)."""

    status: int
    headers: dict[str, str]
    text: str
    json: Any

    @property
    def value(self) -> Any:
        """The envelope's value."""
        return self.json["value"]


def raw_request(base: str, method: str, path: str, body: Any = None,
                data: bytes | None = None) -> Raw:
    """Send one request with urllib, without facebook-wda's retries or error mapping."""
    payload = data if data is not None else (json.dumps(body).encode() if body is not None
                                             else None)
    request = urllib.request.Request(base + path, data=payload, method=method)
    if payload:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            status, headers, content = reply.status, dict(reply.headers), reply.read()
    except urllib.error.HTTPError as exc:
        status, headers, content = exc.code, dict(exc.headers), exc.read()
        exc.close()
    text = content.decode()
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    return Raw(status, headers, text, parsed)


@pytest.fixture
def raw_at() -> Callable[..., Raw]:
    """`raw_at(base_url, method, path, body=None)` for a server started inside a test."""
    return raw_request


@pytest.fixture
def raw(sim: SimServer) -> Callable[..., Raw]:
    """`raw(method, path, body=None)` against the `sim` fixture's server."""
    return lambda method, path, body=None, data=None: raw_request(sim.url, method, path, body,
                                                                  data)
