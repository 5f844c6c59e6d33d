"""Security: loopback by default, remote only with a token, tokens checked on every request."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import wda
from bridge_rig import CONTROL_HEADER, Rig, request, start_bridge

from bridge.proxy import BridgeServer
from phoneshell.audit import actions
from phoneshell.errors import BridgeError
from phoneshell.sim import SimServer

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = ("phoneshell.records", "phoneshell.errors", "phoneshell.xcui", "phoneshell.wda_routes",
           "phoneshell.frames",  # frames: how trajectory screenshots are scaled, shared with judges
           "phoneshell.patience",  # how long a refused read is asked again, shared with the device
           "phoneshell.behalf",  # what it writes because of an agent's turn, charged to the turn
           "phoneshell.guarded_http",  # the bounded HTTP listener, shared with the simulator
           "phoneshell.http_request",  # its request side (body framing, WDA's error shape)
           "phoneshell.presses",  # what a slide presses, shared with the simulator
           "phoneshell.scroll_drags",  # the drags WDA's scroll makes, shared with the simulator
           "phoneshell.holds",  # how long a slide held still first, shared likewise
           "phoneshell.hit_point",  # where a touch by id lands, shared with the simulator
           "phoneshell.chain_points",  # a touch chain's point as WDA reads it, shared likewise
           "phoneshell.typed_keys",  # what typed keys do, shared with the simulator and checks
           "phoneshell.keyboard_dismiss",  # which keys WDA's dismiss presses, shared likewise
           "phoneshell.pasteboard",  # which controls reach the pasteboard, shared with xcui
           "phoneshell.lasting",  # what an action would change beyond the attempt: the refusals
           "phoneshell.outreach",  # what would reach beyond the phone (a call, a purchase)
           "phoneshell.rig_down",  # what would take the rig away, shared with the runner's audit
           "phoneshell.awake")  # how `phoneshell bridge` waits for a stop, shared with the sim


def test_a_remote_address_needs_allow_remote_and_a_token(tmp_path: Path) -> None:
    for kwargs in ({}, {"allow_remote": True}, {"token": "t0k3n"}):
        with pytest.raises(BridgeError, match="refusing to bind"):
            BridgeServer("http://127.0.0.1:8100", host="0.0.0.0", runs_dir=tmp_path, **kwargs)
    BridgeServer("http://127.0.0.1:8100", host="0.0.0.0", runs_dir=tmp_path,
                 allow_remote=True, token="t0k3n")  # accepted (not started: no network here)
    BridgeServer("http://127.0.0.1:8100", host="::1", runs_dir=tmp_path)  # loopback is fine


def test_the_cli_refuses_a_remote_listen_without_a_token(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "phoneshell", "bridge", "--wda",
                           "http://127.0.0.1:9", "--listen", "0.0.0.0:0", "--allow-remote",
                           "--runs", str(tmp_path)], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path, env={k: v for k, v in os.environ.items()
                                           if k != "PHONESHELL_BRIDGE_TOKEN"})
    assert done.returncode == 2
    assert "error: refusing to bind the bridge to 0.0.0.0" in done.stderr
    assert "hint:" in done.stderr and "Traceback" not in done.stderr


def test_a_token_is_required_as_path_prefix_or_header(sim: SimServer, tmp_path: Path) -> None:
    bridge, writer = start_bridge(sim, tmp_path / "runs", token="s3cr3t-token")
    try:
        assert bridge.url.endswith("/t/s3cr3t-token")
        client = wda.Client(bridge.url)  # facebook-wda works with the prefixed base URL
        client.session("com.apple.calculator")
        assert client.app_current()["bundleId"] == "com.apple.calculator"
        base = bridge.url.split("/t/")[0]
        status, _, data = request(base, "GET", "/status")
        assert status == 401 and json.loads(data)["value"]["error"] == "unauthorized"
        assert request(base, "GET", "/status", headers={"X-Phoneshell-Token": "wrong"})[0] == 401
        assert request(base, "GET", "/t/wrong/status")[0] == 401
        assert request(base, "POST", "/wda/homescreen")[0] == 401  # refused, never forwarded
        assert sim.state()["foreground"] == "com.apple.calculator"
        assert request(base, "GET", "/phoneshell/bridge/health")[0] == 401
        status, _, data = request(base, "GET", "/source?format=json",
                                  headers={"X-Phoneshell-Token": "s3cr3t-token"})
        assert status == 200 and json.loads(data)["value"]["type"] == "Application"
        health = request(base, "GET", "/t/s3cr3t-token/phoneshell/bridge/health")
        assert health[0] == 403  # the token drives the phone; health needs the control token
    finally:
        bridge.stop()
        writer.close()


def test_the_agents_url_and_token_cannot_move_its_actions_to_another_run(
        sim: SimServer, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    bridge, writer = start_bridge(sim, runs, token="agent-token", control_token="runner-only")
    try:
        bridge.set_context("R1", "settings.wifi", 1, "agent")
        agent_url = bridge.url  # all the agent is given: the base URL with its token
        move = json.dumps({"run_id": "elsewhere", "phase": "setup"}).encode()
        for method, body in (("POST", move), ("DELETE", None), ("GET", None)):
            for headers in ({}, {CONTROL_HEADER: "agent-token"}, {CONTROL_HEADER: "guess"}):
                status, _, data = request(agent_url, method, "/phoneshell/bridge/context",
                                          body, headers)
                assert status == 401, (method, headers)
                assert json.loads(data)["value"]["error"] == "unauthorized"
                assert CONTROL_HEADER in json.loads(data)["value"]["message"]
        assert bridge.context.run_id == "R1" and bridge.context.phase == "agent"
        status, _, data = request(agent_url, "GET", "/phoneshell/bridge/health")
        assert status == 401 and sim.url not in data.decode()  # nothing about the phone's URL
        wda.Client(agent_url).session("com.apple.calculator")
        (launch,) = actions(Rig(sim, bridge, runs).events("R1"))
        assert (launch.kind, launch.phase) == ("launch", "agent")
        assert not (runs / "unscoped").exists() and not (runs / "elsewhere").exists()
        status, _, data = request(agent_url, "GET", "/phoneshell/bridge/context",
                                  headers={CONTROL_HEADER: "runner-only"})
        assert status == 200 and json.loads(data)["value"]["run_id"] == "R1"  # the runner can
    finally:
        bridge.stop()
        writer.close()


def test_without_a_control_token_the_context_routes_are_off(sim: SimServer,
                                                            tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    bridge, writer = start_bridge(sim, runs)
    try:
        body = json.dumps({"run_id": "R2", "phase": "agent"}).encode()
        for method in ("POST", "GET", "DELETE"):
            status, _, data = request(bridge.url, method, "/phoneshell/bridge/context", body,
                                      {CONTROL_HEADER: "anything"})
            error = json.loads(data)["value"]
            assert status == 403 and error["error"] == "unsupported operation"
            assert "no control token" in error["message"] and "set_context" in error["message"]
        assert not bridge.context.scoped
        bridge.set_context("R2", "t", 1, "agent")  # in-process, as the runner does
        wda.Client(bridge.url).session("com.apple.calculator")
        assert [e.kind for e in Rig(sim, bridge, runs).intents("R2")] == ["launch"]
        assert request(bridge.url, "GET", "/phoneshell/bridge/health")[0] == 403
    finally:
        bridge.stop()
        writer.close()


def test_the_control_token_must_differ_from_the_token(tmp_path: Path) -> None:
    with pytest.raises(BridgeError, match="control token is the same"):
        BridgeServer("http://127.0.0.1:8100", runs_dir=tmp_path, token="same",
                     control_token="same")


def test_the_bridge_imports_only_the_shared_contract_from_phoneshell() -> None:
    offenders = []
    for path in sorted((ROOT / "bridge").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                if name.startswith("phoneshell") and name not in ALLOWED:
                    offenders.append(f"{path.name} imports {name}")
                if name.startswith("wda") and name.split(".")[:2] != ["wda", "usbmux"]:
                    offenders.append(f"{path.name} imports {name}")
    assert offenders == []
