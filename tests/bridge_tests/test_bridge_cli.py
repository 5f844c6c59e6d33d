"""`phoneshell bridge` as a process: prints its URL first, logs, stops cleanly on SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import wda
from bridge_rig import request
from cli_process import send_stop

from bridge.serve import is_simulated
from phoneshell.audit import read_audit
from phoneshell.sim import SimServer


@pytest.mark.parametrize("taken_by", ["main", "another"])
def test_the_standalone_bridge_serves_logs_and_stops_on_sigterm(sim: SimServer, tmp_path: Path,
                                                                 taken_by: str) -> None:
    """Whichever of its threads takes the SIGTERM (one another took is seen within a slice)."""
    runs = tmp_path / "runs"
    proc = subprocess.Popen(
        [sys.executable, "-m", "phoneshell", "bridge", "--wda", sim.url, "--listen",
         "127.0.0.1:0", "--runs", str(runs)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={k: v for k, v in os.environ.items()
             if k not in ("PHONESHELL_BRIDGE_TOKEN", "PHONESHELL_BRIDGE_CONTROL_TOKEN")})
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline().strip()
        assert first.startswith("listening on http://127.0.0.1:"), first
        client = wda.Client(first.split()[-1])
        client.session("com.apple.calculator")
        send_stop(proc, signal.SIGTERM, taken_by)
        assert proc.wait(timeout=30) == 0
        rest = proc.stdout.read()  # the process has exited: this cannot block
        assert "context routes: off (no control token" in rest, rest
        # the simulator's effects show at once: a real phone's settling wait would make every
        # quick action of an agent wait 2 s (a burst of taps took minutes)
        assert "phone: phoneshell's simulated iPhone (its effects show at once" in rest, rest
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    (launch,) = [e for e in read_audit(runs / "unscoped" / "audit.jsonl").records
                 if e.stage == "intent"]
    assert (launch.kind, launch.params["bundle_id"]) == ("launch", "com.apple.calculator")


def test_with_a_control_token_the_context_routes_move_actions_to_a_run(sim: SimServer,
                                                                      tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    proc = subprocess.Popen(
        [sys.executable, "-m", "phoneshell", "bridge", "--wda", sim.url, "--listen",
         "127.0.0.1:0", "--runs", str(runs), "--control-token", "C-secret"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={k: v for k, v in os.environ.items()
             if k not in ("PHONESHELL_BRIDGE_TOKEN", "PHONESHELL_BRIDGE_CONTROL_TOKEN")})
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip().split()[-1]
        context = json.dumps({"run_id": "R1", "task_id": "t", "attempt": 1,
                              "phase": "agent"}).encode()
        refused = request(url, "POST", "/phoneshell/bridge/context", context)
        assert refused[0] == 401
        taken = request(url, "POST", "/phoneshell/bridge/context", context,
                        {"X-Phoneshell-Control-Token": "C-secret"})
        assert taken[0] == 200, taken[2]
        wda.Client(url).session("com.apple.calculator")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)
    (launch,) = [e for e in read_audit(runs / "R1" / "audit.jsonl").records
                 if e.stage == "intent"]
    assert (launch.task_id, launch.phase, launch.kind) == ("t", "agent", "launch")
    assert not (runs / "unscoped").exists()


def test_a_phone_it_cannot_tell_is_taken_for_a_real_one() -> None:
    """Nothing answers at the start: the bridge waits for a real phone's screens to settle,
    never wrong, only slower."""
    with SimServer() as sim:
        assert is_simulated(sim.url)
        url = sim.url
    assert not is_simulated(url)
