"""When the phone will not show the end state an agent left: capture retried once the phone
answers again, and judged by the route that failed, asked where no agent shaped the screen.

A screen WDA cannot read, or reads only cut off (a page too big to write out, text an old WDA
wrote raw, a screen whose reading outlasts the harness's wait), is the screen the agent left.
Were it a skip, or the rig reported down (which stops the run), an agent could leave one to
have any attempt it would fail not scored. But a real phone's WDA also fails a read now and then
and serves it a moment later, so no single failure is judged: every read is asked again for
seconds first (`Phone._get`, `phoneshell.patience`; red team 105: two refused screenshots 24 ms
apart failed an honest finish), and a capture that finds the phone not answering waits for it to
answer again and captures once more (nothing listening for WDA is down within seconds,
`device.answers`). One that still cannot read the screen, or reads it only cut off, presses
home and reads the source there, as patiently. A phone that reads its home screen whole was
fine: the app that was in front is opened again, and when it shows, whole, the screen a read
after the agent's last action showed, that screen was readable (a burst of refusals ended as
home was pressed) and is captured again; else the end state was the agent's to leave readable:
its failure, said so. A phone that does not is the rig: down (a refused read, a home screen
cut off after one), or not scored (a home screen refused for a while; a cut-off end state
whose home screen is cut off too). A drag the capture made to scroll the screen, refused, is
no failed read (`device.capture.ScrollRefused`): refused by the bridge for what it touches, the
agent's failure, said as it was; failed by WDA (a hiccup asked again for seconds first), the
rig's, not scored. A
screenshot is not what checks read: one WDA refuses leaves the evidence without a picture
(`unsettled`), and is asked on the home screen after the capture (`pictures_elsewhere`):
refused there too, the rig is down.

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
from phoneshell.device.capture import Held, ScrollRefused
from phoneshell.errors import DeviceError, DeviceLocked, DeviceUnreachable, DeviceUnusable
from phoneshell.evidence import Evidence
from phoneshell.grade import Verdict
from phoneshell.records import AuditEvent
from phoneshell.runner.rig import RigDown, reads_whole
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


def capture_or_blame(phone: Phone, capture: Callable[[], T], from_start: FromStart,
                     left: Held | None = None) -> T:
    """`capture()`; when the phone stopped answering it, once more after it answers again.

    Its reads were asked with the phone's patience already (`Phone._get`: a read WDA could not
    make is asked again for seconds), so a capture that still fails is judged at once, by the
    route that failed: the page source (a screenshot WDA refused is left out of the evidence,
    and judged after: `pictures_elsewhere`), read on the home screen with the same patience.
    Where it reads whole there, the app that was in front is opened again (WDA brings a running
    app back as it was): when it now reads whole and shows the screen a read after the agent's
    last action showed (`left`), the screen the agent left was readable, and the failure the
    phone's (a burst of refusals that ended as home was pressed): it is captured again.

    Raises:
        AppUnreadable: the capture failed, the phone reads its home screen whole, and the app
            in front could not be read from the attempt's start (`from_start`).
        UnreadableEndState: the capture failed where the phone reads its home screen whole;
            or the bridge refused a drag the capture made to scroll the screen (`ScrollRefused`
            `by_bridge`), no failed read: what the drag touched is what the agent left there,
            so its failure, saying the drag was refused and why (not scored would let an agent
            turn a failure into a skip by the screen it leaves).
        ScrollRefused: WDA failed the capture's drag (asked again with the phone's patience
            where it could not make it): no failed read, and not what the agent left (WDA's
            refusals of a gesture are the rig's): raised as it is, not scored.
        RigDown: the home screen's source is refused too, or cut off: the phone reads no
            screen, whoever left it (the run stops, as for any rig down).
        DeviceError: the home screen's source was refused too before it read whole: a phone
            failing reads for a while (not scored; the run goes on).
        DeviceError (the `errors.RIG_DOWN` kinds among them): the phone does not answer
            again (a locked phone is always the rig's or an agent's lock, told elsewhere).
    """
    try:
        return capture()
    except ScrollRefused as exc:  # no failed read: the bridge's refusal, or WDA's (the rig's)
        if exc.by_bridge:
            raise UnreadableEndState(_scroll_refused(exc)) from exc
        raise
    except (DeviceLocked, DeviceUnusable):
        raise
    except DeviceUnreachable as exc:  # nothing answered: a phone back within seconds was fine
        if not answers_again(phone, exc):
            raise
        try:
            return capture()
        except ScrollRefused as refusal:
            if refusal.by_bridge:
                raise UnreadableEndState(_scroll_refused(refusal)) from refusal
            raise
        except DeviceLocked:
            raise
        except DeviceError as again:
            failed = again
    except DeviceError as exc:
        failed = exc
    try:  # asked before home is pressed; only once a capture failed
        app = phone.foreground().bundle_id
    except DeviceError:
        app = ""
    refused = phone.hiccups
    try:
        whole = reads_whole(phone)
    except (DeviceLocked, DeviceUnreachable):
        raise
    except DeviceError as exc:
        raise RigDown(f"WDA reads no screen: at capture ({failed}), and on the home screen "
                      f"too ({exc}), each asked for {phone.patience_s:g} s: a rig fault",
                      hint="restart WDA; `phoneshell doctor` checks the chain") from exc
    if whole and left is not None and _reads_as_left(phone, app, left):
        return capture()
    if phone.hiccups > refused:  # the home screen's read failed too before it worked
        raise DeviceError(f"WDA refused the end state's source at capture ({failed}, asked "
                          f"for {phone.patience_s:g} s), and the home screen's too before it "
                          "read it: a phone failing reads for a while, not a screen the "
                          "agent left", hint="`phoneshell doctor` checks the chain") from failed
    if not whole:
        raise RigDown(f"WDA reads no screen: at capture ({failed}), and the home screen only "
                      "cut off: a rig fault",
                      hint="restart WDA; `phoneshell doctor` checks the chain") from failed
    if from_start(app):
        raise AppUnreadable(_not_read(app)) from failed
    raise UnreadableEndState(
        f"the screen the agent left could not be read at capture ({failed}, asked for "
        f"{phone.patience_s:g} s), where the phone answers again and reads its home screen "
        "whole: an end state nobody can grade") from failed


def _reads_as_left(phone: Phone, app: str, left: Held) -> bool:
    """Whether `app`, opened again (the home screen: as it is), reads whole and shows the
    screen a read after the agent's last action showed (`left`). Only the agent's own end
    screen passes: one that reads otherwise now (a menu gone with the app's going, another
    page) is judged as it was read at capture."""
    if app and app != SPRINGBOARD:
        phone.launch(app)
    try:
        return phone.poll(lambda: phone.page().complete and left(phone.source()),
                          phone.effect_timeout_s)
    except (DeviceLocked, DeviceUnreachable):
        raise
    except DeviceError:  # still refused: the screen it left, judged as at capture
        return False


def pictures_elsewhere(phone: Phone) -> None:
    """After a capture that took no screenshot of the end state (WDA refused it, asked with
    the phone's patience; the source was graded without it, `unsettled`): ask the same route
    on the home screen, a screen no agent shaped. Where WDA takes one there, the screen the
    agent left was the trouble, and its source is graded as read; where it does not, the
    phone takes no screenshots at all, and every honest attempt would be graded unsettled:
    the rig's, not the agent's.

    Raises:
        RigDown: WDA takes no screenshot of the home screen either.
    """
    phone.home()
    try:
        phone.screenshot_png()
    except (DeviceLocked, DeviceUnreachable):
        raise
    except DeviceError as exc:
        raise RigDown(f"WDA takes no screenshot: not of the screen the agent left, nor of the "
                      f"home screen ({exc}), each asked for {phone.patience_s:g} s: a rig "
                      "fault", hint="restart WDA; `phoneshell doctor` checks the chain") from exc


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


def _scroll_refused(exc: ScrollRefused) -> str:
    """The failure of an end state whose capture's own drag was refused (what the drag touched
    is what the agent left): the refusal, whole."""
    return (f"{exc}: the screen the agent left could not be scrolled to be read whole, an end "
            "state nobody can grade")
