"""The harness's own taps never go through a notification banner (red team 105, RT105-3): the
owner watch's tap on Calendar's search button, a banner over it, opened the owner's Messages
and charged the agent for events it could not read. The banner is waited out, then swiped up;
the audit log names it as the harness's swipe's target. Through the bridge, on the simulator."""

from __future__ import annotations

import json
from pathlib import Path

import wda

from phoneshell.device import Phone
from phoneshell.device.banners import banner_at
from phoneshell.device.owned import CALENDAR, events_listed
from phoneshell.runner import open_rig
from phoneshell.sim import SimServer
from phoneshell.tree import PageSource
from phoneshell.xcui import BANNER_VIEW

MESSAGES, NOTES = "com.apple.MobileSMS", "com.apple.mobilenotes"
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


def test_a_note_titled_as_the_banners_view_is_tapped_at_once(sim: SimServer) -> None:
    """An app names a list cell by its text, so a note titled "NotificationShortLookView" is a
    cell named so (red team 110, RT110-4): it is no banner, and the harness's tap on it is
    neither waited on nor turned into a swipe; a real banner is still told apart beside it."""
    c = wda.Client(sim.url)
    s = c.session(NOTES)
    s(label="New Note", type="XCUIElementTypeButton").click()
    s.send_keys(BANNER_VIEW)
    s(name="BackButton").click()
    phone = Phone(sim.url, effect_timeout_s=0.3)
    phone.launch(NOTES)  # in front already: the phone's first request, as a run's setup's
    with phone.keeping_reads():
        page = phone.page()
        cell = next(e for e in page.on_screen() if e.name == BANNER_VIEW and e.short_type == "Cell")
        assert banner_at(page, *cell.centre) is None
        before = sim.request_counts()
        phone.tap(*cell.centre)
    grew = {k: v - before.get(k, 0) for k, v in sim.request_counts().items()
            if v != before.get(k, 0)}
    assert grew == {"total": 1, "POST /wda/tap": 1}, grew
    sim.notify(MESSAGES, "Mom", "Call me when you can")
    phone.forget()
    banner = banner_at(phone.page(), 200, 90)
    assert banner is not None and banner.label == "MESSAGES, now, Mom, Call me when you can"


def test_the_real_banner_is_told_by_its_place(ios_sources: Path) -> None:
    """The iOS 26 banner dump's banner is one by `xcui.is_banner`'s rule, and Notification
    Center's list, whose platters carry the same view's name, is not one over the screen."""
    banner = PageSource.parse((ios_sources / "springboard-notification-banner-ios26-sim.xml")
                              .read_bytes())
    found = banner_at(banner, 200, 90)
    assert found is not None and found.label.startswith("MOBIUMAPP, now, MobiumApp")
    listed = PageSource.parse((ios_sources / "springboard-notification-center-ios26-sim.xml")
                              .read_bytes())
    assert not any(banner_at(listed, *e.centre) for e in listed.elements if e.name == BANNER_VIEW)
