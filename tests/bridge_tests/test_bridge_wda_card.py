"""WDA's runner's card in the App Switcher (fixer AL, after RT115-4): on a phone under WDA the
runner is an app in the background with a card of its own, and a card swiped up closes its app.
Swiped up, WDA stops: the rig is down and the attempt would go unscored. The bridge refuses every
swipe on that card but a sideways one (a drag, a W3C chain, WDA's element swipe and scroll), and
one that got through anyway is the agent's doing by the log (`agent_broke_rig`). Driven by the
unmodified facebook-wda client against the simulated iPhone, whose switcher shows the card and
stops WDA when it is swiped up."""

from __future__ import annotations

import contextlib

import wda
from audit_logs import act
from bridge_rig import Rig, perform, refused_unsent, sent

from phoneshell.audit import agent_broke_rig
from phoneshell.rig_down import takes_rig_down

CALC, SPRINGBOARD = "com.apple.calculator", "com.apple.springboard"
RUNNER = "com.facebook.WebDriverAgentRunner.xctrunner"
CARD = f"card:{RUNNER}:sceneID:{RUNNER}-default"


def _switcher_on_the_runner(session: wda.Client) -> wda.Element:
    """Calculator in front, the App Switcher up (a swipe up from the bottom edge, held), the
    runner's card (the oldest) brought to the middle by a sideways drag: that card."""
    session.app_activate(CALC)
    size = session.window_size()
    session.swipe(size.width // 2, size.height - 4, size.width // 2, size.height // 2, 0.5)
    session.swipe(100, size.height // 2, 300, size.height // 2)  # sideways: forwarded
    card: wda.Element = session(name=CARD).get(timeout=5)
    assert card.label == "WebDriverAgentRunner-Runner" and card.visible
    return card


def _chain_up(x: int, y: int) -> dict[str, object]:
    return {"type": "pointer", "id": "finger", "parameters": {"pointerType": "touch"},
            "actions": [{"type": "pointerMove", "duration": 0, "x": x, "y": y},
                        {"type": "pointerDown"},
                        {"type": "pointerMove", "duration": 200, "x": x, "y": 80},
                        {"type": "pointerUp"}]}


def test_every_swipe_up_on_the_runners_card_is_refused_and_wda_keeps_answering(
        rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session()
    card = _switcher_on_the_runner(session)
    x, y = (round(c) for c in card.bounds.center)
    attempts = [lambda: session.swipe(x, y, x, 60),  # a drag by points
                lambda: card._wda_req("post", "/swipe", {"direction": "up"}),  # element swipe
                lambda: card.scroll("down")]  # a scroll "down" moves the finger up
    for attempt in attempts:
        try:
            attempt()
        except wda.WDARequestError as exc:
            assert "stop WDA" in str(exc), exc
        else:
            raise AssertionError("forwarded: WDA's runner closed")
    status, message = perform(rig, session.session_id, _chain_up(x, y))
    assert status == 403 and "stop WDA" in message, message
    refused = [e for e in rig.events() if e.stage == "refused"]
    assert len(refused) == 4 and all(e.kind == "swipe" and e.app_before == SPRINGBOARD
                                     for e in refused)
    assert all(e.target is not None and e.target.name == CARD for e in refused)
    assert rig.sim.state()["wda_stopped"] is False
    assert session(name=CARD).exists, "still up: nothing reached the phone"


def test_another_apps_card_still_closes_and_one_through_is_the_agents_doing(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session()
    card = _switcher_on_the_runner(session)
    calc = session(nameContains=f"card:{CALC}:", visible=True).get(timeout=5)
    x, y = (round(c) for c in calc.bounds.center)
    session.swipe(x, y, x, 60)  # Calculator's card: forwarded, Calculator closed
    assert session.app_state(CALC)["value"] == 1
    assert session(name=CARD).exists, "the runner's card outlasts the last app's"
    # the log the bridge wrote for the refusal names the card; the same swipe, had it gone
    # through (the phone's WDA gone mid-request: no outcome), is the agent's breaking the rig
    x, y = (round(c) for c in card.bounds.center)
    with contextlib.suppress(wda.WDARequestError):
        session.swipe(x, y, x, 60)
    target = [e for e in rig.events() if e.stage == "refused"][-1].target
    through = act(9, "swipe", SPRINGBOARD, None, target=target, from_x=x, from_y=y, to_x=x,
                  to_y=60)
    assert "#9 swipe): it swipes WDA's runner's card" in agent_broke_rig(tuple(through))
    sideways = act(9, "swipe", SPRINGBOARD, SPRINGBOARD, target=target, from_x=100, from_y=y,
                   to_x=300, to_y=y)
    assert agent_broke_rig(tuple(sideways)) == "", "a sideways drag only brings cards in"


def test_a_swipe_inside_the_card_is_on_the_card() -> None:
    """A phone's card may hold its app's snapshot: what the finger lands on is inside it."""
    snapshot = ("", "")
    assert takes_rig_down("swipe", SPRINGBOARD, "XCUIElementTypeScrollView", "",
                          params={"direction": "up"}, around=[(CARD, "x"), snapshot])
    assert takes_rig_down("swipe", SPRINGBOARD, "XCUIElementTypeOther",
                          "WebDriverAgentRunner-Runner", params={"direction": "up"})
    assert not takes_rig_down("swipe", SPRINGBOARD, "XCUIElementTypeOther", "Calculator",
                              params={"direction": "up"}, name=f"card:{CALC}:sceneID:x")
    assert not takes_rig_down("tap", SPRINGBOARD, "XCUIElementTypeOther", "x", name=CARD)


def test_a_gesture_by_direction_on_the_switcher_is_placed_and_refused_on_the_runners_card(
        rig: Rig) -> None:
    # red team 120 (RT120-3): a swipe or scroll with a direction and no point, on the app or on
    # a container of the cards, named no card (no target, no point under the finger), was
    # forwarded, and WDA's drags through the screen's middle closed the runner: rig down
    session = wda.Client(rig.bridge.url).session()
    _switcher_on_the_runner(session)
    sid = session.session_id
    content = session(name="AppSwitcherContentView").get(timeout=5).id
    on_content = f"/session/{sid}/wda/element/{content}"
    placed = [(f"/session/{sid}/wda/swipe", {"direction": "up"}),
              (f"/session/{sid}/wda/scroll", {"direction": "down"}),
              (f"{on_content}/scroll", {"direction": "down", "distance": 0.5}),
              (f"{on_content}/swipe", {"direction": "up"})]
    for path, body in placed:
        assert "it swipes WDA's runner's card" in refused_unsent(rig, path, body), path
    # a scroll WDA makes by drags of its own choosing (to a child, into view) cannot be placed
    for body in ({"toVisible": True}, {"name": "Calculator"}):
        message = refused_unsent(rig, f"{on_content}/scroll", body)
        assert "cannot place off that card" in message, message
    sent(rig, f"/session/{sid}/wda/swipe", {"direction": "right"})  # sideways: cards move
    assert rig.sim.state()["wda_stopped"] is False
    assert session(name=CARD).exists


def test_a_gesture_by_direction_on_another_apps_card_still_closes_it(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session()
    session.app_activate(CALC)
    size = session.window_size()
    session.swipe(size.width // 2, size.height - 4, size.width // 2, size.height // 2, 0.5)
    assert session(nameContains=f"card:{CALC}:", visible=True).exists
    sent(rig, f"/session/{session.session_id}/wda/swipe", {"direction": "up"})
    assert session.app_state(CALC)["value"] == 1, "Calculator's card, in the middle, closed"
    assert rig.sim.state()["wda_stopped"] is False


def test_starting_wdas_runner_is_refused(rig: Rig) -> None:
    # launching WDA's runner restarts it on a phone (XCTest's launch terminates a running
    # app first): refused as terminating it is, by every route that starts an app
    session = wda.Client(rig.bridge.url).session()
    sid = session.session_id
    for path in (f"/session/{sid}/wda/apps/launch", f"/session/{sid}/wda/apps/activate",
                 "/wda/apps/launchUnattached"):
        assert "start WDA's runner again" in refused_unsent(rig, path, {"bundleId": RUNNER})
    assert "stop WDA" in refused_unsent(rig, "/session", {"capabilities": {
        "alwaysMatch": {"bundleId": RUNNER}}})
    sent(rig, f"/session/{sid}/wda/apps/activate", {"bundleId": CALC})
    assert rig.sim.state()["wda_stopped"] is False


def test_a_swipe_in_springboard_after_which_wda_went_silent_is_the_agents_doing() -> None:
    # the log red team 120 got: #32 `/wda/swipe {"direction": "up"}` on the App Switcher,
    # answered, and nothing read after it (WDA gone): no target, no point, yet the agent's
    up = act(32, "swipe", SPRINGBOARD, "", direction="up", gesture="swipe")
    assert "the agent swiped in SpringBoard (#32 swipe), and WDA answered nothing after it" \
        in agent_broke_rig(tuple(up))
    assert agent_broke_rig(tuple(act(32, "swipe", SPRINGBOARD, SPRINGBOARD, direction="up",
                                     gesture="swipe"))) == "", "WDA answered the read after"
    later = act(33, "tap", SPRINGBOARD, CALC, x=200, y=400)
    assert agent_broke_rig((*up, *later)) == "", "WDA answered later: not stopped by it"
    for sideways in (act(32, "swipe", SPRINGBOARD, "", direction="left", gesture="swipe"),
                     act(32, "swipe", CALC, "", direction="up", gesture="swipe")):
        assert agent_broke_rig(tuple(sideways)) == ""
    started = act(9, "launch", CALC, "", bundle_id=RUNNER)
    assert "the agent started " + RUNNER in agent_broke_rig(tuple(started))
