"""Durability: SIGKILL the standalone bridge mid-burst; every tap the phone got is in the log.

The simulator does not count the taps it receives, so a counting relay (a pass-through HTTP
forwarder this test controls) sits between the bridge and the simulator and records every tap
that reached it: exactly what the phone received from the bridge.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import wda
from bridge_rig import CONTROL_TOKEN, request, wait_for

from phoneshell.audit import read_audit
from phoneshell.sim import SimServer

ROOT = Path(__file__).resolve().parents[2]
TAPS = 500


class CountingRelay(ThreadingHTTPServer):
    """Forwards every request to the phone, noting the (x, y) of each tap it receives."""

    daemon_threads = True

    def __init__(self, upstream: str) -> None:
        super().__init__(("127.0.0.1", 0), _RelayHandler)
        self.upstream = urlsplit(upstream).netloc
        self.taps: list[tuple[int, int]] = []
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _RelayHandler(BaseHTTPRequestHandler):
    server: CountingRelay

    def _relay(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.command == "POST" and self.path.rstrip("/").endswith("/wda/tap"):
            point = json.loads(body)
            with self.server.lock:
                self.server.taps.append((point["x"], point["y"]))
        conn = http.client.HTTPConnection(self.server.upstream, timeout=30)
        try:
            conn.request(self.command, self.path, body=body or None,
                         headers={"Content-Type": "application/json"} if body else {})
            response = conn.getresponse()
            data = response.read()
        finally:
            conn.close()
        self.send_response(response.status)
        self.send_header("Content-Type", response.getheader("Content-Type") or "")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_DELETE = _relay

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        """Quiet."""


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_sigkill_mid_burst_leaves_every_received_tap_in_the_log(sim: SimServer,
                                                                tmp_path: Path) -> None:
    relay = CountingRelay(sim.url)
    threading.Thread(target=relay.serve_forever, kwargs={"poll_interval": 0.05},
                     daemon=True).start()
    runs = tmp_path / "runs"
    env = {**os.environ, "PYTHONPATH": str(ROOT),
           "PHONESHELL_BRIDGE_CONTROL_TOKEN": CONTROL_TOKEN}
    proc = subprocess.Popen(
        [sys.executable, "-m", "phoneshell", "bridge", "--wda", relay.url, "--listen",
         "127.0.0.1:0", "--runs", str(runs), "--no-targets"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    stopped: list[BaseException] = []
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline().strip()
        assert first.startswith("listening on http://127.0.0.1:"), first
        url = first.split()[-1]
        context = {"run_id": "kill9", "task_id": "burst", "attempt": 1, "phase": "agent"}
        assert request(url, "POST", "/phoneshell/bridge/context", json.dumps(context).encode(),
                       {"X-Phoneshell-Control-Token": CONTROL_TOKEN})[0] == 200
        # not Settings: with --no-targets its touches cannot be placed, and are refused there
        session = wda.Client(url).session("com.apple.calculator")

        def burst() -> None:
            try:
                for i in range(TAPS):  # distinct points in the status bar: harmless taps
                    session.tap(10 + i % 250, 8 + i // 250)
            except Exception as exc:  # the bridge died under the client: expected
                stopped.append(exc)

        sender = threading.Thread(target=burst)
        sender.start()
        # each tap is three requests through two relays: on 2 busy cores 150 can take 10 s
        wait_for(lambda: len(relay.taps) >= 150, timeout_s=90, what="150 taps through the bridge")
        os.kill(proc.pid, signal.SIGKILL)
        sender.join(timeout=30)
        assert not sender.is_alive()
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
        if proc.stdout is not None:
            proc.stdout.close()
        if proc.stderr is not None:
            proc.stderr.close()
        relay.shutdown()
        relay.server_close()
    assert proc.returncode == -signal.SIGKILL and stopped, "the burst ended before the kill"
    with relay.lock:
        received = list(relay.taps)
    assert 150 <= len(received) < TAPS
    log = read_audit(runs / "kill9" / "audit.jsonl")  # never raises; a torn tail is reported
    assert log.problems == ()
    intents = [e for e in log.records if e.stage == "intent"]
    logged = {(e.params["x"], e.params["y"]) for e in intents if e.kind == "tap"}
    missing = [point for point in received if point not in logged]
    assert missing == []
    seqs = [e.seq for e in intents]
    assert seqs == sorted(set(seqs))
    assert all(e.phase == "agent" and e.task_id == "burst" for e in intents)
