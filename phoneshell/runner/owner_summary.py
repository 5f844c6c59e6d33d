"""The run's end of the owner watch (`runner.owner`): what the run's agents changed of the
owner's collections, from what was last read of each, never from the last state read row by
row: a collection that cannot be read row by row at the end is said as it reads, never as put
back (red team 64: 70 reminders an agent made were left, and the run said all was put back);
and what a teardown could not set back of what an agent changed (a Settings value, a state of
the phone, WDA's settings: `Teardown.stays`), which stays so (red team 87: Brightness was left
at 10%, and the run's end said nothing)."""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence

from phoneshell.checks import Need
from phoneshell.runner.counts import Count, take_counts
from phoneshell.runner.owner_blind import left
from phoneshell.runner.rig import Rig


def summary(rig: Rig, run_id: str, start: Mapping[str, Count], last: MutableMapping[str, Count],
            said: Sequence[str], hidden: Sequence[str], stays_too: str = "",
            unset: Sequence[str] = ()) -> str:
    """What the run's agents changed (`said`) of the owner's collections, for the run's end (""
    when nothing). Those last read (`last`, updated) otherwise than the run found them
    (`start`), or not read row by row, are read again (logged under the run, phase
    `teardown`): the run's own tidying may have put them back since (`tidy`). What the log
    shows changed where no row shows it (`hidden`) is said as what may still differ, and
    `stays_too` (the timer's duration: `owner_timer.Wheels.end`) as what stays, as is what a
    teardown could not set back (`unset`), changed or not."""
    if not said:
        return (f"what the run's agents changed could not all be set back; still not as the run "
                f"found them: {', '.join(unset)}" if unset else "")
    stale = [n for n in start if left(n, start[n], last[n])]
    if stale:
        with rig.under_run(run_id, "teardown"):
            again = take_counts(rig, [Need("probe", n, "") for n in stale])
        last.update({n: again[Need("probe", n, "")] for n in stale})
    stays = [what for n in start if (what := left(n, start[n], last[n]))]
    stays += [stays_too] if stays_too else []
    named = {what.split(" ", 1)[0] for what in stays}
    unseen = [what for what in hidden if what.split(" ", 1)[0] not in named]
    stays += unset
    ends = [f"still not as the run found them: {', '.join(stays)}" if stays else "",
            f"may still differ where no row shows it, and cannot be read or put back: "
            f"{', '.join(unseen)}" if unseen else ""]
    return (f"the run's agents changed the owner's collections ({'; '.join(said)}); "
            + ("; ".join(e for e in ends if e) or "all were put back as the run found them"))


__all__ = ["summary"]
