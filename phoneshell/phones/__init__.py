"""Finding real phones and checking the chain to them: usbmuxd, lockdown, WDA, the screen.

Rooms:

    usbmux    USB phones through tidevice (udid, name, model, iOS, paired); usbmuxd's address
    resolve   `--device` -> DeviceSpec list (sim, sim:N, URL, UDID, all)
    lock      DeviceLock: one run per phone, across processes, naming the holder
    doctor    diagnose(): usbmuxd -> phone -> paired -> WDA -> ready -> unlocked -> input
    probe     probe_input(): does a gesture reach the screen (harmless home-page swipes)

It never starts WDA (docs/real-device.md says how) and reaches WDA only through
`phoneshell.device.Phone`.
"""

from phoneshell.phones.lock import DeviceLock, Holder
from phoneshell.phones.resolve import DeviceSpec, resolve_devices
from phoneshell.phones.usbmux import PhoneInfo, list_phones

__all__ = ["DeviceLock", "DeviceSpec", "Holder", "PhoneInfo", "list_phones", "resolve_devices"]
