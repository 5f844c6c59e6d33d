"""Helpers of the bridge tests: the rig (simulator + bridge), a login app, polling, raw HTTP.

The simulator gets one extra app, a login form with a password field (no built-in app has
one), built from the simulator's own layout helpers.
"""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import pytest

from bridge.audit_log import AuditWriter
from bridge.custody import Custody
from bridge.proxy import BridgeServer
from phoneshell.audit import AuditEvent, read_audit
from phoneshell.sim import SimServer, layout
from phoneshell.sim.apps import AppModel, Host
from phoneshell.sim.ui import EditText, Node, Rect

LOGIN = "com.example.login"
CONTROL_TOKEN = "rig-control-token"
"""The control token of the `rig` fixture's bridge: what the runner holds, never the agent."""
CONTROL_HEADER = "X-Phoneshell-Control-Token"
T = TypeVar("T")


@dataclass
class LoginState:
    """A user name and a password field, and a PIN field low on the screen."""

    user: EditText = field(default_factory=lambda: EditText(placeholder="User name"))
    password: EditText = field(
        default_factory=lambda: EditText(placeholder="Password", secure=True))
    pin: EditText = field(default_factory=lambda: EditText(placeholder="PIN", secure=True))


TOUCH = {"pointerType": "touch"}
"""A W3C pointer source's parameters for a finger (WDA drives touch screens only)."""


def touch(x: float, y: float, hold_ms: float = 80, after_ms: float = 0,
          to: tuple[float, float] | None = None, name: str = "finger1",
          still_ms: float = 0) -> dict[str, object]:
    """A W3C finger that goes down at (x, y) `after_ms` into the request (its move there takes
    that long), stays still `still_ms` (a slide held until a context menu opens: `holds`),
    then stays `hold_ms` (moving to `to` meanwhile, when given) and lifts."""
    steps: list[dict[str, object]] = [
        {"type": "pointerMove", "duration": after_ms, "x": x, "y": y}, {"type": "pointerDown"}]
    if still_ms:
        steps.append({"type": "pause", "duration": still_ms})
    if to is None:
        steps.append({"type": "pause", "duration": hold_ms})
    else:
        steps.append({"type": "pointerMove", "duration": hold_ms, "x": to[0], "y": to[1]})
    steps.append({"type": "pointerUp"})
    return {"type": "pointer", "id": name, "parameters": TOUCH, "actions": steps}


def bin_first_note(session: Any) -> tuple[str, tuple[float, float]]:
    """In Notes (a facebook-wda session), delete the first note into Recently Deleted and open
    that folder: the note's title, and where its row is there."""
    first = session(className="Cell").get(timeout=5)
    title, (x, y) = first.label, first.bounds.center
    session.swipe(x + 150, y, x - 150, y, 0.2)
    session(label="Delete", className="Button").get(timeout=5).click()
    session(label="Folders", className="Button").click()
    session(className="Cell", label="Recently Deleted, 1").get(timeout=5).click()
    return title, session(className="Cell", label=title).get(timeout=5).bounds.center


PIN_FRAME = Rect(16, 700, 370, 44)
"""Under the keyboard once it is up (it covers the bottom 291 pt of the 874 pt screen)."""


def render_login(state: LoginState, host: Host) -> Node:
    def focus(which: EditText) -> Callable[[], None]:
        return lambda: host.focus(which)

    return layout.screen(host.facts, [
        layout.nav_bar(host.facts, "Log In"),
        layout.text_field(state.user, Rect(16, 150, 370, 44), name="user"),
        layout.text_field(state.password, Rect(16, 210, 370, 44), name="password"),
        layout.button("Log In", Rect(16, 280, 370, 50), focus(state.user), name="login"),
        layout.text_field(state.pin, PIN_FRAME, name="pin"),
    ])


LOGIN_APP = AppModel(LOGIN, "Log In", LoginState, render_login)


def wait_for(probe: Callable[[], T | None], timeout_s: float = 10.0, what: str = "") -> T:
    """Poll until `probe` returns something truthy (never sleep blind); fail at the deadline."""
    deadline = time.monotonic() + timeout_s
    while True:
        found = probe()
        if found:
            return found
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout_s}s waiting for {what or probe}")
        time.sleep(0.01)


@dataclass
class Rig:
    """A simulator and a bridge in front of it, with the bridge's runs folder."""

    sim: SimServer
    bridge: BridgeServer
    runs: Path

    def events(self, run_id: str = "unscoped") -> list[AuditEvent]:
        """Every event of a run's audit log, failing on any bad line."""
        log = read_audit(self.runs / run_id / "audit.jsonl")
        assert log.problems == () and log.torn == ""
        return list(log.records)

    def intents(self, run_id: str = "unscoped") -> list[AuditEvent]:
        """The intent lines of a run."""
        return [e for e in self.events(run_id) if e.stage == "intent"]

    def control(self, method: str, body: object = None,
                token: str | None = CONTROL_TOKEN) -> tuple[int, Any]:
        """Call the context route as the runner does (with the control token).

        Returns:
            The HTTP status and the envelope's `value` (the context, or WDA's error object).
        """
        data = None if body is None else json.dumps(body).encode()
        status, _, reply = request(self.bridge.url, method, "/phoneshell/bridge/context", data,
                                   {CONTROL_HEADER: token} if token else {})
        return status, json.loads(reply)["value"]

    def sim_state(self) -> dict[str, object]:
        """The simulator's own view (foreground, running apps...)."""
        state: dict[str, object] = json.loads(json.dumps(self.sim.state()))
        return state


MACHINE_MADE = frozenset({"screen_before", "screen_after", "element", "run_id"})
"""Record fields the harness makes up (digests, element ids): a secret made of digits may
appear inside one by chance, as `4321` did inside a timestamp."""


def written_words(audit: Path) -> list[str]:
    """Every string the log holds that came from the phone or the client, field by field.

    A leak check must look here, not in the raw text: a PIN is digits, and digits fill the
    timestamps, digests and ids of every line.
    """
    found: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                if key not in MACHINE_MADE:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for line in audit.read_text().splitlines():
        walk(json.loads(line))
    return found


def leaked(audit: Path, *secrets: str) -> list[str]:
    """The written strings holding any of `secrets`: empty when none leaked."""
    return [word for word in written_words(audit) if any(s in word for s in secrets)]


def start_bridge(sim: SimServer, runs: Path, **options: object) -> tuple[BridgeServer, AuditWriter]:
    """A started bridge in front of `sim` with its own writer (the caller stops both), judging
    custody as for a simulated iPhone (effects at once, screens still until input)."""
    writer = AuditWriter(runs)
    options.setdefault("custody", Custody(settle_s=0.0, screens_static=True))
    bridge = BridgeServer(sim.url, runs_dir=runs, writer=writer, **options)  # type: ignore[arg-type]
    return bridge.start(), writer


@contextmanager
def runner_bridge(sim: SimServer, tmp_path: Path, **options: object) -> Iterator[Rig]:
    """A bridge as the runner starts one: its own token, a control token, context R/t/1/agent
    (grant the agent its URL in the test: `rig.bridge.grant_agent()`); stopped after."""
    runs = tmp_path / "runs"
    bridge, writer = start_bridge(sim, runs, token="harness-token", control_token="control",
                                  **options)
    bridge.set_context("R", "t", 1, "agent")
    try:
        yield Rig(sim, bridge, runs)
    finally:
        bridge.stop()
        writer.close()


def perform(rig: Rig, sid: str, *sources: dict[str, object]) -> tuple[int, str]:
    """POST a W3C actions request as an agent would: the status and WDA's message ("" on
    success)."""
    body = json.dumps({"actions": list(sources)}).encode()
    status, _, data = request(rig.bridge.url, "POST", f"/session/{sid}/actions", body)
    value = json.loads(data).get("value")
    return status, str(value.get("message", "")) if isinstance(value, dict) else ""


def request(base: str, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One raw HTTP request: status, headers (lower-case names) and body."""
    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.netloc, timeout=10)
    try:
        conn.request(method, parts.path + path, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data
    finally:
        conn.close()


def post(rig: Rig, path: str, body: object) -> tuple[int, str]:
    """POST a body (JSON, or raw bytes sent as they are) as an agent would: the status and
    WDA's message ("" on success)."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    status, _, reply = request(rig.bridge.url, "POST", path, data)
    value = json.loads(reply).get("value")
    return status, str(value.get("message", "")) if isinstance(value, dict) else ""


def refused_unsent(rig: Rig, path: str, body: object, run_id: str = "unscoped") -> str:
    """POST `body` and check it was refused (403 or 400), logged as the last `refused` line, and
    never reached the phone (the simulator's ledger of inputs holds nothing new); the message."""
    inputs, _ = rig.sim.ledger()
    logged = [e for e in rig.events(run_id) if e.stage in ("intent", "refused")]
    status, message = post(rig, path, body)
    assert status in (400, 403) and "phoneshell bridge refused" in message, (status, message)
    assert rig.sim.ledger()[0] == inputs, f"the phone got {path}"
    now = [e for e in rig.events(run_id) if e.stage in ("intent", "refused")]
    assert [e.stage for e in now[len(logged):]] == ["refused"], "not logged as one refusal"
    assert now[-1].error and now[-1].error in message
    return message


def sent(rig: Rig, path: str, body: object, answered: int = 200) -> None:
    """POST `body` and check it reached the phone (one input in the simulator's ledger) and
    was answered `answered` (the simulator answers 404 to the few WDA routes it lacks)."""
    inputs, _ = rig.sim.ledger()
    status, message = post(rig, path, body)
    assert status == answered, (path, message)
    assert rig.sim.ledger()[0] == inputs + 1, f"{path} did not reach the phone"
