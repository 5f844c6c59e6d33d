"""What `swap` and `attack` say when phones stopped before every finish was played: the hint
follows what stopped each (`replays.Stopped.kinds`), never one piece of advice for all. Only a
phone that went down is sent to `phoneshell doctor`; one the run folder stopped (its storage, a
write taken away: `runner.unwritten`) is told what mends that (`unwritten.mended`); a stop
signal is told to run again; a bad task file never gets here (refused before any phone is
touched, naming its file and line)."""

from __future__ import annotations

from phoneshell.errors import RunError
from phoneshell.replays import Stopped
from phoneshell.runner.unwritten import mended, said_error


def stopped_early(command: str, stopped: Stopped, not_played: str) -> RunError:
    """The error for a `command` whose phones stopped (`stopped`), with `not_played` saying
    what became of what was not played."""
    advice = []
    if "down" in stopped.kinds:
        advice.append("`phoneshell doctor` checks the chain to the phone")
    if "folder" in stopped.kinds:
        advice.append(f"{mended(said_error(stopped.why))}, then run the {command} again")
    if "interrupted" in stopped.kinds:
        advice.append(f"it was stopped by a signal: run the {command} again to play the rest")
    return RunError(f"the {command} stopped early: {stopped.why}",
                    hint="; ".join([*advice, not_played]))


__all__ = ["stopped_early"]
