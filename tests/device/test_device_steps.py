"""Steps run on the simulated iPhone, each verified by its effect; failures name the step."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from sources import json_sources

from phoneshell.apps import bundle_for
from phoneshell.device import Phone, run_probe, run_step, run_steps
from phoneshell.errors import StepError
from phoneshell.sim import SimServer, layout
from phoneshell.sim.apps import AppModel, Host, builtin_apps
from phoneshell.sim.ui import EditText, Node, Rect
from phoneshell.tasks import Step

SETTINGS = "com.apple.Preferences"
NOTES = "com.apple.mobilenotes"


def step(kind: str, arg: str = "", **kw: object) -> Step:
    return Step(kind, arg, file="t.yaml", line=7, **kw)  # type: ignore[arg-type]


def shows(phone: Phone, text: str) -> bool:
    return text in phone.source()


def test_launch_terminate_home(phone: Phone) -> None:
    run_step(phone, step("launch", SETTINGS))
    assert phone.foreground().bundle_id == SETTINGS
    run_step(phone, step("terminate", SETTINGS))
    assert phone.foreground().bundle_id == "com.apple.springboard"
    run_step(phone, step("launch", "com.apple.calculator"))
    run_step(phone, step("home"))
    assert phone.foreground().bundle_id == "com.apple.springboard"


def test_launch_of_a_missing_app_names_the_step(phone: Phone) -> None:
    with pytest.raises(StepError) as caught:
        run_step(phone, step("launch", "com.example.nothing"))
    assert caught.value.message.startswith("launch 'com.example.nothing' (t.yaml:7):")


def test_open_app_by_name_and_by_icon(phone: Phone) -> None:
    run_step(phone, step("open_app", "Settings"))
    assert phone.foreground().bundle_id == SETTINGS
    with pytest.raises(StepError, match="no app called 'Nonesuch' on the home screen"):
        run_step(phone, step("open_app", "Nonesuch"))


def test_typing_into_the_one_field_a_tap_focused_reads_no_json_source(sim: SimServer,
                                                                      phone: Phone) -> None:
    run_steps(phone, [step("launch", SETTINGS)])
    sim.latency.tally.take()
    run_steps(phone, [Step.tap_on("Search", "SearchField"), step("type", "wifi")])
    assert json_sources(sim) == 0  # the tap's own read shows one input under the keyboard
    assert any(e.value == "wifi" for e in phone.page().on_screen()
               if e.type == "XCUIElementTypeSearchField")


@dataclass
class Form:
    name: EditText = field(default_factory=lambda: EditText(placeholder="Name"))
    note: EditText = field(default_factory=lambda: EditText(placeholder="Note"))


def render_form(state: Form, host: Host) -> Node:
    return layout.screen(host.facts, [
        layout.nav_bar(host.facts, "Form"),
        layout.text_field(state.name, Rect(16, 150, 370, 44), name="name"),
        layout.text_field(state.note, Rect(16, 210, 370, 44), name="note")])


FORM = AppModel("com.example.form", "Form", Form, render_form)


def test_typing_where_two_fields_show_asks_which_has_focus() -> None:
    with SimServer(apps=[*builtin_apps(), FORM]) as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        run_steps(phone, [step("launch", "com.example.form")])
        sim.latency.tally.take()
        run_steps(phone, [step("tap", "Note"), step("type", "second")])
        assert json_sources(sim) >= 1  # the XML source cannot say which of two is typed into
        typed = {e.name: e.value for e in phone.page().elements
                 if e.type == "XCUIElementTypeTextField"}
        assert typed == {"name": "Name", "note": "second"}


def render_tally(state: object, host: Host) -> Node:
    return layout.screen(host.facts, [layout.nav_bar(host.facts, "Tally")])


TALLY = AppModel("com.example.tally", "Tally", object, render_tally)
"""An app phoneshell knows no bundle id for: open_app has to find its icon."""


def test_open_app_taps_the_icon_of_an_app_it_has_no_bundle_id_for() -> None:
    assert bundle_for("Tally") is None, "no launch by bundle id to fall back on"
    with SimServer(apps=[*builtin_apps(), TALLY]) as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        run_step(phone, step("open_app", "Tally"))
        assert phone.foreground().bundle_id == "com.example.tally"


def test_tap_navigates_and_fails_clearly_on_a_missing_element(phone: Phone) -> None:
    run_steps(phone, [step("open_app", "Settings"), step("tap", "General")])
    assert shows(phone, "About")
    with pytest.raises(StepError) as caught:
        run_step(phone, step("tap", "Genral"))
    assert "no on-screen element matches 'Genral'" in caught.value.message
    assert "'General'" in caught.value.message  # what the screen shows instead


def test_a_tap_of_one_type_takes_only_that_type(phone: Phone) -> None:
    run_steps(phone, [step("open_app", "Notes")])
    # the search field by its type; the magnifier Image labelled Search is not it
    run_step(phone, Step.tap_on("Search", "SearchField"))
    assert phone.page().keyboard_up
    with pytest.raises(StepError) as caught:
        run_step(phone, Step.tap_on("Search", "Slider"))
    assert "no on-screen Slider element matches 'Search'" in caught.value.message



def title(phone: Phone) -> str:
    return next(e.name for e in phone.page().on_screen() if e.short_type == "NavigationBar")


def test_a_tap_with_nth_opens_that_row_from_the_top(phone: Phone) -> None:
    def nth(row: int) -> Step:
        return step("tap", "Display", options=(("text", "Display"), ("nth", str(row))))

    search = [step("terminate", SETTINGS), step("launch", SETTINGS),
              Step.tap_on("Search", "SearchField"), step("type", "Display")]
    opened = []
    for row in (1, 2, 3):
        run_steps(phone, [*search, nth(row)])
        opened.append(title(phone))
    # one row each, the result's title inside its button not a row of its own
    assert opened == ["Display & Brightness", "Display & Text Size", "Display Zoom"]
    run_steps(phone, search)
    with pytest.raises(StepError) as caught:
        run_step(phone, nth(4))
    assert "no on-screen element in row 4 from the top matches 'Display'" in \
        caught.value.message
    assert "(row 4 from the top)" in caught.value.message

def test_a_tap_the_phone_drops_is_an_error(sim: SimServer, phone: Phone) -> None:
    run_step(phone, step("open_app", "Settings"))
    sim.set_faults(["drop-writes"])
    with pytest.raises(StepError, match="tapping Button 'General' had no visible effect"):
        run_step(phone, step("tap", "General"))


def test_type_needs_focus_and_is_read_back(phone: Phone) -> None:
    run_step(phone, step("open_app", "Settings"))
    with pytest.raises(StepError, match="no text field has focus"):
        run_step(phone, step("type", "Wi-Fi"))
    run_steps(phone, [step("tap", "Search"), step("type", "Blue")])
    assert any(f.focused and f.value == "Blue" for f in phone.fields())
    run_step(phone, step("type", "tooth"))
    assert any(f.focused and f.value == "Bluetooth" for f in phone.fields())


def test_swipe_scrolls_and_an_ineffective_swipe_is_an_error(phone: Phone) -> None:
    run_step(phone, step("open_app", "Settings"))
    run_step(phone, step("swipe", "down"))  # the list moves
    with pytest.raises(StepError, match="the swipe had no visible effect"):
        for _ in range(10):  # until the list ends: a swipe that moves nothing is reported
            run_step(phone, step("swipe", "down"))
    run_step(phone, step("swipe", "up"))


def test_swipe_between_points_opens_notification_center(phone: Phone) -> None:
    run_step(phone, step("swipe", start=(60.0, 2.0), end=(60.0, 640.0)))
    assert shows(phone, "SBCoverSheetWindow")


def test_press_home_and_wait(phone: Phone) -> None:
    run_steps(phone, [step("open_app", "Calculator"), step("press", "home"),
                      Step("wait", seconds=0.01)])
    assert phone.foreground().bundle_id == "com.apple.springboard"


@pytest.mark.slow  # 2.0 s measured: the README's command stays quick
def test_setup_on_a_locked_phone_does_not_take_effect(sim: SimServer, phone: Phone) -> None:
    sim.set_faults(["locked"])
    with pytest.raises(StepError, match="did not come to the front.*the phone is locked"):
        run_step(phone, step("launch", SETTINGS))


def test_clean_notes_deletes_the_newest_and_keeps_the_oldest(phone: Phone) -> None:
    for text in ("phoneshell benchmark", "x phoneshell benchmark y"):
        run_steps(phone, [Step("launch", NOTES), Step("tap", "New Note"), Step("type", text),
                          Step("terminate", NOTES)])
    assert run_probe(phone, "notes_containing", "phoneshell benchmark") == 3
    run_steps(phone, [Step("clean_notes", "phoneshell benchmark", options=(("keep", "1"),))])
    assert run_probe(phone, "notes_containing", "phoneshell benchmark") == 1
    assert run_probe(phone, "newest_note", "").startswith("phoneshell benchmark\nA saved note")


def test_clean_notes_exact_deletes_only_notes_that_are_the_text_and_nothing_else(
        phone: Phone) -> None:
    # the seeded note is titled the same but has a second line: it stays
    for text in ("phoneshell benchmark", "x phoneshell benchmark"):
        run_steps(phone, [Step("launch", NOTES), Step("tap", "New Note"), Step("type", text),
                          Step("terminate", NOTES)])
    assert run_probe(phone, "notes_titled", "phoneshell benchmark") == 2
    run_steps(phone, [Step("clean_notes", options=(("text", "phoneshell benchmark"),
                                                    ("exact", "yes")))])
    assert run_probe(phone, "notes_titled", "phoneshell benchmark") == 1
    assert run_probe(phone, "notes_containing", "phoneshell benchmark") == 2
    assert run_probe(phone, "newest_note", "").startswith("x phoneshell benchmark")


def test_back_to_goes_back_until_the_element_shows_and_fails_where_none_leads_to_it(
        phone: Phone) -> None:
    settings = "com.apple.Preferences"
    run_steps(phone, [Step("launch", settings), Step("tap", "General"), Step("tap", "About")])
    back = Step("back_to", "Airplane Mode", options=(("text", "Airplane Mode"),),
                file="t.yaml", line=3)
    run_step(phone, back)  # About -> General -> the root, where Airplane Mode shows
    assert phone.page().find("Airplane Mode") and not phone.page().find("Model Name")
    run_step(phone, back)  # shows already: nothing is tapped
    with pytest.raises(StepError, match="no way back to a Cell element matching 'Nowhere'"):
        run_step(phone, Step("back_to", "Nowhere", options=(("text", "Nowhere"),
                                                              ("type", "Cell"))))
