"""What `swap` and `attack` say when phones stopped before every finish was played: the hint
follows why each stopped (`replays.Swapper.stopped`), never one piece of advice for all. Only a
phone that went down is sent to `phoneshell doctor`; a stop signal is told to run again; a full
disk never gets here (it ends the command as an OSError: `cli.disk_full`), nor does a bad task
file (refused before any phone is touched, naming its file and line)."""

from __future__ import annotations

from phoneshell.errors import RunError

PHONE_DOWN = ("rig down: ", "the phone stopped answering")
"""How a phone's own stop begins (`runner.attempt`'s skip reason, `replays.Swapper._put_back`)."""
INTERRUPTED = "interrupted ("
"""How a stop by Ctrl-C, SIGTERM or SIGHUP begins (`runner.stop.stopped_by`)."""


def stopped_early(command: str, why: str, not_played: str) -> RunError:
    """The error for a `command` whose phones stopped for `why` (their reasons joined by "; "),
    with `not_played` saying what became of what was not played."""
    starts = [part.strip() for part in why.split(";")]
    advice = []
    if any(part.startswith(PHONE_DOWN) for part in starts):
        advice.append("`phoneshell doctor` checks the chain to the phone")
    if any(part.startswith(INTERRUPTED) for part in starts):
        advice.append(f"it was stopped by a signal: run the {command} again to play the rest")
    return RunError(f"the {command} stopped early: {why}", hint="; ".join([*advice, not_played]))


__all__ = ["stopped_early"]
