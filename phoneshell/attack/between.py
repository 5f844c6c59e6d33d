"""Between replays: the phone put back as the next replay must find it.

A finish, or the attempt a `residue` or `leaver` finish starts after, may leave on the phone what
outlasts its app: a timer running, the stopwatch going. The teardown it is played under deletes
only what that task's own counts saw grow (a leaver's earlier attempt leaves its agent's timer
by design), so the next replay on that phone, another task's finish, would find it. A task that
starts from none of it then refuses to start (not scored: the attack cannot tell it from the
owner's), and one that does not shows a running timer where its wheels should be (failed, by
nothing its finish did). Either way a hole goes unlooked for, and which one depends on which
phone played what before.

So after each replay job (a group's finish, with the attempt before it when it has one, and its
second pass for probes; or a sibling's finish for `swap`), what the attack counted at none
before its first replay (`PhoneTidy.none_at_start`: what its tasks start from none of) is
counted again, and whatever is there is deleted, as a run deletes it when it ends
(`leftovers.delete_left`). A residue or leaver finish still starts from what its own earlier
attempt left: that attempt belongs to its job.

Only counts in an app the job's agents went near are taken (two cost about 40 ms on the
simulator, seconds on a phone, and most finishes never touch them): an app the last agent of
the job had in front (`LastSeen.agent_apps`: a finish reaching Clock from the home screen
counts), or any app the task of an earlier attempt in the job names (its app, and the apps its
steps launch, stop or open: that agent's apps are not kept); and not a count the job's last
attempt took at none after its agent (its teardown, which came after, makes nothing). A setup
or teardown is the task file's, not a finish's: what it leaves, its task's own runs leave too.
Nothing is reset that the attack did not count at none before its first replay, so this holds
on a real phone too.
"""

from __future__ import annotations

from collections.abc import Iterable

from phoneshell.checks import Need
from phoneshell.device import COUNTED_IN
from phoneshell.errors import RIG_DOWN, PhoneshellError
from phoneshell.evidence import Evidence
from phoneshell.replays import Swapper
from phoneshell.runner import stop
from phoneshell.runner.leftovers import delete_left
from phoneshell.runner.stop import stopped_by
from phoneshell.runner.tidy import uses_app
from phoneshell.tasks import Task

__all__ = ["put_back"]


def put_back(swapper: Swapper, agent_before: str, last: Evidence | None = None,
             earlier: Iterable[Task] = ()) -> str:
    """After a replay job on `swapper`'s phone, with `agent_before` the phone's last agent before
    the job (`LastSeen.agent_of`), `last` the evidence of its last attempt (when it has some) and
    `earlier` the tasks of the attempts played before its finish (a residue's or leaver's):
    delete what the attack counted at none before its first replay and the job may have left.
    A line for the user ("" when nothing was there); a stop that came meanwhile, or a rig that
    went down, stops the phone (`Swapper.stopped`)."""
    rig = swapper.rig
    if swapper.stopped or not swapper.housekeeping.none_at_start:
        return ""
    earlier = tuple(earlier)
    agent_apps = rig.seen.agent_apps if rig.seen.agent_of != agent_before else ()
    none_after = {Need("probe", p.name, p.arg) for p in (last.probes if last else ())
                  if p.after == 0 and not p.error}
    needs = [need for need in swapper.housekeeping.none_at_start if need not in none_after and (
        need.name not in COUNTED_IN or COUNTED_IN[need.name] in agent_apps
        or any(uses_app(task, COUNTED_IN[need.name]) for task in earlier))]
    if not needs:
        return ""
    with stop.tidying() as tidying:  # a first stop waits for it, as for a teardown
        try:
            said = delete_left(rig, swapper.run_id, needs)
        except RIG_DOWN as exc:  # the attempts after it would find it down too
            swapper.stopped = f"the phone stopped answering between finishes: {exc}"
            return swapper.stopped
        except PhoneshellError as exc:  # the next replays say what they find
            said = f"what the finishes left could not be counted: {exc}"
    if tidying.held is not None:
        swapper.stopped = f"interrupted ({stopped_by(tidying.held)})"
    return said
