"""Settings: the root list, scrolling, navigation and back, search, switches, About's facts, and
a page with rows behind every link row."""

from __future__ import annotations

import pytest
import wda
from lxml import etree
from settings_screen import SETTINGS, rows, title

from phoneshell.sim import DeviceFacts, SimServer, layout
from phoneshell.sim.apps import AppModel, builtin_apps
from phoneshell.sim.apps.settings_pages import PAGES
from phoneshell.sim.apps.settings_rows import STUB

ROOT_ROWS = ["Apple Account", "Airplane Mode", "Wi-Fi", "Bluetooth", "Cellular", "Battery",
             "General", "Accessibility", "Action Button", "Apple Intelligence & Siri", "Camera",
             "Control Center", "Display & Brightness", "Home Screen & App Library", "Search",
             "StandBy", "Wallpaper", "Notifications", "Sounds & Haptics", "Focus",
             "Screen Time", "Face ID & Passcode", "Emergency SOS", "Privacy & Security",
             "Game Center", "iCloud", "Wallet & Apple Pay", "Apps", "Developer"]
"""The iOS 26.2 root on a phone: the dump's rows in its order, with the rows a phone adds."""


@pytest.fixture
def settings(client: wda.Client) -> wda.Client:
    """A session on a freshly launched Settings."""
    return client.session(SETTINGS)


def test_root_list_has_a_real_phones_rows_in_order(settings, client):
    seen: list[str] = []
    for _ in range(8):
        seen += [r for r in rows(client) if r not in seen]
        settings.swipe_up()
    assert seen == ROOT_ROWS
    settings.swipe_down()


def test_rows_are_made_only_near_the_view(settings, client):
    first = rows(client)
    assert "Developer" not in first  # far below: no cell yet, as UIKit makes cells lazily
    assert "Camera" in first and "Camera" not in rows(client, visible_only=True)
    button = settings(name="com.apple.settings.general").get(timeout=1)
    assert button.className == "XCUIElementTypeButton" and button.label == "General"
    [cell] = etree.fromstring(client.source().encode()).xpath(
        "//XCUIElementTypeCell[.//XCUIElementTypeButton[@label='General']]")
    assert cell.get("accessible") == "false" and "name" not in cell.attrib


def test_scrolling_to_the_bottom_and_back(settings, client):
    for _ in range(6):
        settings.swipe_up()
    visible = rows(client, visible_only=True)
    assert "Developer" in visible and "General" not in visible
    before = client.source()
    settings.swipe_up()
    assert client.source() == before  # already at the end: the list does not move
    for _ in range(6):
        settings.swipe_down()
    assert "General" in rows(client, visible_only=True)


def test_general_about_model_number(settings, client):
    settings(name="General").click()
    assert title(client) == "General"
    settings(name="About").click()
    cell = settings(name="ProductModel").get(timeout=1)
    assert cell.label == "Model Number, MQ163LL/A"
    assert settings(className="StaticText", name="MQ163LL/A").exists
    assert settings(name="SerialNumber").get(timeout=1).label.startswith("Serial Number, ")
    assert settings(name="SW_VERSION_SPECIFIER").get(timeout=1).label == "iOS Version, 26.2"


def test_back_button_is_labelled_with_the_previous_page(settings, client):
    settings(name="General").click()
    settings(name="About").click()
    back = settings(name="BackButton").get(timeout=1)
    assert back.label == "General"
    back.click()
    assert title(client) == "General"
    settings(name="BackButton").click()
    assert title(client) == "Settings"
    assert not settings(name="BackButton").exists


def test_edge_swipe_goes_back(settings, client):
    settings(name="General").click()
    settings(name="About").click()
    settings.swipe_right()  # from x=1: the left edge
    assert title(client) == "General"
    settings.swipe(10, 400, 300, 420)
    assert title(client) == "Settings"


def test_search_lists_and_opens_a_page(settings, client):
    field = settings(className="SearchField").get(timeout=1)
    assert field.bounds.y > 780  # iOS 26: in the bottom toolbar
    field.click()
    assert settings(className="SearchField").get(timeout=1).bounds.y < 583  # over the keys
    settings.send_keys("Wi-Fi")
    assert rows(client)[0] == "Wi-Fi"  # then the pages whose rows say it (About's address)
    assert settings(name="Cancel").exists
    settings(label="Wi-Fi", className="Button").click()
    assert title(client) == "Wi-Fi"
    assert not settings(className="Keyboard").exists


def test_search_result_opens_with_its_parents_underneath(settings, client):
    settings(className="SearchField").click()
    settings.send_keys("Storage\n")  # Return dismisses the keyboard and keeps the results
    assert not settings(className="Keyboard").exists
    assert "iPhone Storage" in rows(client)
    settings(name="iPhone Storage", className="Button").click()
    assert title(client) == "iPhone Storage"
    assert settings(name="BackButton").get(timeout=1).label == "General"


def test_search_cancel_restores_the_list(settings, client):
    settings(className="SearchField").click()
    settings.send_keys("zzz")
    assert rows(client) == ["No Results"]
    settings(name="Cancel").click()
    assert "General" in rows(client)


def test_wifi_switch_toggles_by_its_knob_only(settings, client):
    settings(label="Wi-Fi", className="Button").click()
    switch = settings(className="Switch", label="Wi-Fi").get(timeout=1)
    assert switch.value == "1" and switch.bounds.width > 300  # the row-wide switch
    assert settings(label="HomeNet, Connected").exists
    switch.click()  # its centre is the label, which does nothing on a phone either
    assert settings(className="Switch", label="Wi-Fi").get(timeout=1).value == "1"
    settings(xpath="//XCUIElementTypeSwitch[@label='Wi-Fi']/XCUIElementTypeSwitch").click()
    assert settings(className="Switch", label="Wi-Fi").get(timeout=1).value == "0"
    assert not settings(label="HomeNet, Connected").exists
    settings(name="BackButton").click()
    assert settings(label="Wi-Fi", className="Button").get(timeout=1).value == "Off"


def test_a_switch_thumb_slid_toward_its_other_side_flips_it(settings, client):
    settings(label="Wi-Fi", className="Button").click()
    knob = settings(xpath="//XCUIElementTypeSwitch[@label='Wi-Fi']/XCUIElementTypeSwitch")
    x, y = knob.get(timeout=1).bounds.center

    def wifi() -> str:
        return settings(className="Switch", label="Wi-Fi").get(timeout=1).value

    settings.swipe(x - 15, y, x + 15, y)  # on already: sliding right changes nothing
    assert wifi() == "1"
    settings.swipe(x + 15, y, x - 15, y)
    assert wifi() == "0"
    settings.swipe(x, y, x + 4, y)  # barely moved: a tap, as UIKit takes it, which flips it
    assert wifi() == "1"
    settings.swipe(x + 15, y, x - 15, y)
    assert wifi() == "0"


def test_bluetooth_and_battery_pages(settings, client):
    settings(label="Bluetooth", className="Button").click()
    assert settings(className="Switch", label="Bluetooth").get(timeout=1).value == "1"
    settings(name="BackButton").click()
    settings(label="Battery", className="Button").click()
    assert settings(label="87%, Last Charged to 100%, 8:12 AM", className="Cell").exists
    assert settings(className="Switch", label="Battery Percentage").exists
    assert settings(label="Battery Health, Normal", className="Cell").exists


def test_text_size_has_a_slider_and_larger_text(settings, client):
    settings.swipe_up()  # below the fold on a phone's root list
    settings(label="Display & Brightness", className="Button").click()
    settings(label="Text Size", className="Cell").click()
    slider = settings(className="Slider", label="Text Size").get(timeout=1)
    assert slider.value == "50%"
    assert settings(label="Larger Text", className="Cell").exists
    slider.set_text("0.8")  # WDA's element value sets a slider by its position, 0 to 1
    assert settings(className="Slider", label="Text Size").get(timeout=1).value == "80%"
    with pytest.raises(wda.WDAError, match="0..1 range"):
        slider.set_text("80%")  # read as 80, as WDA's floatValue reads it: refused
    assert settings(className="Slider", label="Text Size").get(timeout=1).value == "80%"
    x, y = slider.bounds.center
    settings.swipe(x, y, x - 100, y)
    assert settings(className="Slider", label="Text Size").get(timeout=1).value != "80%"


@pytest.mark.parametrize(("path", "expect"), [
    (["Accessibility"], "Display & Text Size"),
    (["General", "Software Update"], "iOS is up to date"),
    (["General", "iPhone Storage"], "Photos, 21.3 GB"),
    (["General", "Date & Time"], "24-Hour Time"),
    (["General", "Fonts"], "No fonts installed"),
    (["General", "Keyboard"], "Predictive Text"),
    (["Accessibility", "Motion"], "Reduce Motion"),
])
def test_pages_reachable_by_taps(settings, path, expect):
    for label in path:
        # The root's row Button, a sub-page's Cell; the click route scrolls a row that is
        # below the fold into view first, as XCUITest does.
        settings(label=label).get(timeout=1).tap()
    assert settings(label=expect).exists


def test_every_link_row_opens_a_page_with_rows():
    # A phone shows content behind every row; a link to no page opened a bare title. A stub's
    # target is drawn with its title row (`test_a_stub_page_shows_its_row_and_no_search_finds_it`).
    # Rows count when they show whichever way the switches stand: ungated, or gated both ways
    # (Wi-Fi's switch shows on and off, under a footer that follows it).
    def always_rows(target: str | None) -> bool:
        gates = {s.when for s in getattr(PAGES.get(target or ""), "sections", ()) if s.rows}
        return None in gates or any(g is not None and f"!{g}" in gates for g in gates)

    blank = [f"{page.title} > {row.title}" for page in PAGES.values()
             for section in page.sections for row in section.rows
             if row.kind == "link" and not (row.target or "").startswith(STUB)
             and not always_rows(row.target)]
    assert blank == []


def test_a_stub_page_shows_its_row_and_no_search_finds_it():
    """A row a phone navigates from and the simulator does not model opens a stub titled by it,
    in the phone's spelling as the row and the bar; no search lists one, Settings' or Spotlight's
    (which listed "Speech" and "Braille" while Settings' search hid them): Settings' search
    finds the page the row is on (`settings_search`)."""
    with SimServer(facts=DeviceFacts(locale="en_GB")) as sim:
        client = wda.Client(sim.url)
        settings = client.session(SETTINGS)
        settings(label="General", className="Button").get(timeout=1).tap()
        settings(name="Fonts").get(timeout=1).tap()
        settings(name="System Fonts").get(timeout=1).tap()
        settings(name="Apple Colour Emoji").get(timeout=1).tap()
        assert title(client) == "Apple Colour Emoji"
        assert rows(client) == ["Apple Colour Emoji"]
        for _ in range(4):
            settings(name="BackButton").get(timeout=1).tap()
        assert title(client) == "Settings"
        settings(className="SearchField").click()
        settings.send_keys("Braille\n")
        assert rows(client) == ["VoiceOver"]
        home = client.session()
        home.swipe_down()
        home.send_keys("Speech")
        assert not home(label="Speech", className="Cell").exists
        assert home(label="No Results").exists


@pytest.mark.parametrize(("path", "expect"), [
    (["Accessibility", "Switch Control"], ["Switch Control"]),
    (["Accessibility", "Touch"], ["AssistiveTouch", "Reachability", "Haptic Touch"]),
    (["Cellular", "Personal Hotspot"], ["Allow Others to Join", "Wi-Fi Password"]),
    (["General", "AirPlay & Continuity"], ["Automatically AirPlay", "Transfer to HomePod"]),
    (["General", "Keyboard", "Keyboards"], ["English (US)", "Emoji", "Add New Keyboard…"]),
    (["Battery", "Charging"], ["Optimized Battery Charging"]),
    # iOS 26 calls it this (Apple's AEAssessmentConfiguration docs: Accessibility > Keyboards &
    # Typing); under "Keyboards" it shared General > Keyboard > Keyboards' title
    (["Accessibility", "Keyboards & Typing"], ["Full Keyboard Access"]),
])
def test_pages_once_blank_show_their_rows(settings, client, path, expect):
    settings(label=path[0]).get(timeout=1).tap()  # the root's row Button
    for name in path[1:]:
        settings(name=name).get(timeout=1).tap()  # a sub-page's Cell, named by its title
    assert title(client) == path[-1]
    assert rows(client)[:len(expect)] == expect


def test_voiceover_switch_turns_on_and_its_row_says_so(settings, client, sim):
    settings(label="Accessibility", className="Button").click()
    assert settings(name="VoiceOver").get(timeout=1).label == "VoiceOver, Off"
    settings(name="VoiceOver").get(timeout=1).tap()
    assert title(client) == "VoiceOver"
    settings(xpath="//XCUIElementTypeSwitch[@label='VoiceOver']/XCUIElementTypeSwitch").click()
    assert settings(className="Switch", label="VoiceOver").get(timeout=1).value == "1"
    assert sim.state()["stores"][SETTINGS]["voiceover"] is True
    settings(name="BackButton").click()
    assert title(client) == "Accessibility"
    assert settings(name="VoiceOver").get(timeout=1).label == "VoiceOver, On"
    assert settings(name="Zoom").get(timeout=1).label == "Zoom, Off"  # its own switch


def checked(client: wda.Client) -> list[str]:
    """The rows showing a checkmark: the cell around each "checkmark" button."""
    root = etree.fromstring(client.source().encode())
    return [cell.get("label") for cell in root.iter("XCUIElementTypeCell")
            if any(b.get("label") == "checkmark" for b in cell.iter("XCUIElementTypeButton"))]


def test_an_option_chosen_moves_the_checkmark_and_its_link_names_it(settings, client, sim):
    settings.swipe_up()  # below the first screen, and not in the tree until near it
    settings(label="Display & Brightness", className="Button").click()
    assert settings(name="Auto-Lock").get(timeout=1).label == "Auto-Lock, Never"
    settings(name="Auto-Lock").get(timeout=1).tap()
    assert title(client) == "Auto-Lock" and checked(client) == ["Never"]
    # as on iOS 26, the chosen cell reports no selection of its own: only its checkmark shows
    never = settings(name="Never", className="Cell").get(timeout=1)
    assert never.label == "Never" and never.value is None
    settings(name="1 minute", className="Cell").get(timeout=1).tap()
    assert checked(client) == ["1 minute"]
    assert sim.state()["stores"][SETTINGS]["auto_lock"] == "1 minute"
    settings(name="BackButton").click()
    assert settings(name="Auto-Lock").get(timeout=1).label == "Auto-Lock, 1 minute"
    client.app_terminate(SETTINGS)  # kept in Settings' store, as on a phone
    settings = client.session(SETTINGS)
    settings.swipe_up()
    settings(label="Display & Brightness", className="Button").click()
    assert settings(name="Auto-Lock").get(timeout=1).label == "Auto-Lock, 1 minute"


def test_a_link_names_a_long_option_as_a_phone_shortens_it(settings, client):
    settings.swipe_up()
    settings(label="Camera", className="Button").click()
    assert settings(name="Record Video").get(timeout=1).label == "Record Video, 1080p at 30 fps"
    settings(name="Record Video").get(timeout=1).tap()
    settings(name="4K at 60 fps", className="Cell").get(timeout=1).tap()
    assert checked(client) == ["4K at 60 fps"]
    settings(name="BackButton").click()
    assert settings(name="Record Video").get(timeout=1).label == "Record Video, 4K at 60 fps"


def test_auto_lock_locks_a_phone_left_untouched_that_long(settings, client, sim):
    assert not client.locked()
    sim.advance_clock(3600)  # Never, as a phone set up for phoneshell is
    assert not client.locked()
    settings.swipe_up()  # below the first screen, and not in the tree until near it
    settings(label="Display & Brightness", className="Button").click()
    settings(name="Auto-Lock").get(timeout=1).tap()
    settings(name="30 seconds", className="Cell").get(timeout=1).tap()
    sim.advance_clock(20)
    settings(name="BackButton").click()  # a touch: the 30 seconds count again from here
    sim.advance_clock(20)
    assert not client.locked()
    sim.advance_clock(10)
    assert client.locked()


@pytest.mark.parametrize(("query", "found", "parent"), [
    ("VoiceOver", "VoiceOver", "Accessibility"),  # by its title
    ("blue light", "Night Shift", "Display & Brightness"),  # by a keyword
])
def test_search_finds_pages_by_title_and_keyword(settings, client, query, found, parent):
    settings(className="SearchField").click()
    settings.send_keys(query + "\n")
    assert rows(client) == [found]
    settings(name=found, className="Button").click()
    assert title(client) == found
    assert settings(name="BackButton").get(timeout=1).label == parent


def test_rows_scrolled_past_are_recovered(settings, client):
    for _ in range(3):
        settings.swipe_up()
    assert "General" not in rows(client, visible_only=True)
    settings.swipe_down()
    settings.swipe_down()
    settings(label="General", className="Button").click()
    assert title(client) == "General"


def test_device_facts_are_configurable():
    facts = DeviceFacts(model_number="A3256LL/A", name="Ada's iPhone")
    with SimServer(facts=facts) as sim:
        session = wda.Client(sim.url).session(SETTINGS)
        session(name="General").click()
        session(name="About").click()
        assert session(name="ProductModel").get(timeout=1).label == "Model Number, A3256LL/A"
        assert session(name="NAME_CELL_ID").get(timeout=1).label == "Name, Ada's iPhone"


MIXER = AppModel("com.example.mixer", "Color Mixer", dict,
                 lambda _, host: layout.screen(host.facts, [layout.nav_bar(host.facts, "Mixer")]))
"""An app whose name a UK phone would spell otherwise, were it Settings' own words."""


def test_settings_lists_an_app_by_its_home_screen_name():
    """Apps and iPhone Storage name an app as its icon does, in every locale: Apps' list read
    "Colour Mixer" on a UK phone beside an icon and a Storage row reading "Color Mixer"."""
    with SimServer(facts=DeviceFacts(locale="en_GB"), apps=[*builtin_apps(), MIXER]) as sim:
        client = wda.Client(sim.url)
        assert client.session()(label="Color Mixer", className="Icon").exists
        settings = client.session(SETTINGS)
        settings(className="SearchField").click()
        settings.send_keys("Apps\n")
        settings(name="Apps", className="Button").get(timeout=1).click()
        assert title(client) == "Apps"
        assert "Color Mixer" in rows(client) and "Colour Mixer" not in rows(client)
        client.app_terminate(SETTINGS)
        settings = client.session(SETTINGS)
        settings(label="General", className="Button").get(timeout=1).click()
        settings(name="iPhone Storage").get(timeout=1).click()
        seen: list[str] = []
        for _ in range(12):
            seen += rows(client)
            if "Color Mixer" in seen:
                break
            settings.swipe_up()
        assert "Color Mixer" in seen and "Colour Mixer" not in seen
