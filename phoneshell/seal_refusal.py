"""How a folder is refused before anything believes it, said for the command refusing it: not
a run folder at all; a run still being written; a run stopped before it sealed what it wrote
last (SIGKILL, a power cut, the OOM killer: `seal.Unsealed`); or a run whose files were changed.

Each command passes what it can do with such a run anyway (`report`: "`--unverified` reports
it anyway, marked"; a `replay:` agent, which has no such option: what it needs instead), so a
hint never names an option the command that printed it does not have (red team 123). Never
touches the device.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from phoneshell.errors import PhoneshellError, RunError
from phoneshell.records import RecordError, RunManifest, read_record
from phoneshell.records.layout import MANIFEST
from phoneshell.runner.folder import writer
from phoneshell.runner.lines import resume_command
from phoneshell.seal import Unsealed, split_unchecked
from phoneshell.untrusted import named

__all__ = ["refuse_mismatch", "refuse_not_a_run", "require_verified"]


def refuse_not_a_run(run_dir: Path, error: type[PhoneshellError] = RunError) -> None:
    """Refuse a folder with no run.json, before asking whether it matches a seal: a folder
    mistyped, or one inside a run, is said as such, never as a run changed after it ran.

    Raises:
        error: `run_dir` holds no run.json (the hint names the run around it, if any).
    """
    path = run_dir / MANIFEST
    if path.is_file():
        return
    what = f"{named(path)} is missing" if run_dir.is_dir() else "there is no such folder"
    around = next((p for p in run_dir.absolute().parents if (p / MANIFEST).is_file()), None)
    raise error(f"{named(run_dir)} is not a run folder: {what}",
                hint="pass folders made by `phoneshell run`, e.g. runs/<run_id>"
                     + (f"; it is inside the run folder {named(around)}" if around else ""))


def refuse_mismatch(run_dir: Path, problems: list[str], anyway: str,
                    error: type[PhoneshellError] = RunError, shown: int = 5) -> PhoneshellError:
    """The error refusing a run folder with `problems` (`seal.verify_run`'s, none `Unchecked`),
    its hint saying what the run's shape tells: still being written (a live writer holds
    run.lock), stopped before it sealed what it wrote last (every problem `Unsealed`, nobody
    writing: what `--resume` sets aside), or changed after the run; then `anyway`.

    Args:
        anyway: what the refusing command can do with the run all the same, in its own
            options ("`--unverified` reports it anyway, marked"), or what it needs instead.
        shown: how many problems the message names.
    """
    listed = "; ".join(problems[:shown]) + (
        f" (and {len(problems) - shown} more)" if len(problems) > shown else "")
    message = f"{named(run_dir)} does not match its seal: {listed}"
    holder = writer(run_dir)
    if holder is not None:
        why = (f"it is still being written, by {holder.describe()}: its seal covers what it "
               "wrote last, not what it is writing now; try again when that run ends")
    elif all(isinstance(line, Unsealed) for line in problems):
        # whole lines after the seal: a run killed between two seals, or lines added whole
        resume = _resume(run_dir)
        why = ("what it holds past its seal was written after the run last sealed it: the run "
               "was stopped before it sealed what it wrote last (killed?), or lines were added "
               "to it" + (f"; if it was stopped, `{resume}` sets that aside and goes on"
                          if resume else ""))
    else:
        why = "its files were changed after the run"
    return error(message, hint=f"{why}; {anyway}")


def _resume(run_dir: Path) -> str:
    """The command that goes on with the run in `run_dir`; "" when the folder is not named as
    its run (a copy, a folder renamed: `--resume` of run.json's id would go on with another
    folder, red team 125)."""
    try:
        run_id = read_record(run_dir / MANIFEST, RunManifest).run_id
    except RecordError:
        return ""
    return resume_command(run_dir.parent, run_id) if run_id == run_dir.name else ""


def require_verified(run_dir: Path, problems: Iterable[str], unverified: bool,
                     warn: Callable[[str], None], anyway: str) -> None:
    """Refuse a folder that is not a run's, or a run with problems, or (with `unverified`)
    warn loudly through `warn(line)`; a check that could not be made (`Unchecked`) is warned of
    either way.

    Args:
        anyway: what the caller's command can do with a run that does not match its seal
            (`refuse_mismatch`).

    Raises:
        RunError: not a run folder; or naming every problem.
    """
    refuse_not_a_run(run_dir)
    found, unchecked = split_unchecked(list(problems))
    for line in unchecked:  # a check that could not be made: said, never the folder's fault
        warn(f"{named(run_dir)}: {line}")
    if not found:
        return
    if not unverified:
        raise refuse_mismatch(run_dir, found, anyway)
    for line in found:
        warn(f"UNVERIFIED {named(run_dir)}: {line}")
