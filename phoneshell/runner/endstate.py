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
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from phoneshell.device import Phone
from phoneshell.device.answers import answers_again
from phoneshell.errors import DeviceError, DeviceLocked
from phoneshell.evidence import Evidence
from phoneshell.grade import Verdict
from phoneshell.runner.rig import reads_whole

T = TypeVar("T")


class UnreadableEndState(Exception):
    """The phone answers and reads its home screen whole, but not the screen the agent left:
    the attempt fails, and the message says why."""


def capture_or_blame(phone: Phone, capture: Callable[[], T]) -> T:
    """`capture()`; when the phone did not answer it, once more after it answers again.

    Raises:
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
        if not reads_whole(phone):
            raise
        raise UnreadableEndState(
            f"the screen the agent left could not be read at capture ({exc}), where the phone "
            "answers again and reads its home screen whole: an end state nobody can "
            "grade") from exc


def unreadable(phone: Phone, verdict: Verdict, evidence: Evidence) -> Verdict | None:
    """The end state, read only cut off or malformed: the agent's failure where the phone reads
    its home screen whole; None where it does not (a rig fault: not scored)."""
    problem = evidence.final.source.problem if evidence.final else "no page source"
    if not reads_whole(phone):
        return None
    return verdict.model_copy(update={"passed": False, "overruled": (
        f"the screen the agent left could not be read whole at capture ({problem}), where the "
        "phone reads its home screen whole: an end state nobody can grade")})
