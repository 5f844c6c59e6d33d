"""The doctor's ladder: the simulator (and its faults), and phones on the usbmuxd stand-in."""

from __future__ import annotations

from pathlib import Path

import pytest
from phones.usbmuxd_standin import OLD_UDID, UDID, FakePhone, UsbmuxdStandin

from phoneshell.device import Phone
from phoneshell.device.input_probe import screen_difference
from phoneshell.errors import DeviceError
from phoneshell.phones.doctor import RUNGS, Diagnosis, diagnose, doctor_targets
from phoneshell.phones.resolve import DeviceSpec
from phoneshell.sim import SimServer


def check(device: DeviceSpec, usbmuxd: str | None = None) -> Diagnosis:
    """Diagnose with a short wait for swipes: the simulator shows them at once."""
    return diagnose(device, usbmuxd, timeout_s=10.0, input_timeout_s=0.3)


def statuses(d: Diagnosis) -> dict[str, str]:
    return {r.name: r.status for r in d.rungs}


def check_sim(sim: SimServer) -> Diagnosis:
    return check(DeviceSpec("sim", sim.url, "sim-1"))


def test_a_healthy_simulator_passes_every_rung_it_has(sim: SimServer) -> None:
    d = check_sim(sim)
    assert d.ok and [r.name for r in d.rungs] == list(RUNGS)
    assert statuses(d) == {"usbmuxd": "skipped", "phone": "skipped", "paired": "skipped",
                           "wda": "ok", "ready": "ok", "unlocked": "ok", "input": "ok"}
    assert "a sideways swipe on the home screen changed" in d.rung("input").detail
    assert d.notes == ()  # the iOS 17 note is for real phones
    assert d.lines()[-1] == "result: every check passed"


def test_the_input_probe_is_harmless(sim: SimServer) -> None:
    phone = Phone(sim.url)
    before = phone.screenshot_png()
    assert check_sim(sim).ok
    assert phone.foreground().bundle_id == "com.apple.springboard"
    assert phone.screenshot_png() == before  # back on the first home page, nothing opened
    assert "a sideways swipe" in check_sim(sim).rung("input").detail  # and it repeats


def test_a_locked_phone_fails_the_lock_rung_with_its_fix(sim: SimServer) -> None:
    sim.set_faults(["locked"])
    d = check_sim(sim)
    assert not d.ok
    assert statuses(d)["unlocked"] == "failed" and statuses(d)["input"] == "skipped"
    locked = d.rung("unlocked")
    assert locked.detail.startswith("the phone is locked")
    assert "Auto-Lock" in locked.fix and "Before First Unlock" in locked.fix
    assert d.rung("input").detail == "not checked: unlocked failed"


def test_dropped_writes_fail_the_input_rung(sim: SimServer) -> None:
    sim.set_faults(["drop-writes"])
    d = check_sim(sim)
    assert statuses(d) == {"usbmuxd": "skipped", "phone": "skipped", "paired": "skipped",
                           "wda": "ok", "ready": "ok", "unlocked": "ok", "input": "failed"}
    assert d.rung("input").detail.startswith("input does not reach the screen")
    assert "only a reboot clears it" in d.rung("input").fix


def test_dropped_writes_with_an_app_in_front_fail_at_home(sim: SimServer) -> None:
    Phone(sim.url).launch("com.apple.Preferences")
    sim.set_faults(["drop-writes"])
    d = check_sim(sim)
    assert d.rung("input").detail == ("input does not reach the screen: home was pressed and "
                                      "com.apple.Preferences stayed in front")


def test_wda_gone_fails_the_wda_rung_and_skips_the_rest(sim: SimServer) -> None:
    url = sim.url
    sim.set_faults(["gone"])
    d = check(DeviceSpec("url", url, "phone-1"))
    assert statuses(d) == {"usbmuxd": "skipped", "phone": "skipped", "paired": "skipped",
                           "wda": "failed", "ready": "skipped", "unlocked": "skipped",
                           "input": "skipped"}
    wda = d.rung("wda")
    assert wda.detail.startswith(f"no answer from WDA at {url} to GET /status")
    assert "iproxy 8100 8100" in wda.fix and "stale iproxy" in wda.fix
    assert "Enable UI Automation" in wda.fix
    assert "FAILED   wda" in "\n".join(d.lines())


def test_a_usb_phone_through_usbmuxd_to_the_simulator(usbmuxd: UsbmuxdStandin) -> None:
    (target,) = doctor_targets(UDID, usbmuxd.path)
    d = check(target, usbmuxd.path)
    assert d.ok and all(r.status == "ok" for r in d.rungs), d.lines()
    assert d.rung("usbmuxd").detail == f"usbmuxd answers at {usbmuxd.path}"
    assert d.rung("phone").detail == f"{UDID}: iPhone 17 Pro 'Bench iPhone', iOS 26.2, usb"
    assert d.rung("wda").detail.startswith(f"WDA answers /status at http+usbmux://{UDID}:8100")
    # A real phone on iOS 26: how WDA gets started there, and that a URL is all phoneshell needs.
    (note,) = d.notes
    assert note.startswith("iOS 26.2: tidevice cannot start WDA on iOS 17 and later")
    assert "xcodebuild test-without-building" in note and f"id={UDID}" in note
    assert d.to_json()["ok"] is True and d.to_json()["rungs"][0]["name"] == "usbmuxd"


def test_a_phone_that_does_not_trust_us_and_runs_no_wda(usbmuxd: UsbmuxdStandin) -> None:
    (target,) = doctor_targets(OLD_UDID, usbmuxd.path)
    d = check(target, usbmuxd.path)
    assert statuses(d) == {"usbmuxd": "ok", "phone": "ok", "paired": "failed", "wda": "failed",
                           "ready": "skipped", "unlocked": "skipped", "input": "skipped"}
    assert "Trust This Computer?" in d.rung("paired").fix
    assert d.rung("wda").detail.startswith("nothing listens on port 8100 of the phone "
                                           "(usbmuxd: connection refused)")
    assert f"tidevice -u {OLD_UDID} xctest" in d.rung("wda").fix  # iOS 16: tidevice can
    assert d.notes == ()


def test_ios_17_without_wda_says_to_start_it_from_a_mac(
        empty_usbmuxd: UsbmuxdStandin) -> None:
    empty_usbmuxd.attach(FakePhone(UDID, ios_version="17.5.1"))
    (target,) = doctor_targets(None, empty_usbmuxd.path)
    d = check(target, empty_usbmuxd.path)
    assert statuses(d)["wda"] == "failed"
    assert "from a Mac: `xcodebuild test-without-building" in d.rung("wda").fix
    assert "tidevice cannot on iOS 17+" in d.rung("wda").fix
    assert d.notes[0].startswith("iOS 17.5.1:")


def test_a_udid_that_is_not_connected(usbmuxd: UsbmuxdStandin) -> None:
    (target,) = doctor_targets("00008150-0000000000000000", usbmuxd.path)
    d = check(target, usbmuxd.path)
    assert statuses(d)["phone"] == "failed" and statuses(d)["wda"] == "skipped"
    assert f"(connected: {UDID}, {OLD_UDID})" in d.rung("phone").detail
    assert "data cable" in d.rung("phone").fix


def test_no_phone_plugged_in(empty_usbmuxd: UsbmuxdStandin) -> None:
    (target,) = doctor_targets(None, empty_usbmuxd.path)
    assert (target.kind, target.url) == ("usb", "")
    d = check(target, empty_usbmuxd.path)
    assert d.rung("phone").detail == f"no phone is connected to usbmuxd at {empty_usbmuxd.path}"


def test_no_usbmuxd(tmp_path: Path) -> None:
    (target,) = doctor_targets(UDID, str(tmp_path / "usbmuxd"))
    d = check(target, str(tmp_path / "usbmuxd"))
    assert statuses(d) == {"usbmuxd": "failed", **{n: "skipped" for n in RUNGS[1:]}}
    assert d.rung("usbmuxd").detail == f"usbmuxd is not running (no socket at {tmp_path}/usbmuxd)"
    assert "apt install usbmuxd" in d.rung("usbmuxd").fix


def test_targets_for_each_spec(usbmuxd: UsbmuxdStandin) -> None:
    assert [t.udid for t in doctor_targets(None, usbmuxd.path)] == [UDID, OLD_UDID]
    assert doctor_targets("sim", usbmuxd.path) == [DeviceSpec("sim", "", "sim-1")]
    assert doctor_targets("http://127.0.0.1:1", usbmuxd.path)[0].kind == "url"
    with pytest.raises(Exception, match="must be 1 to 16"):
        doctor_targets("sim:0")


def test_screen_difference_measures_the_share_that_changed(sim: SimServer) -> None:
    phone = Phone(sim.url)
    home = phone.screenshot_png()
    assert screen_difference(home, home) == 0.0
    phone.launch("com.apple.Preferences")
    assert screen_difference(home, phone.screenshot_png()) > 0.5
    with pytest.raises(DeviceError, match="not a readable PNG"):
        screen_difference(home, b"not a png")
