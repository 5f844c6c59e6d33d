"""What a run counted on each phone before its first attempt, kept in the run folder
(`records.PhoneStart`) and read back by `--resume`: a resumed run starts from what the run first
found, so what its own agents left or deleted before the stop is never taken for the owner's.

Never decides an outcome: it sets the rig's start counts (`Rig.started`), which `runner.counts`
reads."""

from __future__ import annotations

import hashlib
from pathlib import Path

from phoneshell.checks import Need
from phoneshell.checks.effects import counted
from phoneshell.device import ProbeError
from phoneshell.errors import DeviceError
from phoneshell.records import (
    PhoneStart,
    RecordError,
    StartCount,
    file_size,
    phone_start_name,
    read_record,
    write_record,
)
from phoneshell.records.layout import RESULTS
from phoneshell.runner.counts import BEFORE_RESUME, Counts, as_started
from phoneshell.runner.rig import Rig


def phone_key(rig: Rig) -> str:
    """The sha256 of the phone's udid, as WDA's /status has it ("" when it has none)."""
    try:
        ios = rig.phone.status().get("ios")
    except (DeviceError, ProbeError):
        return ""
    udid = str(ios.get("udid", "")) if isinstance(ios, dict) else ""
    return hashlib.sha256(udid.encode()).hexdigest() if udid else ""


def keep_start(rig: Rig, run_id: str, counts: Counts) -> tuple[bool, str]:
    """Just after the run's start counts (`counts.count_start`): in a new run, write them to the
    run folder; in a resumed one, read what the run counted when it began and make the rig start
    from that, with `counts` (taken now) as what the phone holds after the agents before the
    stop. Whether the start counts are the run's first, and a line for the user ("" when there
    is nothing to say).

    Raises:
        OSError: the run folder refused the record (`unwritten.folder_error` says it).
    """
    with rig.under_run(run_id, "probe"):
        key = phone_key(rig)
    run_dir = rig.bridge.writer.runs_dir / run_id
    path = run_dir / phone_start_name(key)
    if path.exists():
        try:
            record = read_record(path, PhoneStart)
        except RecordError as exc:
            return False, (f"what the phone held when the run began cannot be read ({exc}): its "
                           "counts are taken again now, so what its agents left or deleted "
                           "before the resume is taken for the phone's own")
        return True, _resume_from(rig, record, counts, path)
    if not run_dir.is_dir():  # a replay that keeps no folder of its own
        return True, ""
    if file_size(run_dir / RESULTS):
        return False, (
            f"this run's folder keeps no record of what the phone held when the run began "
            f"({path.name}: a run begun before phoneshell kept one): its counts are taken "
            "again now, so what its agents left or deleted before the resume is taken for the "
            "phone's own (a task that starts from it is not scored, where it should fail)")
    write_record(path, PhoneStart(run_id=run_id, udid_sha256=key, counts=tuple(
        StartCount(name=need.name, arg=need.arg, value=value, rows=rows)
        for need, (value, rows) in rig.started.items())))
    return True, ""


def _resume_from(rig: Rig, record: PhoneStart, now: Counts, path: Path) -> str:
    """Make the rig start from `record` (what the run counted when it began), with `now` what
    the phone holds at the resume; the line that says what changed in between."""
    rig.turns.append(BEFORE_RESUME)
    changed: list[str] = []
    for one in record.counts:
        need = Need("probe", one.name, one.arg)
        rig.started[need] = (one.value, one.rows)
        rig.counted.add(need)
        if one.rows is not None:
            rig.listed[need] = one.rows
        found = now[need].value if need in now else None
        if found is not None and as_started(rig, need, found):
            rig.as_started[need] = len(rig.turns)  # as the run began, after the agents
        else:
            rig.as_started[need] = 0
            if one.value and found == 0:
                rig.lost.add(need)
        if found != one.value:
            changed.append(f"{counted(need)} {one.value} then, "
                           f"{found if found is not None else 'uncountable'} now")
    if not changed:
        return ""
    return (f"resumed from what the run counted on this phone when it began ({path.name}), "
            f"not from now: {', '.join(changed)} (its agents' doing before the resume)")

