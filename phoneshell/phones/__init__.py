"""The phones there are and how to reach them: found over USB, named by `--device`, opened for
a run (simulated ones started), held by one run at a time, checked end to end.

Rooms:

    usbmux    USB phones through tidevice (udid, name, model, iOS, paired); usbmuxd's address
    resolve   `--device` -> DeviceSpec list (sim, sim:N, URL, UDID, all)
    lock      DeviceLock: one run per phone, across processes, naming the holder
    doctor    diagnose(): usbmuxd -> phone -> paired -> WDA -> ready -> unlocked -> input
    open      open_phones(): the phones of a run, started (sims) or locked (real), described

It never starts WDA (docs/real-device.md says how) and reaches WDA only through
`phoneshell.device.Phone`.
"""

from phoneshell.phones.lock import DeviceLock, Holder
from phoneshell.phones.resolve import DeviceSpec, resolve_devices
from phoneshell.phones.usbmux import PhoneInfo, list_phones

__all__ = ["DeviceLock", "DeviceSpec", "Holder", "PhoneInfo", "list_phones", "resolve_devices"]
