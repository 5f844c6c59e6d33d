"""`phoneshell devices` (list USB iPhones) and `phoneshell doctor` (check the chain to one)."""

from __future__ import annotations

import argparse
import dataclasses
import json
from contextlib import ExitStack
from typing import Any

from phoneshell.cli.options import add_device_option
from phoneshell.phones import usbmux
from phoneshell.phones.doctor import diagnose, doctor_targets
from phoneshell.phones.open import start_sim
from phoneshell.phones.resolve import DeviceSpec

EXIT_OK, EXIT_FAILED = 0, 1


def add_parsers(commands: Any) -> None:
    """Register `devices` and `doctor`."""
    p = commands.add_parser("devices", help="list the iPhones connected over USB (usbmuxd)")
    _usbmuxd_option(p)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run_devices)

    d = commands.add_parser("doctor", help="check the chain to a phone: usbmuxd, trust, WDA, "
                                           "lock, input; with the fix for each failure")
    add_device_option(d, default="all connected USB phones")
    _usbmuxd_option(d)
    d.add_argument("--input-timeout", type=float, default=3.0, metavar="SECONDS",
                   help="how long a swipe may take to show on the screen (default: 3)")
    d.add_argument("--format", choices=("text", "json"), default="text")
    d.set_defaults(run=run_doctor)


def _usbmuxd_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--usbmuxd", metavar="PATH|HOST:PORT",
                   help=f"usbmuxd's socket (default: ${usbmux.ENV_USBMUXD}, else "
                        f"{usbmux.DEFAULT_USBMUXD})")


def run_devices(args: argparse.Namespace) -> int:
    """List phones; a missing usbmuxd is a DeviceError (exit 2, with the setup hint)."""
    phones = usbmux.list_phones(args.usbmuxd)
    where = usbmux.usbmuxd_address(args.usbmuxd)
    if args.format == "json":
        print(json.dumps({"usbmuxd": where, "phones": [p.to_json() for p in phones]},
                         indent=2))
        return EXIT_OK
    if not phones:
        print(f"no iPhone connected (usbmuxd at {where} lists none): plug one in with a data "
              "cable, unlock it and trust this computer")
        return EXIT_OK
    rows = [("UDID", "NAME", "MODEL", "IOS", "CONNECTION", "PAIRED")]
    for p in phones:
        model = f"{p.model} ({p.product_type})" if p.model != p.product_type else p.model
        rows.append((p.udid, p.name or "?", model or "?", p.ios_version or "?", p.connection,
                     "yes" if p.paired else "no"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    for p in phones:
        if not p.paired:
            print(f"{p.udid} does not trust this computer yet: unlock it and tap Trust")
        if p.error:
            print(f"{p.udid}: {p.error}")
    return EXIT_OK


def run_doctor(args: argparse.Namespace) -> int:
    """Diagnose each target; exit 0 when every rung of every device passed, else 1."""
    targets = doctor_targets(args.device, args.usbmuxd)
    with ExitStack() as stack:
        started = [_started(t, stack) for t in targets]
        diagnoses = [diagnose(t, args.usbmuxd, input_timeout_s=args.input_timeout)
                     for t in started]
    ok = all(d.ok for d in diagnoses)
    if args.format == "json":
        print(json.dumps({"ok": ok, "devices": [d.to_json() for d in diagnoses]}, indent=2))
    else:
        for n, diagnosis in enumerate(diagnoses):
            if n:
                print()
            print("\n".join(diagnosis.lines()))
        if args.device is None and not ok and targets[0].url == "":
            print("(no --device given: checked USB phones through usbmuxd; `phoneshell doctor "
                  "--device sim` checks the simulated iPhone, `--device URL` a WDA you started)")
    return EXIT_OK if ok else EXIT_FAILED


def _started(target: DeviceSpec, stack: ExitStack) -> DeviceSpec:
    """The target itself, or for `sim` a simulated iPhone started for the check."""
    if target.kind != "sim":
        return target
    return dataclasses.replace(target, url=stack.enter_context(start_sim()))
