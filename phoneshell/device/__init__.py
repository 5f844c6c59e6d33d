"""A phone over facebook-wda: run steps and prove their effect, capture evidence.

Used for the harness's own steps (setup, teardown, probes), for the reference finish (the
solution agent) and for capture. Reads never create a WDA session.
"""

from phoneshell.device import alarms, pickers  # noqa: F401  (register set_picker, clean_alarms)
from phoneshell.device.capture import capture_evidence, needs_of
from phoneshell.device.phone import SPRINGBOARD, Phone
from phoneshell.device.steps import EXECUTORS, run_step, run_steps

__all__ = ["EXECUTORS", "SPRINGBOARD", "Phone", "capture_evidence", "needs_of", "run_step",
           "run_steps"]
