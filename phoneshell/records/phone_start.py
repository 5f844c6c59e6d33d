"""phone-start-PHONE.json: what a run counted on one phone before its first attempt, kept so a
resumed run starts from what the run first found, not from what its own agents left."""

from __future__ import annotations

from typing import ClassVar

from phoneshell.records.base import Part, Record

PHONE_START_VERSION = 1


def phone_start_name(udid_sha256: str) -> str:
    """The file in the run folder holding the start counts of the phone whose udid hashes to
    `udid_sha256` (a phone that reports none: `phone-start.json`)."""
    return f"phone-start-{udid_sha256[:16]}.json" if udid_sha256 else "phone-start.json"


class StartCount(Part):
    """One count the run took before its first attempt on the phone."""

    name: str
    """The probe's name (`phoneshell probes`)."""
    arg: str = ""
    """Its argument ("" when it takes none)."""
    value: int
    """What it counted."""
    rows: tuple[str, ...] | None = None
    """The rows it listed, for a probe that lists them (null: it lists none)."""


class PhoneStart(Record):
    """phone-start-PHONE.json, written once when the run first counts the phone; a resume reads
    it (a run folder from before it was kept has none: the resume says what it cannot know)."""

    VERSION: ClassVar[int] = PHONE_START_VERSION
    version: int = PHONE_START_VERSION
    """Format version (1)."""
    run_id: str
    """The run it belongs to."""
    udid_sha256: str
    """A hash of the phone's udid, as run.json's devices have it ("": it reports none)."""
    counts: tuple[StartCount, ...]
    """Every count the run's tasks take that could be read before the first attempt."""
