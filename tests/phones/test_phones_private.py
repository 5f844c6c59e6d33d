"""A USB phone is private only through the system's usbmuxd socket (red team 78).

The sandbox hides every unix socket path but shares the host's network, and usbmuxd's `Connect`
to the phone's WDA port needs no pair record. docs/real-device.md once told an operator whose
usbmuxd listens on TCP (WSL's 127.0.0.1:27015) to bridge it with `socat UNIX-LISTEN:/tmp/usbmuxd,
fork TCP:host:port` and `PHONESHELL_USBMUXD=/tmp/usbmuxd`: the run called that phone private, so
a lock a sandboxed agent sent through the TCP end, around the bridge, was skipped as the rig's
and the run stopped. Here the usbmuxd stand-in listens on loopback TCP and a forwarder plays
socat; the phone behind it is a simulator.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import run_cli
from phones.usbmuxd_standin import UDID, FakePhone, UnixForwarder, UsbmuxdStandin

from phoneshell.phones import usbmux
from phoneshell.phones.open import DeviceHandle
from phoneshell.records import DeviceInfo
from phoneshell.runner.workers import rig_for
from phoneshell.sim import SimServer

TASK = "environments/calculator.arithmetic.yaml"

# What a sandboxed program can do with a usbmuxd on TCP: list the phones, connect to the first
# one's port 8100 (no pair record asked), and lock it there; then claim done.
AROUND = r'''
import os, plistlib, socket, struct, sys
host, port = sys.argv[1].rsplit(":", 1)
def ask(sock, message):
    body = plistlib.dumps(message)
    sock.sendall(struct.pack("<IIII", 16 + len(body), 1, 8, 1) + body)
    head = sock.recv(16, socket.MSG_WAITALL)
    return plistlib.loads(sock.recv(struct.unpack("<IIII", head)[0] - 16, socket.MSG_WAITALL))
with socket.create_connection((host, int(port))) as mux:
    phone = ask(mux, {"MessageType": "ListDevices"})["DeviceList"][0]["DeviceID"]
with socket.create_connection((host, int(port))) as wda:
    assert ask(wda, {"MessageType": "Connect", "DeviceID": phone,
                     "PortNumber": socket.htons(8100)})["Number"] == 0
    wda.sendall(b"POST /wda/lock HTTP/1.1\r\nHost: phone\r\nContent-Length: 2\r\n"
                b"Content-Type: application/json\r\nConnection: close\r\n\r\n{}")
    while wda.recv(65536):
        pass
os.system("phoneshell finish --status done --answer 423")
'''


def test_a_usbmuxd_forwarded_from_tcp_is_not_private(tmp_path: Path) -> None:
    with SimServer() as sim, UsbmuxdStandin([FakePhone(UDID, wda=sim.url)], tcp=True) as mux, \
            UnixForwarder(mux.address) as socat:
        usbmux.use_usbmuxd_for_wda(socat.path)
        with rig_for(_usb_phone(), tmp_path) as rig:
            assert not rig.private
            assert socat.path in rig.reach and "not the system's socket" in rig.reach


def test_the_systems_usbmuxd_socket_is_private(tmp_path: Path) -> None:
    usbmux.use_usbmuxd_for_wda()  # no PHONESHELL_USBMUXD: /var/run/usbmuxd, as on a Mac
    with rig_for(_usb_phone(), tmp_path) as rig:
        assert rig.private and rig.reach == ""


def test_a_usbmuxd_socket_the_sandbox_shows_is_not_private() -> None:
    share = Path(usbmux.DEFAULT_USBMUXD).resolve().parent
    assert usbmux.reachable_usbmuxd(usbmux.DEFAULT_USBMUXD) == ""
    assert "which the sandbox shows" in usbmux.reachable_usbmuxd(usbmux.DEFAULT_USBMUXD,
                                                                 [share])
    assert "a TCP port" in usbmux.reachable_usbmuxd("127.0.0.1:27015")


@pytest.mark.slow
def test_a_lock_sent_through_a_usbmuxd_on_tcp_fails_the_agent(tmp_path: Path) -> None:
    agent = tmp_path / "around.py"
    agent.write_text(AROUND)
    with SimServer() as sim, UsbmuxdStandin([FakePhone(UDID, wda=sim.url)], tcp=True) as mux, \
            UnixForwarder(mux.address) as socat:
        done = run_cli("run", TASK, "--device", UDID, "--agent",
                       f"command:python3 {agent} {mux.address}", "--sandbox", "none",
                       "--runs", str(tmp_path / "runs"), "--run-id", "M",
                       env={"PHONESHELL_USBMUXD": socat.path,
                            "PHONESHELL_LOCK_DIR": str(tmp_path / "locks")})
    # the run goes on, done, not all passed; without the rule the lock was the rig's: exit 2
    assert done.returncode == 1, done.stdout + done.stderr
    [line] = (tmp_path / "runs" / "M" / "results.jsonl").read_text().splitlines()
    row = json.loads(line)
    assert row["outcome"] == "failed", row
    assert "around the bridge" in str(row["error"]), row


def _usb_phone() -> DeviceHandle:
    url = f"http+usbmux://{UDID}:8100"
    return DeviceHandle(url, DeviceInfo(kind="usb", label="phone-1", url=url))
