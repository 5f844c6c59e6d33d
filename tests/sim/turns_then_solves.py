"""A command agent that turns the phone to landscape and plays the task's reference finish
(examples/agents/play_solution.py): `before` turns it first, `after` once the finish is played
(and claimed). What a person holding the phone sideways does; `POST /orientation` is allowed."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

from phoneshell.device import Phone
from phoneshell.errors import DeviceError

PLAY = Path(__file__).resolve().parents[2] / "examples" / "agents" / "play_solution.py"


def turn() -> None:
    # On the home screen WDA answers "Unable To Rotate Device" (SpringBoard stays portrait),
    # yet the phone stays turned, so Maps comes up turned when launched.
    with contextlib.suppress(DeviceError):
        Phone(os.environ["PHONESHELL_WDA_URL"]).act("/orientation",
                                                    {"orientation": "LANDSCAPE"})


if __name__ == "__main__":
    if sys.argv[1] == "before":
        turn()
    code = subprocess.call([sys.executable, str(PLAY)])
    if sys.argv[1] == "after":
        turn()
    sys.exit(code)
