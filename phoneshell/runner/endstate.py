"""When the phone will not show the end state an agent left: capture retried once the phone
answers again, and the agent's failure where the phone reads its home screen whole.

A screen WDA cannot read, or reads only cut off (a page too big to write out, text an old WDA
wrote raw, a screen whose reading outlasts the harness's wait), is the screen the agent left.
Were it a skip, or the rig reported down (which stops the run), an agent could leave one to
have any attempt it would fail not scored. So: a capture that finds the phone not answering
waits for it to answer again and captures once more (a phone's hiccup passes then; nothing
listening for WDA is down within seconds, `device.answers`); one that
still cannot read the screen, or reads it only cut off, presses home and reads there. A phone
that reads its home screen whole was fine, and the end state was the agent's to leave
readable: its failure, said so. A phone that does not is the rig: not scored, or down.

One app WDA cannot read on this phone at all (a heavy tree whose snapshot times out) is the rig's
too, not the screen the agent left: when the attempt's log shows the app's first read already cut
off or refused, right after it was opened and before the agent did anything but open it from the
home screen, no read of it whole in this attempt, and none earlier in the run
(`unread_from_start`), the attempt is not scored, naming the app. Nothing of this costs a read
until a capture has failed: the log is read only then. An agent cannot reach that branch by
making an app unreadable: it would have had to act in the app (then the bridge reads it before
the action), or the app would have read whole earlier in the run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from phoneshell.device import Phone
from phoneshell.device.answers import answers_again
from phoneshell.errors import DeviceError, DeviceLocked
from phoneshell.evidence import Evidence
from phoneshell.grade import Verdict
from phoneshell.records import AuditEvent
from phoneshell.runner.rig import reads_whole
from phoneshell.xcui import SPRINGBOARD

T = TypeVar("T")


OPENINGS = frozenset({"launch", "activate"})
FROM_HOME = frozenset({"home", "press", "swipe", "tap", "launch", "activate", "terminate"})
"""What an agent may do before it opens an app for the app's first read to be the rig's: go
about the home screen and open apps. Typing, a URL or anything inside another app could fill
the app with what makes it unreadable."""


class UnreadableEndState(Exception):
    """The phone answers and reads its home screen whole, but not the screen the agent left:
    the attempt fails, and the message says why."""


class AppUnreadable(Exception):
    """WDA could not read one app on this phone from the attempt's start: not scored, and the
    message names the app."""


FromStart = Callable[[str], bool]
"""Whether the app named could not be read from the attempt's start (`unread_from_start`)."""


def unread_from_start(app: str, events: Iterable[AuditEvent], read_whole: Iterable[str]) -> bool:
    """Whether `app` was never read whole, by the attempt's log (`events`) and the apps read
    whole earlier in the run (`read_whole`), and its first read in the attempt, right after it
    was opened, came back cut off or refused before the agent did anything but open it from the
    home screen. Any line of custody (something changed the phone around the bridge) says no."""
    if not app or app == SPRINGBOARD or app in set(read_whole):
        return False
    opened = False
    for event in events:
        if event.stage == "custody" or app in seen_whole((event,)):
            return False
        if opened:
            continue
        if event.stage == "intent" and event.phase == "agent" and (
                event.kind not in FROM_HOME or event.app_before not in ("", SPRINGBOARD)):
            return False  # the agent acted elsewhere before it opened the app
        if event.stage == "outcome" and (event.app_after == app or (
                event.kind in OPENINGS and event.params.get("bundle_id") == app)):
            opened = True  # its after-read was not whole, or `seen_whole` had said so
    return opened


def seen_whole(events: Iterable[AuditEvent]) -> set[str]:
    """The apps some line of `events` shows read whole (a screen digest beside the app)."""
    return ({e.app_before for e in events if e.app_before and e.screen_before}
            | {e.app_after for e in events if e.app_after and e.screen_after})


def _not_read(app: str) -> str:
    return (f"WDA could not read {app} on this phone from the attempt's start (its first read, "
            "right after it was opened, was cut off or refused, and no read of it was whole in "
            "this run): a rig fault, not scored")


def capture_or_blame(phone: Phone, capture: Callable[[], T], from_start: FromStart) -> T:
    """`capture()`; when the phone did not answer it, once more after it answers again.

    Raises:
        AppUnreadable: the second capture failed too, the phone reads its home screen whole,
            and the app in front could not be read from the attempt's start (`from_start`).
        UnreadableEndState: the second capture failed too, where the phone reads its home
            screen whole.
        DeviceError (the `errors.RIG_DOWN` kinds among them): the phone does not answer
            again, or reads nothing whole: the rig (a locked phone is always the rig's or an
            agent's lock, told elsewhere).
    """
    try:
        return capture()
    except DeviceLocked:
        raise
    except DeviceError as exc:  # the RIG_DOWN kinds are DeviceErrors
        if not answers_again(phone, exc):
            raise
    try:
        return capture()
    except DeviceLocked:
        raise
    except DeviceError as exc:
        try:  # asked before home is pressed; only once a capture failed twice
            app = phone.foreground().bundle_id
        except DeviceError:
            app = ""
        if not reads_whole(phone):
            raise
        if from_start(app):
            raise AppUnreadable(_not_read(app)) from exc
        raise UnreadableEndState(
            f"the screen the agent left could not be read at capture ({exc}), where the phone "
            "answers again and reads its home screen whole: an end state nobody can "
            "grade") from exc


def unreadable(phone: Phone, verdict: Verdict, evidence: Evidence,
               from_start: FromStart) -> Verdict | None:
    """The end state, read only cut off or malformed: the agent's failure where the phone reads
    its home screen whole; None where it does not (a rig fault: not scored).

    Raises:
        AppUnreadable: the app in front could not be read from the attempt's start."""
    problem = evidence.final.source.problem if evidence.final else "no page source"
    if not reads_whole(phone):
        return None
    app = evidence.foreground.bundle_id if evidence.foreground is not None else ""
    if from_start(app):
        raise AppUnreadable(_not_read(app))
    return verdict.model_copy(update={"passed": False, "overruled": (
        f"the screen the agent left could not be read whole at capture ({problem}), where the "
        "phone reads its home screen whole: an end state nobody can grade")})
