"""`phoneshell devices` and `phoneshell doctor` as a user runs them: subprocesses, exit codes."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from phones.usbmuxd_standin import OLD_UDID, UDID, UsbmuxdStandin

ROOT = Path(__file__).resolve().parents[2]


def phoneshell(*args: str, usbmuxd: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    env.pop("PHONESHELL_USBMUXD", None)
    if usbmuxd is not None:
        env["PHONESHELL_USBMUXD"] = usbmuxd
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=120)


@pytest.mark.slow  # 1.5 s measured: the README's command stays quick
def test_devices_lists_the_phones(usbmuxd: UsbmuxdStandin) -> None:
    done = phoneshell("devices", usbmuxd=usbmuxd.path)
    assert done.returncode == 0, done.stderr
    head, bench, old, *rest = done.stdout.splitlines()
    assert head.split() == ["UDID", "NAME", "MODEL", "IOS", "CONNECTION", "PAIRED"]
    assert bench.startswith(UDID) and "iPhone 17 Pro (iPhone18,1)" in bench
    assert bench.split()[-3:] == ["26.2", "usb", "yes"]
    assert old.startswith(OLD_UDID) and old.split()[-3:] == ["16.7.10", "usb", "no"]
    assert rest == [f"{OLD_UDID} does not trust this computer yet: unlock it and tap Trust"]


def test_devices_as_json(usbmuxd: UsbmuxdStandin) -> None:
    done = phoneshell("devices", "--format", "json", "--usbmuxd", usbmuxd.path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["usbmuxd"] == usbmuxd.path
    assert report["phones"][0] == {"udid": UDID, "name": "Bench iPhone", "model": "iPhone 17 Pro",
                                   "product_type": "iPhone18,1", "ios": "26.2",
                                   "connection": "usb", "paired": True, "error": ""}
    assert report["phones"][1]["paired"] is False


def test_devices_with_no_phone(empty_usbmuxd: UsbmuxdStandin) -> None:
    done = phoneshell("devices", usbmuxd=empty_usbmuxd.path)
    assert done.returncode == 0
    assert done.stdout.startswith("no iPhone connected")


def test_devices_without_usbmuxd_exits_2_and_says_why(tmp_path: Path) -> None:
    done = phoneshell("devices", usbmuxd=str(tmp_path / "usbmuxd"))
    assert done.returncode == 2 and done.stdout == ""
    error, hint = done.stderr.splitlines()
    assert error == f"error: usbmuxd is not running (no socket at {tmp_path}/usbmuxd)"
    assert hint.startswith("hint: Linux: `sudo apt install usbmuxd`")


def test_doctor_on_the_simulator_passes() -> None:
    done = phoneshell("doctor", "--device", "sim")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("doctor: sim-1 at http://127.0.0.1:")
    assert any(line.split()[:2] == ["ok", "input"] for line in lines)
    assert lines[-1] == "result: every check passed"


def test_doctor_on_a_dead_url_exits_1_with_the_fix() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = phoneshell("doctor", "--device", f"http://127.0.0.1:{port}")
    assert done.returncode == 1, done.stderr
    assert f"FAILED   wda       no answer from WDA at http://127.0.0.1:{port}" in done.stdout
    assert "fix: start WDA on the phone and forward its port here" in done.stdout
    assert done.stdout.splitlines()[-1] == "result: 1 of 7 checks failed"


def test_doctor_reaches_a_usb_phone_over_usbmux(usbmuxd: UsbmuxdStandin) -> None:
    done = phoneshell("doctor", "--device", UDID, "--format", "json", usbmuxd=usbmuxd.path)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    (device,) = report["devices"]
    assert report["ok"] is True and device["url"] == f"http+usbmux://{UDID}:8100"
    assert [r["status"] for r in device["rungs"]] == ["ok"] * 7
    assert device["notes"][0].startswith("iOS 26.2: tidevice cannot start WDA")


def test_doctor_with_no_device_and_no_usbmuxd(tmp_path: Path) -> None:
    done = phoneshell("doctor", usbmuxd=str(tmp_path / "usbmuxd"))
    assert done.returncode == 1
    assert "FAILED   usbmuxd   usbmuxd is not running" in done.stdout
    assert "`phoneshell doctor --device sim` checks the simulated iPhone" in done.stdout
