"""The harness's own taps never go through a notification banner (red team 105, RT105-3): the
owner watch's tap on Calendar's search button, a banner over it, opened the owner's Messages
and charged the agent for events it could not read. The banner is waited out, then swiped up;
the audit log names it as the harness's swipe's target. Through the bridge, on the simulator."""

from __future__ import annotations

import json
from pathlib import Path

from phoneshell.device import Phone
from phoneshell.device.owned import CALENDAR, events_listed
from phoneshell.runner import open_rig
from phoneshell.sim import SimServer

MESSAGES = "com.apple.MobileSMS"
SPRINGBOARD = "com.apple.springboard"


def waiting(sim: SimServer) -> list[str]:
    """The titles of the notifications waiting in Notification Center (none opened)."""
    kept = sim.state()["stores"][SPRINGBOARD]["notifications"]  # type: ignore[index]
    return [n["title"] for n in kept]  # type: ignore[index,union-attr]


def test_a_count_whose_tap_lies_under_a_banner_puts_the_banner_away_first(
        sim: SimServer, tmp_path: Path) -> None:
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        rig.enter("R", "t", 1, "teardown")
        sim.notify(MESSAGES, "Mom", "Call me when you can")
        listed = events_listed(rig.phone, "")
    assert listed.count == 8, listed  # Calendar's search showed its list, not Messages
    assert waiting(sim) == ["Mom"]  # put away, not opened
    audit = (tmp_path / "R" / "audit.jsonl").read_text()
    lines = [json.loads(line) for line in audit.splitlines()]
    swipes = [e for e in lines if e["kind"] == "swipe" and e["stage"] == "intent"]
    assert swipes[0]["target"]["label"] == "MESSAGES, now, Mom, Call me when you can"
    assert not [e for e in lines if e.get("app_after") == MESSAGES]


def test_a_tap_with_no_banner_costs_no_read(sim: SimServer) -> None:
    phone = Phone(sim.url, effect_timeout_s=0.3)
    phone.launch(CALENDAR)
    with phone.keeping_reads():
        phone.source()
        before = sim.request_counts()
        phone.tap(246, 84)
    grew = {k: v - before.get(k, 0) for k, v in sim.request_counts().items()
            if v != before.get(k, 0)}
    assert grew == {"total": 1, "POST /wda/tap": 1}, grew
