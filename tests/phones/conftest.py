"""Fixtures for finding phones: a simulated iPhone, a usbmuxd stand-in with fake phones on it.

The stand-in (`usbmuxd_standin.py`) speaks the real usbmux protocol on a unix socket, so tidevice
and facebook-wda reach it unmodified; a fake phone's WDA port is relayed to the simulator.
Pointing facebook-wda at the stand-in is process-wide, so it is undone after every test.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from phones.usbmuxd_standin import OLD_UDID, UDID, FakePhone, UsbmuxdStandin
from wda.usbmux.pyusbmux import MuxConnection

from phoneshell.sim import SimServer


@pytest.fixture(autouse=True)
def _wda_usbmuxd_restored(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No test sees the developer's PHONESHELL_USBMUXD, or another test's usbmuxd for wda."""
    monkeypatch.delenv("PHONESHELL_USBMUXD", raising=False)
    saved = MuxConnection.USBMUXD_PIPE
    try:
        yield
    finally:
        MuxConnection.USBMUXD_PIPE = saved




@pytest.fixture
def usbmuxd(sim: SimServer) -> Iterator[UsbmuxdStandin]:
    """A usbmuxd with two phones: UDID, paired, on iOS 26, whose WDA is the simulator; and
    OLD_UDID, an iPhone 8 on iOS 16 that has not trusted this computer and runs no WDA."""
    standin = UsbmuxdStandin([
        FakePhone(UDID, name="Bench iPhone", product_type="iPhone18,1", ios_version="26.2",
                  wda=sim.url),
        FakePhone(OLD_UDID, name="Old Phone", product_type="iPhone10,1", ios_version="16.7.10",
                  paired=False)])
    standin.start()
    try:
        yield standin
    finally:
        standin.stop()


@pytest.fixture
def empty_usbmuxd() -> Iterator[UsbmuxdStandin]:
    """A usbmuxd with no phone plugged in."""
    with UsbmuxdStandin() as standin:
        yield standin
