"""A command agent that deletes the owner's note notes.search looks for in notes.create_titled
(with Notes' own Delete, through the bridge), and, in calculator.arithmetic, makes the file its
command line names, then waits for the run to be stopped (once: a resume's replay of that attempt
finds the file and ends at once). Run with `--sandbox none`: it imports phoneshell."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from phoneshell.device import Phone, run_step
from phoneshell.tasks import Step

task = os.environ["PHONESHELL_TASK_ID"]
if task == "notes.create_titled":
    run_step(Phone(os.environ["PHONESHELL_WDA_URL"]), Step("clean_notes", options=(
        ("text", "phoneshell benchmark"), ("keep", "0"))))
elif task == "calculator.arithmetic" and not Path(sys.argv[1]).exists():
    Path(sys.argv[1]).touch()
    time.sleep(60)
