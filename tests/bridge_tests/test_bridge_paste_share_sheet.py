"""The share sheet, drawn by another process, is refused by where it lies, not by a label the
hit test cannot give: its contents are reported in its remote view's own coordinates (the real
iOS 26 dump puts the popover at (9, 477) and its Copy cell at (18, 249)), so a touch on Copy,
Messages or Mail was logged as an unnamed Other and passed every label-keyed refusal (red team
43). Every touch inside such a panel is refused, by point, by id, by a W3C chain; a tap outside
it, on the dismiss region, closes it. The simulator reports the sheet as the phone does, so
these run the real-phone case through facebook-wda, the bridge and the simulated iPhone."""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from bridge_rig import Rig, perform, touch

from bridge.actions import classify
from bridge.observe import from_xml
from bridge.remote_panels import unplaced_touch
from bridge.touched import Rect, unplaced_panels
from phoneshell.sim import SimServer
from phoneshell.sim.phone import PASTEBOARD

SAFARI = "com.apple.mobilesafari"
SECRET = "OWNER-SECRET-4111-1111"
SHARE = "safari-squoosh-share-sheet-ios26.xml"
WHY = "a panel another process draws"
COPY_DRAWN = (68, 776)
"""The middle of the Copy cell's icon where a phone draws it (its frame from the dump, moved by
the remote container's origin); the simulator draws it there too."""
S = "/session/s1"


@pytest.fixture(scope="module")
def share_dump(ios_sources: Path) -> object:
    """The tree of the iOS 26 dump of Safari's share sheet."""
    page = from_xml((ios_sources / SHARE).read_text()).page
    assert page is not None
    return page.tree


@pytest.mark.parametrize("point", [COPY_DRAWN, (68, 841), (156, 776), (68, 650),
                                   (200, 530), (380, 860)])
def test_on_the_real_dump_every_touch_inside_the_popover_is_refused(
        share_dump: object, point: tuple[int, int]) -> None:
    """Copy's icon and caption, Add to Bookmarks, Messages, the header, a corner: by point,
    by a W3C finger, by a drag that goes down there."""
    tree = share_dump
    x, y = point
    for action in (classify("POST", f"{S}/wda/tap", {"x": x, "y": y}),
                   classify("POST", f"{S}/actions", {"actions": [touch(x, y)]}),
                   classify("POST", f"{S}/wda/dragfromtoforduration",
                            {"fromX": x, "fromY": y, "toX": x, "toY": 100, "duration": 0.1})):
        assert action is not None
        why = unplaced_touch(tree, action)
        assert WHY in why and "ShareSheet.RemoteContainerView" in why, (point, action)
        assert "copied last" in why


@pytest.mark.parametrize("point", [(59, 299), (200, 100), (5, 600)])
def test_on_the_real_dump_a_tap_outside_the_popover_passes(share_dump: object,
                                                           point: tuple[int, int]) -> None:
    """On the dismiss region (where the Copy cell's reported frame lies too): it closes the
    sheet, and is logged as the dismiss region."""
    action = classify("POST", f"{S}/wda/tap", {"x": point[0], "y": point[1]})
    assert action is not None
    assert unplaced_touch(share_dump, action) == ""


def test_on_the_real_dump_a_cell_by_id_is_refused_by_its_reported_frame(
        share_dump: object) -> None:
    """WDA reports the Copy cell at (18, 249): whether the phone touches the cell or the
    dismiss region there, the log could not say."""
    tree = share_dump
    tap = classify("POST", f"{S}/element/c1/click")
    pinch = classify("POST", f"{S}/wda/element/c1/pinch", {"scale": 2, "velocity": 1})
    assert tap is not None and pinch is not None
    for action in (tap, pinch):
        why = unplaced_touch(tree, action, Rect(18, 249, 83, 139))
        assert "Cell 'Copy' by id" in why and WHY in why
        assert WHY in unplaced_touch(tree, action, None), "an unread frame may be one of them"
    popover = unplaced_touch(tree, tap, Rect(9, 477, 384, 388))
    assert "hit point (201, 671)" in popover
    assert unplaced_touch(tree, tap, Rect(0, 0, 402, 874)) == "", "the dismiss region by id"
    assert WHY in unplaced_touch(tree, pinch, Rect(0, 0, 402, 874)), "its fingers reach in"


def test_real_dumps_without_such_a_panel_refuse_nothing(ios_dumps: tuple[Path, ...]) -> None:
    for path in ios_dumps:
        page = from_xml(path.read_text()).page
        assert page is not None
        assert bool(unplaced_panels(page.tree)) == (path.name == SHARE), path.name


def _owner_copied(sim: SimServer) -> None:
    with sim.lock:
        sim.phone.store(PASTEBOARD).put("text", SECRET)


def _pasteboard(sim: SimServer) -> str:
    return str(sim.state()["stores"].get(PASTEBOARD, {}).get("text", ""))


def _share_sheet(rig: Rig) -> wda.Client:
    session = wda.Client(rig.bridge.url).session(SAFARI)
    session(name="TabBarItemTitle").click()
    session.send_keys("squoosh.app\n")
    session(name="MoreMenuButton").click()
    session(label="Share\u2026").click()
    session(className="Popover").get(timeout=2)
    return session


def _refusals(rig: Rig) -> list[str]:
    return [e.error for e in rig.events() if e.stage == "refused"]


def test_the_simulated_share_sheet_reports_its_contents_as_a_phone_does(rig: Rig) -> None:
    session = _share_sheet(rig)
    copy = session(className="Cell", label="Copy").get(timeout=2)
    assert (copy.bounds.x, copy.bounds.y) == (18, 249), "the remote view's own coordinates"
    assert session(className="Popover").get().bounds.y == 477


def test_copy_messages_and_mail_are_refused_by_point_id_and_w3c(rig: Rig,
                                                                sim: SimServer) -> None:
    _owner_copied(sim)
    session = _share_sheet(rig)
    before = len(_refusals(rig))
    for point in (COPY_DRAWN, (68, 660), (156, 660)):  # Copy, Messages, Mail where drawn
        with pytest.raises(wda.WDARequestError, match=WHY):
            session.tap(*point)
    with pytest.raises(wda.WDARequestError, match=WHY):
        session(className="Cell", label="Copy").get(timeout=2).tap()  # by id
    status, message = perform(rig, session.session_id, touch(*COPY_DRAWN))
    assert status == 403 and WHY in message
    assert session(className="Popover").exists, "nothing reached the sheet"
    assert _pasteboard(sim) == SECRET
    refusals = _refusals(rig)[before:]
    assert len(refusals) >= 5 and all(WHY in r for r in refusals), refusals
    session.tap(200, 100)  # on the dismiss region: it closes the sheet
    assert not session(className="Popover").exists
    assert _pasteboard(sim) == SECRET


def test_a_click_at_a_cells_reported_frame_lands_outside_and_closes_the_sheet(
        rig: Rig, sim: SimServer) -> None:
    """facebook-wda's click taps the middle of the frame reported: on a phone and in the
    simulator that is the dismiss region, logged as it, which copies nothing."""
    _owner_copied(sim)
    session = _share_sheet(rig)
    session(className="Cell", label="Copy").click()
    assert not session(className="Popover").exists
    assert _pasteboard(sim) == SECRET
    taps = [e for e in rig.intents() if e.kind == "tap"]
    assert taps[-1].target is not None and taps[-1].target.name == "PopoverDismissRegion"
