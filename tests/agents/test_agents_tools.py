"""The tool registry and its observations, on the simulated iPhone behind the bridge (and on
real page sources): what a model sees, which ids it may use, and what each mistake tells it."""

from __future__ import annotations

from pathlib import Path

import pytest
from agents.screen_script import find_row, parse_table

from bridge import BridgeServer
from phoneshell.agents.observation import build_observation
from phoneshell.agents.tools import TOOLS, PhoneTools, argument_problem
from phoneshell.audit import agent_steps, read_audit
from phoneshell.device import Phone, run_step
from phoneshell.sim import SimServer
from phoneshell.tasks import Step
from phoneshell.tree import PageSource


def taps(bridge: BridgeServer, tmp_path: Path) -> list[tuple[object, object]]:
    log = read_audit(tmp_path / "R" / "audit.jsonl")
    return [(e.params["x"], e.params["y"]) for e in log.records
            if e.kind == "tap" and e.stage == "intent"]


def test_one_registry_of_nine_tools_with_object_schemas() -> None:
    assert TOOLS.names() == ["observe", "read", "tap", "long_press", "type", "swipe", "open_app",
                             "press", "done"]
    for _, tool in TOOLS.items():
        assert tool.parameters["type"] == "object" and tool.description
        assert set(tool.parameters["required"]) <= set(tool.parameters["properties"])  # type: ignore[arg-type]


def test_a_real_about_page_is_a_short_table(reference: Path) -> None:
    xml = (reference / "ios-sources" / "settings-general-about-ios26.2-sim.xml").read_text()
    page = PageSource.parse(xml)
    observation = build_observation(4, page)
    text = observation.as_text()
    assert text.startswith("observation 4 · app: Settings (com.apple.Preferences)\nscreen: "
                           f"{page.width}x{page.height} points (x from the left edge")
    rows = parse_table(text)
    assert len(rows) < len(page.on_screen()) / 4, "folded, not a dump of the tree"
    model = [r for r in rows if "Model Number" in r.text]
    assert [r.text for r in model] == ["Model Number, A3256LL/A"], "once, with its value"
    assert model[0].id.startswith("4.") and model[0].type == "Cell"


def test_real_switches_keep_their_state_and_scroll_bars_are_dropped(reference: Path) -> None:
    motion = PageSource.parse((reference / "ios-sources" / "settings-accessibility-motion-ios26.xml"
                               ).read_text())
    text = build_observation(1, motion).as_text()
    switch = find_row(text, "Reduce Motion")
    assert switch.type == "Switch" and switch.flags == ("off",)
    # The row-wide switch is offered where its knob is: only the knob toggles on a phone.
    assert switch.centre == (336, 160), "the knob's centre (305 + 63 / 2, 146 + 29 / 2)"
    assert not [r for r in parse_table(text) if r.type == "Switch" and not r.text]
    assert all(r.type != "Cell" for r in parse_table(text)), "unnamed cells around rows go"
    safari = PageSource.parse((reference / "ios-sources" / "safari-start-page-ios26.2-sim.xml"
                               ).read_text())
    text = build_observation(1, safari).as_text()
    assert "scroll bar" not in text
    assert find_row(text, "Address").flags == ("empty",)


def test_an_address_reads_without_safaris_direction_mark() -> None:
    # Safari shows "\u200eexample.com"; a model copying it would type the invisible mark back
    with SimServer() as sim:
        phone = Phone(sim.url)
        run_step(phone, Step("open_url", "https://example.com"))
        source = phone.source()
    assert "\u200eexample.com" in source, "the field holds the mark, as on a phone"
    address = find_row(build_observation(1, PageSource.parse(source)).as_text(), "Address")
    assert address.text == "Address = example.com"


def test_ids_are_valid_only_for_the_observation_that_issued_them(tools: PhoneTools) -> None:
    assert tools.call("tap", {"id": "1.1"}).text == ("there is no observation yet: call observe "
                                                     "first")
    first = tools.call("observe", {}).text
    settings = find_row(first, "Settings").id
    assert tools.call("observe", {}).text.startswith("observation 2 ")
    stale = tools.call("tap", {"id": settings})
    assert stale.error and stale.text == (
        f"id {settings} is from observation 1, but observation 2 is the latest: an id is valid "
        "only for the observation that issued it; use an id from observation 2")
    unknown = tools.call("tap", {"id": "2.99"})
    assert unknown.error and unknown.text.startswith("observation 2 has no row 99 (its ids run "
                                                     "2.1 to 2.")
    assert "there is no observation 7" in tools.call("tap", {"id": "7.1"}).text
    assert "is not an id" in tools.call("tap", {"id": "Settings"}).text
    assert tools.call("tap", {"id": 2.1}).text == "tap: 'id' must be a string, not float"


def test_a_tap_acts_on_the_element_as_the_observation_showed_it(
        tools: PhoneTools, bridge: BridgeServer, tmp_path: Path) -> None:
    seen = tools.call("observe", {}).text
    settings = find_row(seen, "Settings")
    # The screen changes behind the model's back; its id still means what it saw.
    run_step(Phone(bridge.url), Step("open_app", "Notes"))
    before = len(taps(bridge, tmp_path))
    tools.call("tap", {"id": settings.id})
    assert taps(bridge, tmp_path)[before:] == [settings.centre]


def test_an_action_that_changes_nothing_keeps_the_ids(tools: PhoneTools) -> None:
    tools.call("open_app", {"name": "Calculator"})
    latest = tools.latest
    assert latest is not None
    unchanged = tools.call("swipe", {"direction": "down"})
    assert not unchanged.error and unchanged.text == (
        f"the screen did not change; observation {latest.number} and its ids are still valid")
    four = find_row(latest.as_text(), "4").id
    assert "\tStaticText\t4\t" in tools.call("tap", {"id": four}).text


def test_typing_needs_a_focused_field_and_return_submits(tools: PhoneTools) -> None:
    tools.call("open_app", {"name": "Notes"})
    refused = tools.call("type", {"text": "hello"})
    assert refused.error and refused.text.startswith("no text field has focus")
    screen = tools.call("tap", {"id": find_row(tools.latest.as_text(), "New Note").id}).text  # type: ignore[union-attr]
    assert find_row(screen, "Note").flags == ("focused", "empty")
    assert "keyboard: up" in screen
    typed = tools.call("type", {"text": "first line\nsecond"}).text
    assert "Note = first line" in typed and "second" in typed


def test_mistakes_in_arguments_are_messages(tools: PhoneTools) -> None:
    assert tools.call("swipe", {"direction": "sideways"}).text == (
        "swipe: 'direction' must be one of up, down, left, right; got 'sideways'")
    assert tools.call("tap", {}).text.startswith("tap: give the id of a row of the latest "
                                                 "observation (\"id\": \"3.12\"), or a point")
    assert tools.call("observe", {"x": 1}).text.startswith("observe: unknown argument 'x'")
    assert tools.call("fly", {}).text.startswith("there is no tool 'fly'; the tools are observe")
    assert tools.call("tap", "{not json").text.startswith("tap: the arguments are not a JSON")
    assert tools.call("open_app", {"name": "Nowhere"}).text.startswith(
        "open_app: no app is called 'Nowhere'; open_app takes")
    assert argument_problem(TOOLS.lookup("done"), {"status": "done"}) == ""


def logged(tmp_path: Path) -> list[tuple[str, dict[str, object]]]:
    return [(e.kind, e.params) for e in read_audit(tmp_path / "R" / "audit.jsonl").records
            if e.stage == "intent"]


@pytest.mark.slow  # 1.6 s measured: the README's command stays quick
def test_points_holds_and_drags_reach_the_phone_through_the_bridge(
        tools: PhoneTools, bridge: BridgeServer, tmp_path: Path) -> None:
    seen = tools.call("observe", {}).text
    assert "\nscreen: 402x874 points (x from the left edge, y from the top edge)\n" in seen
    assert not tools.call("swipe", {"from_x": 60, "from_y": 0, "to_x": 60, "to_y": 640}).error
    assert "Notifications" in tools.latest.as_text()  # type: ignore[union-attr]
    tools.call("press", {"button": "home"})
    held = tools.call("long_press", {"id": find_row(tools.latest.as_text(), "Notes").id,  # type: ignore[union-attr]
                                     "seconds": 1.5})
    assert not held.error
    tools.call("press", {"button": "home"})
    assert not tools.call("tap", {"x": 201.4, "y": 437.6}).error
    kinds = [(kind, params) for kind, params in logged(tmp_path) if kind in ("tap", "swipe")]
    assert kinds[0] == ("swipe", {"from_x": 60, "from_y": 0, "to_x": 60, "to_y": 640,
                                  "duration": 0, "gesture": "drag"})
    assert kinds[1][1]["gesture"] == "touch_and_hold" and kinds[1][1]["duration"] == 1.5
    assert kinds[-1] == ("tap", {"x": 201, "y": 438, "gesture": "tap"})


def test_a_point_must_be_a_finite_number_on_the_screen(
        tools: PhoneTools, tmp_path: Path) -> None:
    tools.call("observe", {})
    before = len(logged(tmp_path))
    told = [tools.call("tap", {"x": 402, "y": 10}), tools.call("tap", {"x": 5, "y": -0.6}),
            tools.call("tap", '{"x": NaN, "y": 3}'), tools.call("tap", '{"x": 1, "y": Infinity}'),
            tools.call("tap", {"x": 10 ** 400, "y": 3}), tools.call("tap", {"x": True, "y": 3}),
            tools.call("tap", {"x": "10", "y": 3}), tools.call("tap", {"x": 3}),
            tools.call("tap", {"id": "1.1", "x": 3, "y": 3}),
            tools.call("long_press", {"x": 3, "y": 3, "seconds": 60}),
            tools.call("swipe", {"from_x": 1, "from_y": 1, "to_x": 1}),
            tools.call("swipe", {"direction": "up", "from_x": 1}), tools.call("swipe", {})]
    assert all(t.error for t in told)
    assert [t.text for t in told] == [
        "tap: (402, 10) is off the screen: x runs from 0 to under 402 and y from 0 to under 874 "
        "(the screen is 402x874 points); nothing was done",
        "tap: (5, -0.6) is off the screen (sent as whole points: (5, -1)): x runs from 0 to "
        "under 402 and y from 0 to under 874 (the screen is 402x874 points); nothing was done",
        "tap: 'x' must be a finite number, not nan",
        "tap: 'y' must be a finite number, not inf",
        "tap: (10000000000000000..., 3) is off the screen: x runs from 0 to under 402 and y "
        "from 0 to under 874 (the screen is 402x874 points); nothing was done",
        "tap: 'x' must be a number, not bool",
        "tap: 'x' must be a number, not str",
        "tap: x and y go together, each a finite number: 'y' is missing or null (a client may "
        "send an infinite number as null)",
        "tap: give an id or a point (x and y), not both",
        "long_press: 'seconds' must be from 0.1 to 5; got 60",
        "swipe: to_x and to_y go together, each a finite number: 'to_y' is missing or null (a "
        "client may send an infinite number as null)",
        "swipe: give a direction or a drag's points, not both",
        "swipe: give a direction (up, down, left, right), or a drag from (from_x, from_y) to "
        "(to_x, to_y) in points"]
    assert len(logged(tmp_path)) == before, "nothing reached the phone"


def test_the_turn_budget_leaves_room_for_done(bridge: BridgeServer) -> None:
    tools = PhoneTools(bridge.url, max_turns=2, settle_s=0.3)
    tools.call("observe", {})  # the first look is no turn, as the `openai:` loop's is not
    assert tools.turns == 0
    tools.call("press", {"button": "home"})
    tools.call("observe", {})
    refused = tools.call("observe", {})
    assert refused.error and tools.out_of_turns and tools.turns == 2
    assert tools.call("done", {"status": "gave_up", "summary": "out of turns"}).text == (
        "claim recorded: gave_up; the attempt is over")
    assert tools.claim is not None and tools.turns == 3
    assert tools.call("observe", {}).text == "done was already called: the attempt is over"


def test_past_the_budget_only_a_valid_done_is_taken_and_counted(bridge: BridgeServer) -> None:
    tools = PhoneTools(bridge.url, max_turns=1, settle_s=0.3)
    tools.call("done", {"summary": "no status"})  # within the budget: a mistake, counted
    assert (tools.turns, tools.out_of_turns) == (1, False)
    for _ in range(50):
        refused = tools.call("done", '{"status": "finished"}')
        assert refused.error and refused.text == (
            "out of turns: the 1 tool call is used; call done; this done was refused: done: "
            "'status' must be one of done, gave_up, failed; got 'finished'")
    assert (tools.turns, tools.out_of_turns, tools.claim) == (1, True, None)
    assert not tools.call("done", {"status": "done"}).error
    assert tools.turns == 2, "the budget and one done, never more"


def test_screenshots_come_with_every_read_when_asked(bridge: BridgeServer) -> None:
    tools = PhoneTools(bridge.url, vision=True, settle_s=0.3)
    reply = tools.call("observe", {})
    assert reply.screenshot_png is not None and reply.screenshot_png.startswith(b"\x89PNG")
    assert PhoneTools(bridge.url).call("observe", {}).screenshot_png is None


def actions_logged(tmp_path: Path) -> int:
    """The agent's actions as the runner counts them from the log (`audit.agent_steps`)."""
    path = tmp_path / "R" / "audit.jsonl"
    return agent_steps(read_audit(path).records) if path.exists() else 0


@pytest.mark.slow  # 2.6 s measured: the README's command stays quick
def test_every_tool_call_logs_at_most_one_action(
        tools: PhoneTools, sim: SimServer, tmp_path: Path) -> None:
    """The log's count of actions is the unit of the turn budget on every agent path, so no
    call may log more than one: not a wrong app name (once a search through the home-screen
    pages, one drag a page), not home (once up to three tries), not on a phone that drops
    what it is sent."""
    cost: dict[str, list[int]] = {}

    def call(name: str, args: dict[str, object]) -> str:
        before = actions_logged(tmp_path)
        reply = tools.call(name, args)
        cost.setdefault(name, []).append(actions_logged(tmp_path) - before)
        return reply.text

    def row(label: str) -> str:
        assert tools.latest is not None
        return find_row(tools.latest.as_text(), label).id

    call("observe", {})
    slip = call("open_app", {"name": "Calculator app"})
    elsewhere = call("open_app", {"name": "Watch"})  # an icon on the second page only
    call("swipe", {"direction": "right"})
    watch = call("open_app", {"name": "Watch"})
    call("press", {"button": "home"})
    call("open_app", {"name": "Notes"})
    call("tap", {"id": row("New Note")})
    call("type", {"text": "one line"})
    call("read", {"id": row("Note")})
    call("long_press", {"id": row("Note"), "seconds": 0.5})
    call("swipe", {"from_x": 60, "from_y": 0, "to_x": 60, "to_y": 640})
    sim.fault_on("drop-writes")  # a phone that answers and does nothing: no retries either
    call("press", {"button": "home"})
    call("open_app", {"name": "Calculator app"})
    call("open_app", {"name": "Preview"})
    sim.fault_off("drop-writes")
    call("done", {"status": "gave_up"})
    assert sorted(cost) == sorted(TOOLS.names()), "every tool is called"
    assert {name: max(spent) for name, spent in cost.items()} == {
        "observe": 0, "read": 0, "open_app": 1, "press": 1, "swipe": 1, "tap": 1, "type": 1,
        "long_press": 1, "done": 0}, cost
    assert "'Calculator'" in slip and "nothing was done" in slip
    assert "another home-screen page" in elsewhere and "app: Watch" in watch
