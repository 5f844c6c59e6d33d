"""The chain of custody: each action's before is what the last one left; a change in between that
no logged action explains is a custody line. And what it costs the phone in requests."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import wda
from bridge_rig import LOGIN, Rig, request, start_bridge

from bridge.custody import Custody
from bridge.observe import from_json_tree, from_xml
from phoneshell.audit import actions, custody_breaks
from phoneshell.records import AuditEvent
from phoneshell.sim import SimServer
from phoneshell.xcui import BANNER_VIEW, walk

SETTINGS, CALCULATOR, SAFARI = "com.apple.Preferences", "com.apple.calculator", \
    "com.apple.mobilesafari"
NOTES = "com.apple.mobilenotes"


def outside(sim: SimServer, path: str, body: dict[str, object]) -> None:
    """Something drives the phone without the bridge (a program with the phone's own URL), in
    the session the bridge's client made."""
    sid = sim.state()["session"]
    status = request(sim.url, "POST", f"/session/{sid}{path}", json.dumps(body).encode())[0]
    assert status == 200


def launch_outside(sim: SimServer, bundle: str) -> None:
    outside(sim, "/wda/apps/launch", {"bundleId": bundle})


def custody_lines(rig: Rig) -> list[AuditEvent]:
    """Every custody line of the unscoped run (whatever the phase)."""
    return [e for e in rig.events() if e.stage == "custody"]


def breaks(rig: Rig) -> list[tuple[str, str]]:
    return [(e.app_before, e.app_after) for e in custody_breaks(rig.events("R"))]


def test_each_action_starts_where_the_last_one_left_the_phone(guarded: Rig) -> None:
    session = wda.Client(guarded.bridge.grant_agent()).session(SETTINGS)
    session.tap(100, 160)  # the large title: a tap that changes nothing
    session.app_launch(CALCULATOR)
    session.tap(300, 6)
    done = actions(guarded.events("R"))
    assert [(a.app_before, a.app_after) for a in done[1:]] == [
        (SETTINGS, done[1].app_after), (done[1].app_after, CALCULATOR),
        (CALCULATOR, CALCULATOR)]
    assert all(a.app_before == b.app_after for a, b in zip(done[1:], done, strict=False))
    assert all(len(a.target and a.target.type or "") > 0 for a in done if a.kind == "tap")
    assert breaks(guarded) == []


def test_acting_outside_then_a_logged_no_op_is_caught(guarded: Rig) -> None:
    session = wda.Client(guarded.bridge.grant_agent()).session(CALCULATOR)
    launch_outside(guarded.sim, SAFARI)
    session.tap(300, 6)  # a no-op through the bridge, to make the log look continuous
    assert breaks(guarded) == [(CALCULATOR, SAFARI)]
    (brk,) = custody_breaks(guarded.events("R"))
    assert brk.params["via"] == "GET /source" and brk.phase == "agent"


def test_a_confined_agent_costs_one_read_per_action(guarded: Rig) -> None:
    session = wda.Client(guarded.bridge.grant_agent(confined=True)).session(SETTINGS)
    before = guarded.sim.request_counts()
    reads = guarded.bridge.recorder.own_reads
    for _ in range(4):
        session.tap(300, 6)
    session.app_launch(CALCULATOR)
    session.home()
    after = guarded.sim.request_counts()
    grew = {k: after[k] - before.get(k, 0) for k in after if after[k] != before.get(k, 0)}
    # No client read came between: the bridge's source before each action is the last one's
    # after (the session's included); the home button's is still to come.
    assert guarded.bridge.recorder.own_reads - reads == 6
    assert grew == {"total": 13, "GET /source": 6, "POST /wda/tap": 4,
                    "POST /wda/apps/launch": 1, "POST /wda/homescreen": 1,
                    "GET /wda/locked": 1}  # facebook-wda's own read before a launch
    assert actions(guarded.events("R"))[-1].ok is None
    guarded.bridge.clear_context()  # the attempt is over: its log is made whole
    assert guarded.bridge.recorder.own_reads - reads == 7
    done = actions(guarded.events("R"))
    assert done[-1].app_after == "com.apple.springboard" and all(a.ok for a in done)
    assert all(a.app_before == b.app_after and a.screen_before == b.screen_after
               for a, b in zip(done[1:], done, strict=False))
    assert breaks(guarded) == []


def test_an_outcome_written_at_a_later_read_keeps_when_wda_answered(guarded: Rig) -> None:
    """A confined agent's outcome line is written at the first whole read after the answer,
    here 0.3 s on: it keeps when WDA answered (`answered_t`), which a check timing what the
    phone did (`countdown`) needs, and not the read's time."""
    session = wda.Client(guarded.bridge.grant_agent(confined=True)).session(SETTINGS)
    session.tap(300, 6)
    time.sleep(0.3)
    guarded.bridge.clear_context()
    intent, outcome = [e for e in guarded.events("R") if e.kind == "tap"]
    assert intent.answered_t is None and outcome.answered_t is not None
    assert intent.t <= outcome.answered_t <= outcome.t - 0.3
    (tap,) = [a for a in actions(guarded.events("R")) if a.kind == "tap"]
    assert (tap.answered_t, tap.outcome_t) == (outcome.answered_t, outcome.t)


def test_a_confined_agent_that_reads_before_acting_costs_no_read_of_the_bridge(
        guarded: Rig) -> None:
    session = wda.Client(guarded.bridge.grant_agent(confined=True)).session(SETTINGS)
    reads = guarded.bridge.recorder.own_reads
    for _ in range(3):
        session.source()  # the agent looks, then acts: the look is the last action's after
        # the Apple Account row, then its page's blank header: no row that acts (370 fell on a
        # Wi-Fi network once footers took the Motion dump's height, red team 124)
        session.tap(100, 240)
        session.source(format="json")  # not whole (no front app): it is no after
        session.app_activate(SETTINGS)
    session.app_current()
    session.source()
    assert guarded.bridge.recorder.own_reads == reads + 3  # a JSON source left a tap unread
    events = [e for e in guarded.events("R") if e.stage in ("intent", "outcome")]
    # each outcome line comes before the next intent: nothing acted in between
    assert [e.stage for e in events] == ["intent", "outcome"] * (len(events) // 2)
    done = actions(events)
    assert all(a.app_before == b.app_after and a.screen_before == b.screen_after
               for a, b in zip(done[1:], done, strict=False))
    assert done[-1].app_after == SETTINGS and breaks(guarded) == []


def test_a_pending_after_is_read_before_an_unconfined_agent_gets_the_phone(
        guarded: Rig) -> None:
    wda.Client(guarded.bridge.grant_agent(confined=True)).session(CALCULATOR)
    guarded.bridge.revoke_agent()
    agent = wda.Client(guarded.bridge.grant_agent())
    launch_outside(guarded.sim, SAFARI)  # around the bridge, before anything read the phone
    agent.session(CALCULATOR)  # then a logged launch, to make the log look continuous
    first, second = actions(guarded.events("R"))[-2:]
    assert first.app_after == CALCULATOR and second.app_before == SAFARI
    assert breaks(guarded) == [(CALCULATOR, SAFARI)]


def test_a_confined_grant_trusts_the_last_after_and_capture_still_compares(guarded: Rig) -> None:
    session = wda.Client(guarded.bridge.grant_agent(confined=True)).session(CALCULATOR)
    launch_outside(guarded.sim, SAFARI)
    # Confined, there is no read before the tap (nothing else could reach the phone), so a lie
    # about confinement lets this change pass as the tap's doing: the sandbox must hold.
    session.tap(300, 6)
    assert breaks(guarded) == []
    assert actions(guarded.events("R"))[-1].ok is None  # its after is the next whole read
    session.source()  # the tap's after, then any read that passes through compares
    assert actions(guarded.events("R"))[-1].app_after == SAFARI
    guarded.bridge.set_context("R", "t", 1, "check")
    launch_outside(guarded.sim, SETTINGS)
    wda.Client(guarded.bridge.url).app_current()  # the capture's read after the agent
    assert breaks(guarded) == [(SAFARI, SETTINGS)]


def test_typing_outside_the_bridge_changes_the_screen_digest(guarded: Rig) -> None:
    session = wda.Client(guarded.bridge.grant_agent()).session(LOGIN)
    session.tap(100, 170)
    outside(guarded.sim, "/wda/keys", {"value": list("typed elsewhere")})  # the app stays in front
    session.source()
    (brk,) = custody_breaks(guarded.events("R"))
    assert brk.app_before == brk.app_after == LOGIN and brk.screen_before != brk.screen_after
    assert "screen" in brk.error


def test_a_real_phones_late_effect_is_no_break(sim: SimServer, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    bridge, writer = start_bridge(sim, runs, custody=Custody(settle_s=30.0))
    try:
        session = wda.Client(bridge.url).session(CALCULATOR)
        launch_outside(sim, SAFARI)  # to the bridge, as an app a tap opened a moment later
        session.app_current()
        assert custody_lines(Rig(sim, bridge, runs)) == []
    finally:
        bridge.stop()
        writer.close()


def test_a_real_phone_is_settled_by_the_first_look_after_its_window(
        sim: SimServer, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    # A window shorter than any request: the first read after the action is already past it.
    bridge, writer = start_bridge(sim, runs, custody=Custody(settle_s=1e-6))
    try:
        session = wda.Client(bridge.url).session(CALCULATOR)
        launch_outside(sim, SAFARI)  # to the bridge, what a slow transition looks like
        session.app_current()  # the first look after the action: what it left, settled
        assert custody_lines(Rig(sim, bridge, runs)) == []
        launch_outside(sim, SETTINGS)
        session.app_current()  # a change after the settled state: nothing logged explains it
        (brk,) = custody_lines(Rig(sim, bridge, runs))
        assert (brk.app_before, brk.app_after) == (SAFARI, SETTINGS)
    finally:
        bridge.stop()
        writer.close()


def test_a_screen_that_moves_by_itself_is_compared_by_its_front_app_only(
        sim: SimServer, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    bridge, writer = start_bridge(sim, runs, custody=Custody(settle_s=0.0))
    try:
        session = wda.Client(bridge.url).session(LOGIN)
        session.tap(100, 170)
        outside(sim, "/wda/keys", {"value": ["x"]})
        session.source()
        assert custody_lines(Rig(sim, bridge, runs)) == []
    finally:
        bridge.stop()
        writer.close()


def test_terminating_an_app_not_in_front_reads_nothing(guarded: Rig) -> None:
    session = wda.Client(guarded.bridge.grant_agent(confined=True)).session(SETTINGS)
    session.app_launch(CALCULATOR)
    session.source()  # the launch's after
    reads = guarded.bridge.recorder.own_reads
    session.app_terminate(SETTINGS)  # in the background: the screen stays as it was
    assert guarded.bridge.recorder.own_reads == reads
    terminated = actions(guarded.events("R"))[-1]
    assert (terminated.app_before, terminated.app_after) == (CALCULATOR, CALCULATOR)
    session.app_terminate(CALCULATOR)  # in front: the phone goes home, so it is read
    guarded.bridge.recorder.settle()  # (no client read came: the bridge's own)
    assert guarded.bridge.recorder.own_reads == reads + 1
    assert actions(guarded.events("R"))[-1].app_after == "com.apple.springboard"
    assert breaks(guarded) == []


@pytest.mark.parametrize("app", [SETTINGS, CALCULATOR, SAFARI, LOGIN])
def test_the_xml_and_json_sources_of_a_screen_digest_alike(sim: SimServer, app: str) -> None:
    client = wda.Client(sim.url)
    client.session(app)
    xml, tree = from_xml(client.source()), from_json_tree(client.source(format="json"))
    assert xml.app == app and xml.screen == tree.screen and len(xml.screen) == 16
    assert xml.tree is not None and xml.tree["type"] == "Application"
    client.session(CALCULATOR if app != CALCULATOR else SETTINGS)
    assert from_xml(client.source()).screen != xml.screen


def test_a_banner_the_phone_shows_by_itself_is_no_break(guarded: Rig) -> None:
    """A notification banner is the phone's own doing, not an action around the bridge (red team
    105: a message arriving after an honest finish failed it as tampering): the screen digest
    leaves its window out, read either way, and what changes under it still counts."""
    session = wda.Client(guarded.bridge.grant_agent()).session(LOGIN)
    session.tap(100, 170)
    before = from_xml(session.source()).screen
    guarded.sim.notify("com.apple.MobileSMS", "Mom", "Call me when you can")
    xml = session.source()
    assert "NotificationShortLookView" in xml
    assert from_xml(xml).screen == before == from_json_tree(session.source(format="json")).screen
    assert custody_lines(guarded) == []
    outside(guarded.sim, "/wda/keys", {"value": list("typed elsewhere")})  # under the banner
    session.source()
    (brk,) = custody_breaks(guarded.events("R"))
    assert brk.app_before == brk.app_after == LOGIN and brk.screen_before != brk.screen_after


def test_a_note_titled_as_the_banners_view_hides_no_change(guarded: Rig) -> None:
    """An app names an element by its text, so a note titled "NotificationShortLookView" is a
    list cell named so (red team 110, RT110-4: the digest left the whole Notes window out, and
    a swipe made around the bridge went unseen): a banner is told by its place in the tree, so
    a real one is still left out beside that note, and the change under both still counts."""
    session = wda.Client(guarded.bridge.grant_agent()).session(NOTES)
    session(label="New Note", type="XCUIElementTypeButton").click()
    session.send_keys(BANNER_VIEW)
    session(name="BackButton").click()
    listed = session.source()
    assert f'name="{BANNER_VIEW}"' in listed and 'label="Groceries"' in listed
    guarded.sim.notify("com.apple.MobileSMS", "Mom", "Call me when you can")
    xml = session.source()
    assert xml.count(f'name="{BANNER_VIEW}"') == listed.count(f'name="{BANNER_VIEW}"') + 1
    assert from_xml(xml).screen == from_xml(listed).screen == from_json_tree(
        session.source(format="json")).screen
    assert custody_lines(guarded) == []
    cell = session(label="Groceries", type="XCUIElementTypeCell").bounds
    middle = cell.y + cell.height / 2  # swiped left, as a person reveals its Delete button
    outside(guarded.sim, "/wda/dragfromtoforduration", {
        "fromX": cell.x + cell.width - 20, "fromY": middle, "toX": cell.x + 30, "toY": middle,
        "duration": 0.3})
    assert 'label="Delete"' in session.source()
    (brk,) = custody_breaks(guarded.events("R"))
    assert brk.app_before == brk.app_after == NOTES and brk.screen_before != brk.screen_after


def test_a_teardowns_after_waits_for_the_next_attempts_first_read(guarded: Rig) -> None:
    bridge = guarded.bridge
    session = wda.Client(bridge.grant_agent(confined=True)).session(CALCULATOR)
    session.tap(300, 6)
    bridge.revoke_agent()
    reads = bridge.recorder.own_reads
    bridge.set_context("R", "t", 1, "teardown")
    harness = wda.Client(bridge.url)
    harness.app_terminate(CALCULATOR)  # its before is the tap's after, read now
    assert bridge.recorder.own_reads == reads + 1
    bridge.clear_context()
    bridge.set_context("R", "t", 2, "setup")
    # The attempt ended with no read spent on its teardown's after: the next one reads anyway.
    assert bridge.recorder.own_reads == reads + 1
    assert actions(guarded.events("R"))[-1].ok is None
    harness.source()  # the next setup's first look (is the home screen up?) is that after
    events = [e for e in guarded.events("R") if e.stage in ("intent", "outcome")]
    assert [e.stage for e in events] == ["intent", "outcome"] * (len(events) // 2)
    terminated = actions(events)[-1]
    assert (terminated.phase, terminated.ok) == ("teardown", True)
    assert terminated.app_after == "com.apple.springboard"
    assert bridge.recorder.own_reads == reads + 1 and breaks(guarded) == []


def test_a_look_after_the_last_action_marks_the_screen_capture_compares_with(
        guarded: Rig) -> None:
    bridge = guarded.bridge
    session = wda.Client(bridge.grant_agent(confined=True)).session(SETTINGS)
    session.tap(100, 160)  # the large title: a tap that changes nothing
    assert bridge.screen_mark() is None  # the tap's after is pending: nobody has looked yet
    looked = session.source()
    mark = bridge.screen_mark()
    assert mark is not None and mark.app == SETTINGS
    assert bridge.shows(mark, looked) and bridge.shows(mark, wda.Client(bridge.url).source())
    session.home()
    assert bridge.screen_mark() is None
    home = session.source()
    assert not bridge.shows(mark, home)
    assert bridge.shows(bridge.screen_mark(), home)  # type: ignore[arg-type]


def test_a_screenshot_after_the_last_action_is_the_look_capture_compares_with(
        guarded: Rig) -> None:
    bridge = guarded.bridge
    session = wda.Client(bridge.grant_agent(confined=True)).session(SETTINGS)
    assert bridge.screen_look() is None
    session.tap(100, 160)  # the large title: a tap that changes nothing
    assert bridge.screen_look() is None  # nobody has looked since the tap
    picture = session.screenshot(format="raw")
    assert bridge.screen_look() == picture and picture[:4] == b"\x89PNG"
    session.source()  # a read is no action: the look still stands
    assert bridge.screen_look() == picture
    session.home()
    assert bridge.screen_look() is None  # an action since: that picture may be out of date


def test_a_control_character_typed_reads_alike_in_both_sources(guarded: Rig) -> None:
    """WDA drops the characters XML forbids from the XML source and keeps them in the JSON one:
    one screen read both ways after an agent typed one is the same screen, not a change nobody
    made (an honest attempt after such an agent failed as acted_outside_bridge)."""
    session = wda.Client(guarded.bridge.grant_agent()).session()
    session.swipe(200, 300, 200, 600)  # Spotlight, its field focused
    session.send_keys("Gym\x01")
    xml = wda.Client(guarded.sim.url).source()
    as_json = wda.Client(guarded.sim.url).source(format="json")
    assert "\x01" not in xml
    assert any(node.get("value") == "Gym\x01" for _, node in walk(as_json))
    assert from_xml(xml).screen == from_json_tree(as_json).screen
