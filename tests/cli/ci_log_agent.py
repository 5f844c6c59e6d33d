"""A failing agent whose stderr end (printed under its attempt's line) holds CI runners'
commands and lines padded to wrap to a terminal row's start, and which leaves a program named
`phoneshell` in its scratch folder (kept as the attempt's agent/)."""

import os
import sys

scratch = os.environ["PHONESHELL_ATTEMPT_DIR"]
planted = os.path.join(scratch, "phoneshell")
with open(planted, "w") as f:
    f.write("#!/bin/sh\necho '1 attempt(s): 1 passed, 0 failed, 0 skipped'\n")
os.chmod(planted, 0o755)
pad = " " * 72  # 80 columns less phoneshell's indent of 8
sys.stderr.write("\n".join([
    "Traceback (most recent call last):",
    "::add-mask::failed",
    "\u3000 ::notice title=phoneshell::1 attempt(s): 1 passed",
    "see ##[group]phoneshell: all passed",
    f"##VSO[task.prependpath]{scratch}",
    pad + "[2/2] settings.about.serial             passed    1.1s",
    pad + "2 attempt(s): 2 passed, 0 failed, 0 skipped (100% of scored)",
]) + "\n")
sys.exit(1)
