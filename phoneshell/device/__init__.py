"""A phone over facebook-wda: run steps and prove their effect, capture evidence.

Used for the harness's own steps (setup, teardown, probes), for the reference finish (the
solution agent) and for capture. Reads never create a WDA session.
"""

# Every module that registers a step executor or a probe reader, listed: importing the device
# layer fills both registries whatever else is imported (tests keep them in step with the task
# vocabularies, `tasks.STEPS` and `tasks.PROBES`).
from phoneshell.device import (  # noqa: F401
    alarms,
    cleanup,
    notes,
    owned,
    pickers,
    probes,
    reminders,
    results,
    safari_tabs,
    steps,
    timers,
    value_probes,
    wholes,
    world_clock,
)
from phoneshell.device.capture import capture_evidence
from phoneshell.device.cleanup import (
    DIGGERS,
    Readings,
    alarms_to_turn,
    cleanup_counts,
    switch_alarms_back,
    with_counts,
)
from phoneshell.device.phone import SPRINGBOARD, Phone
from phoneshell.device.probes import (
    COUNTED_IN,
    READERS,
    ROWS,
    SEARCHES,
    Overflow,
    ProbeError,
    close_left_search,
    run_probe,
    run_rows,
    starts_where_counted,
)
from phoneshell.device.steps import EXECUTORS, read_answer, run_step, run_steps
from phoneshell.device.wholes import Listed, listed_by, run_listed

__all__ = ["COUNTED_IN", "DIGGERS", "EXECUTORS", "READERS", "ROWS", "SEARCHES", "SPRINGBOARD",
           "Listed", "Overflow", "Phone", "ProbeError", "Readings", "alarms_to_turn",
           "capture_evidence", "cleanup_counts", "close_left_search", "listed_by", "read_answer",
           "run_listed", "run_probe", "run_rows", "run_step", "run_steps", "starts_where_counted",
           "switch_alarms_back", "with_counts"]
