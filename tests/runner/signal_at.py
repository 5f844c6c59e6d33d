"""Run `phoneshell` in this process with SIGTERM sent to itself at one exact point, as a CI
timeout could land there (only the signal's timing is arranged; everything else is real).

  signal_at.py WHERE MARK [N] -- ARGS...

WHERE: `teardown` (as an attempt's teardown starts), `finish` (as the run's closing tidy-up
starts), `rename` (right after a skipped try's folder is moved aside). The patched step sends
SIGTERM N times (default 1), sleeps a little (the handler runs then), carries on, and writes
MARK once it has run whole: a MARK that is missing means the step was cut short.
"""

import os
import signal
import sys
import time
from pathlib import Path

where, mark, times = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
args = sys.argv[sys.argv.index("--") + 1:]


def fire() -> None:
    for _ in range(times):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.2)  # the handler runs here: a step not protected is cut short now


def around(real):  # type: ignore[no-untyped-def]
    fired: list[int] = []

    def step(*a, **k):  # type: ignore[no-untyped-def]
        if not fired:
            fired.append(1)
            fire()
            out = real(*a, **k)
            mark.write_text("whole")
            return out
        return real(*a, **k)
    return step


if where == "teardown":
    import phoneshell.runner.ending as ending
    ending.run_teardown = around(ending.run_teardown)
elif where == "finish":
    from phoneshell.runner.tidy import PhoneTidy
    PhoneTidy.finish = around(PhoneTidy.finish)  # type: ignore[method-assign]
elif where == "rename":
    real_rename = Path.rename

    def rename(self: Path, target: Path) -> Path:  # type: ignore[no-redef]
        out = real_rename(self, target)
        if ".skipped-" in str(target):
            mark.write_text("renamed")
            fire()
        return out
    Path.rename = rename  # type: ignore[method-assign]

from phoneshell.cli import main  # noqa: E402

sys.exit(main(args))
