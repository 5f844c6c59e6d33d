"""`--device` specs: simulators, URLs, udids and `all`, resolved against the usbmuxd stand-in."""

from __future__ import annotations

from pathlib import Path

import pytest
from phones.usbmuxd_standin import OLD_UDID, UDID, UsbmuxdStandin
from wda.usbmux.pyusbmux import MuxConnection

from phoneshell.errors import DeviceError
from phoneshell.phones.resolve import DeviceSpec, resolve_devices


def test_sim_is_a_marker_for_the_caller_to_start() -> None:
    assert resolve_devices(None) == [DeviceSpec("sim", "", "sim-1")]
    assert resolve_devices("sim") == [DeviceSpec("sim", "", "sim-1")]
    assert [d.label for d in resolve_devices("sim:3")] == ["sim-1", "sim-2", "sim-3"]
    assert resolve_devices("sim")[0].lock_key == ""
    for bad in ("sim:0", "sim:17", "sim:x"):
        with pytest.raises(DeviceError, match="must be 1 to 16"):
            resolve_devices(bad)


def test_urls_pass_through_with_a_lock_key() -> None:
    (spec,) = resolve_devices("http://127.0.0.1:8100/")
    assert (spec.kind, spec.url, spec.udid, spec.lock_key) == (
        "url", "http://127.0.0.1:8100", "", "loopback:8100")
    assert resolve_devices("https://phone.lan")[0].lock_key == "phone.lan:443"  # unresolved
    with pytest.raises(DeviceError, match="names no host"):
        resolve_devices("http://")


def test_a_usbmux_url_locks_its_udid_and_points_wda_at_our_usbmuxd(
        usbmuxd: UsbmuxdStandin) -> None:
    (spec,) = resolve_devices(f"http+usbmux://{UDID}:8100", usbmuxd=usbmuxd.path)
    assert (spec.kind, spec.udid, spec.via_usbmux) == ("url", UDID, True)
    assert spec.lock_key == UDID.replace("-", "").lower()
    assert usbmuxd.path == MuxConnection.USBMUXD_PIPE
    with pytest.raises(DeviceError, match="needs WDA's port"):
        resolve_devices(f"http+usbmux://{UDID}", usbmuxd=usbmuxd.path)


def test_a_udid_becomes_a_usbmux_url(usbmuxd: UsbmuxdStandin) -> None:
    (spec,) = resolve_devices(UDID, usbmuxd=usbmuxd.path)
    assert (spec.kind, spec.url, spec.udid) == ("usb", f"http+usbmux://{UDID}:8100", UDID)
    assert spec.phone is not None and spec.phone.model == "iPhone 17 Pro"
    assert spec.lock_key == resolve_devices(f"http+usbmux://{UDID}:8100",
                                            usbmuxd=usbmuxd.path)[0].lock_key
    assert resolve_devices(UDID, usbmuxd=usbmuxd.path, wda_port=8200)[0].url.endswith(":8200")
    assert usbmuxd.path == MuxConnection.USBMUXD_PIPE


def test_the_environment_names_usbmuxd(usbmuxd: UsbmuxdStandin,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHONESHELL_USBMUXD", usbmuxd.path)
    assert resolve_devices(OLD_UDID)[0].udid == OLD_UDID


def test_an_unknown_udid_lists_the_connected_ones(usbmuxd: UsbmuxdStandin) -> None:
    with pytest.raises(DeviceError) as caught:
        resolve_devices("00008150-0000000000000000", usbmuxd=usbmuxd.path)
    assert caught.value.message == (
        f"no phone with udid 00008150-0000000000000000 is connected to usbmuxd at "
        f"{usbmuxd.path} (connected: {UDID}, {OLD_UDID})")
    assert "phoneshell devices" in caught.value.hint


def test_all_is_every_connected_phone(usbmuxd: UsbmuxdStandin) -> None:
    specs = resolve_devices("all", usbmuxd=usbmuxd.path)
    assert [(s.kind, s.udid, s.label) for s in specs] == [("usb", UDID, "phone-1"),
                                                          ("usb", OLD_UDID, "phone-2")]
    assert len({s.lock_key for s in specs}) == 2


def test_all_with_no_phone_is_an_error(empty_usbmuxd: UsbmuxdStandin) -> None:
    with pytest.raises(DeviceError, match="--device all: no phone is connected"):
        resolve_devices("all", usbmuxd=empty_usbmuxd.path)


def test_a_udid_without_usbmuxd(tmp_path: Path) -> None:
    with pytest.raises(DeviceError, match="usbmuxd is not running"):
        resolve_devices(UDID, usbmuxd=str(tmp_path / "none"))


def test_a_tcp_usbmuxd_cannot_serve_wda_urls() -> None:
    with pytest.raises(DeviceError, match="only through a unix socket"):
        resolve_devices(f"http+usbmux://{UDID}:8100", usbmuxd="127.0.0.1:27015")


def test_anything_else_says_what_is_accepted() -> None:
    with pytest.raises(DeviceError) as caught:
        resolve_devices("my-iphone")
    assert "not sim, sim:N, a WDA URL, a udid or all" in caught.value.message
