"""Listing phones through usbmuxd (the stand-in), and what a missing usbmuxd looks like."""

from __future__ import annotations

import json
import plistlib
import socket
import struct
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import wda
from phones.usbmuxd_standin import OLD_UDID, UDID, FakePhone, UsbmuxdStandin

from phoneshell.device import Phone
from phoneshell.errors import DeviceError
from phoneshell.phones import usbmux


def test_lists_each_phone_with_name_model_ios_and_pairing(usbmuxd: UsbmuxdStandin) -> None:
    phones = {p.udid: p for p in usbmux.list_phones(usbmuxd.path)}
    assert set(phones) == {UDID, OLD_UDID}
    bench, old = phones[UDID], phones[OLD_UDID]
    assert (bench.name, bench.product_type, bench.model, bench.ios_version) == (
        "Bench iPhone", "iPhone18,1", "iPhone 17 Pro", "26.2")
    assert (bench.connection, bench.paired, bench.error, bench.ios_major) == ("usb", True, "", 26)
    # A phone that has not trusted this computer still answers lockdown's basic questions.
    assert (old.name, old.model, old.ios_version, old.paired) == (
        "Old Phone", "iPhone 8", "16.7.10", False)
    assert "ReadPairRecord" in usbmuxd.requests and "Connect" in usbmuxd.requests


def test_the_address_comes_from_the_environment(usbmuxd: UsbmuxdStandin,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    assert usbmux.usbmuxd_address() == "/var/run/usbmuxd"
    monkeypatch.setenv("PHONESHELL_USBMUXD", usbmuxd.path)
    assert usbmux.usbmuxd_address() == usbmuxd.path
    assert usbmux.usbmuxd_address("/elsewhere") == "/elsewhere"
    assert len(usbmux.list_phones()) == 2


def test_a_network_phone_and_an_unknown_model() -> None:
    with UsbmuxdStandin([FakePhone("00009999-0000000000000001", product_type="iPhone99,9",
                                   connection="Network")]) as standin:
        (phone,) = usbmux.list_phones(standin.path)
    assert (phone.connection, phone.model, phone.product_type) == (
        "network", "iPhone99,9", "iPhone99,9")


def test_udids_match_with_or_without_the_dash(usbmuxd: UsbmuxdStandin) -> None:
    assert usbmux.phone_info(UDID.replace("-", "").lower(), usbmuxd.path).udid == UDID
    with pytest.raises(DeviceError) as caught:
        usbmux.phone_info("00008150-FFFFFFFFFFFFFFFF", usbmuxd.path)
    assert f"connected: {UDID}, {OLD_UDID}" in caught.value.message


def test_no_usbmuxd_says_so_plainly(tmp_path: Path) -> None:
    missing = tmp_path / "usbmuxd"
    with pytest.raises(DeviceError) as caught:
        usbmux.list_phones(str(missing))
    assert caught.value.message == f"usbmuxd is not running (no socket at {missing})"
    hint = caught.value.hint
    assert "apt install usbmuxd" in hint and "macOS: usbmuxd is built in" in hint
    assert "Trust" in hint


def test_a_dead_socket_is_not_running_either(tmp_path: Path) -> None:
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(tmp_path / "m"))  # bound, never listening: connections are refused
    try:
        with pytest.raises(DeviceError) as caught:
            usbmux.check_usbmuxd(str(tmp_path / "m"))
    finally:
        dead.close()
    assert caught.value.message.startswith(f"usbmuxd is not running (the socket at "
                                           f"{tmp_path / 'm'} does not answer")


def test_nothing_at_a_tcp_address() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(DeviceError, match=rf"nothing answers at 127.0.0.1:{port}"):
        usbmux.connected(f"127.0.0.1:{port}")


def test_wda_over_usbmux_reaches_the_simulator(usbmuxd: UsbmuxdStandin) -> None:
    usbmux.use_usbmuxd_for_wda(usbmuxd.path)
    url = f"http+usbmux://{UDID}:8100"
    assert wda.Client(url).status()["ready"] is True  # the unmodified client, as users use it
    phone = Phone(url, timeout_s=10)
    assert phone.foreground().bundle_id == "com.apple.springboard"
    assert phone.screenshot_png().startswith(b"\x89PNG")


def test_wda_cannot_follow_a_tcp_usbmuxd() -> None:
    with pytest.raises(DeviceError) as caught:
        usbmux.use_usbmuxd_for_wda("127.0.0.1:27015")
    assert "only through a unix socket" in caught.value.message
    assert "socat" in caught.value.hint and "iproxy 8100 8100" in caught.value.hint


def test_a_phone_without_wda_refuses_the_port(empty_usbmuxd: UsbmuxdStandin) -> None:
    empty_usbmuxd.attach(FakePhone(UDID))  # WDA not running on it
    usbmux.use_usbmuxd_for_wda(empty_usbmuxd.path)
    with pytest.raises(DeviceError, match="no answer from WDA at http\\+usbmux://"):
        Phone(f"http+usbmux://{UDID}:8100", timeout_s=5).status()


def test_the_standin_speaks_usbmux_on_the_wire(usbmuxd: UsbmuxdStandin) -> None:
    """Hand-built bytes, so the stand-in is held to the protocol, not to one client's habits."""
    body = plistlib.dumps({"MessageType": "ReadBUID"})
    with socket.socket(socket.AF_UNIX) as conn:
        conn.connect(usbmuxd.path)
        conn.sendall(struct.pack("<IIII", 16 + len(body), 1, 8, 7) + body)
        length, version, message, tag = struct.unpack("<IIII", conn.recv(16, socket.MSG_WAITALL))
        reply = plistlib.loads(conn.recv(length - 16, socket.MSG_WAITALL))
    assert (version, message, tag) == (1, 8, 7) and isinstance(reply["BUID"], str)


def test_listen_reports_phones_as_they_come_and_go(usbmuxd: UsbmuxdStandin) -> None:
    import tidevice

    events = tidevice.Usbmux(usbmuxd.path).watch_device()
    try:
        seen = [next(events), next(events)]
        assert [e["Properties"]["SerialNumber"] for e in seen] == [UDID, OLD_UDID]
        added = usbmuxd.attach(FakePhone("00008110-000A1B2C3D4E5F60"))
        assert next(events) == {"MessageType": "Attached", "DeviceID": added.device_id,
                                "Properties": added.properties()}
        usbmuxd.detach(UDID)
        assert next(events) == {"MessageType": "Detached", "DeviceID": 1}
    finally:
        events.close()


def test_a_bridge_before_a_phone_without_wda_says_nothing_listens(
        empty_usbmuxd: UsbmuxdStandin, tmp_path: Path) -> None:
    """usbmuxd refusing the phone's port raises usbmux's own error, not an OSError: the bridge
    answers it as any silence of WDA's (502, `nothing_listens`), with the USB hint."""
    from bridge.audit_log import AuditWriter
    from bridge.proxy import BridgeServer

    empty_usbmuxd.attach(FakePhone(UDID))  # WDA not running on it
    usbmux.use_usbmuxd_for_wda(empty_usbmuxd.path)
    writer = AuditWriter(tmp_path)
    bridge = BridgeServer(f"http+usbmux://{UDID}:8100", runs_dir=tmp_path, writer=writer)
    try:
        with pytest.raises(wda.WDABadGateway):
            wda.Client(bridge.start().url).status()
        reply = urllib.request.Request(bridge.url + "/status")
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(reply, timeout=10)
        value = json.loads(caught.value.read())["value"]
        assert caught.value.code == 502 and value["nothing_listens"] is True
        assert value["message"].endswith("(is the phone connected and WDA started? `phoneshell "
                                         "doctor` checks the chain)")
    finally:
        bridge.stop()
        writer.close()
