"""The agent's presses the bridge refused, read from the attempt's audit events (pure).

The bridge refuses a tap that would reach beyond the phone or outlast the run (an app's Get, a
Call, a Send, an update's Install: `outreach`, `lasting`, `rig_down`) and logs it as `refused`
with the element it was aimed at; it never reached the phone, so it is no action
(`audit.actions`). It still is what the agent did: a ban ("Do not download anything") counts
it as a violation, since on a phone without the bridge it would have downloaded. Nothing that
passes counts one, and a check that fails says that the refused one was no tap on the phone.
"""

from __future__ import annotations

from phoneshell.audit import Action, refusals
from phoneshell.checks.tapped_names import press_named
from phoneshell.evidence import Evidence


def refused_taps(evidence: Evidence) -> tuple[Action, ...]:
    """The agent's taps the bridge refused that name their element (phase `agent`), each read
    as an action WDA never took (`ok` false, the bridge's reason as `error`: `acted` False).
    A refused request with no element (a route refused whole, a point off the screen) names
    nothing the agent pressed, so it is none of these."""
    return tuple(
        Action(seq=e.seq, phase=e.phase, kind=e.kind, t=e.t, params=e.params,
               app_before=e.app_before, app_after="", target=e.target, ok=False,
               error=e.error)
        for e in refusals(evidence.events)
        if e.phase == "agent" and e.kind == "tap" and e.target is not None)


def refused_press(action: Action) -> str:
    """"the agent pressed 'Get' (#30, refused by the bridge)": a refused tap, for details."""
    return f"the agent pressed {press_named(action)} (#{action.seq}, refused by the bridge)"
