"""The judges room reads files and talks to judges; it never touches a phone."""

from __future__ import annotations

from test_architecture import files_under, imports_of

DEVICE_SIDE = ("phoneshell.device", "phoneshell.sim", "phoneshell.phones", "bridge", "wda",
               "tidevice")


def test_judges_never_import_the_device_side() -> None:
    offenders = [f"{path.name} imports {name}" for path in files_under("phoneshell/judges")
                 for name in imports_of(path)
                 if any(name == d or name.startswith(d + ".") for d in DEVICE_SIDE)]
    assert offenders == []
