"""Safari: the address bar, open_url, search, back and forward, tabs, the link menu, probe pages."""

from __future__ import annotations

import io

import pytest
import wda
from lxml import etree
from PIL import Image, ImageChops

from phoneshell.sim import DeviceFacts, SimServer, render
from phoneshell.sim.apps.safari_pages import PROBE_WORDS
from phoneshell.sim.ui import Node, Rect, Screen

SAFARI = "com.apple.mobilesafari"


@pytest.fixture
def safari(client: wda.Client) -> wda.Client:
    """A session on a freshly launched Safari."""
    return client.session(SAFARI)


def tree(client: wda.Client) -> etree._Element:
    return etree.fromstring(client.source().encode())


def shown(client: wda.Client) -> list[str]:
    """Labels of the visible elements, in document order."""
    return [e.get("label") for e in tree(client).iter()
            if e.get("label") and e.get("visible") == "true"]


def address(session: wda.Client) -> str:
    """The address field's value, without the left-to-right mark Safari puts before a host."""
    return session(name="TabBarItemTitle").get(timeout=1).value.removeprefix("\u200e")


def go_to(session: wda.Client, typed: str) -> None:
    session(name="TabBarItemTitle").click()
    session.send_keys(typed + "\n")


def stored_tabs(sim: SimServer) -> list[dict[str, object]]:
    return sim.state()["stores"][SAFARI]["tabs"]


def test_start_page_like_the_dump(safari, client):
    field = safari(name="TabBarItemTitle").get(timeout=1)
    assert field.className == "XCUIElementTypeTextField" and field.label == "Address"
    assert field.value == "Search or enter website"
    assert safari(name="StartPageCollectionView").exists
    assert safari(label="Favorites").exists
    # On the start page the bar's buttons carry no identifier: WDA names them by label.
    back = safari(name="Back").get(timeout=1)
    assert back.label == "Back" and back.enabled is False
    assert safari(name="More", className="Button").exists
    assert safari(name="VoiceSearchButton").exists
    assert tree(client).get("name") == "Safari"
    favorites = safari(name="favoritesItemIdentifierContent").find_elements()
    assert [f.label for f in favorites] == ["Apple", "Bing", "Google", "Wikipedia"]
    safari(name="close").click()  # the Customize Start Page card goes, for good
    safari.app_terminate(SAFARI)
    safari.app_launch(SAFARI)
    assert not safari(name="onboardingItemIdentifierContent-CustomizeStartPage").exists


def test_a_loaded_page_has_the_bar_of_the_dump(safari, client):
    go_to(safari, "example.com")
    assert safari(name="TabBarItemTitle").get(timeout=1).value == "\u200eexample.com"
    for name, label in [("BackButton", "Back"), ("MoreMenuButton", "More"),
                        ("PageFormatMenuButton", "Page Menu"), ("ReloadButton", "refresh")]:
        assert safari(name=name).get(timeout=1).label == label
    window = tree(client).find(".//XCUIElementTypeOther[@name]")
    assert window.get("name").startswith("SafariWindow?View=Narrow&")


def test_address_bar_focuses_with_the_keyboard_and_loads_a_page(safari, client):
    safari(name="TabBarItemTitle").click()
    assert safari(className="Keyboard").exists
    assert client.source(format="json") and _focused(client) == ["TabBarItemTitle"]
    safari.send_keys("example.com")
    assert address(safari) == "example.com"
    safari.send_keys("\n")
    assert not safari(className="Keyboard").exists
    heading = safari(label="Example Domain", className="StaticText").get(timeout=1)
    assert heading.label == "Example Domain"
    header = tree(client).find(".//XCUIElementTypeStaticText[@label='Example Domain']")
    assert header.get("traits") == "Header, StaticText"
    level = tree(client).find(".//XCUIElementTypeOther[@traits='Header']")
    assert (level.get("label"), level.get("value")) == ("Example Domain", "1")
    web = tree(client).find(".//XCUIElementTypeWebView")
    assert web is not None and web.get("name") == "WebView"
    assert web.find(".//XCUIElementTypeLink[@label='More information...']") is not None
    assert address(safari) == "example.com"


def test_a_favourite_tapped_while_the_address_is_edited_opens_and_ends_the_editing(safari):
    """With the address focused and nothing typed, the start page's favourites show and take
    their taps; following one ends the editing, as on a phone."""
    safari(name="TabBarItemTitle").click()
    safari(className="Cell", label="Apple").click()
    assert not safari(className="Keyboard").exists
    assert address(safari) == "apple.com"


@pytest.mark.parametrize("typed", ["http://www.example.com/", "EXAMPLE.com",
                                   "https://example.com", "www.example.com/"])
def test_example_com_in_any_spelling(safari, typed):
    go_to(safari, typed)
    assert safari(label="Example Domain", className="StaticText").exists


@pytest.mark.parametrize(("url", "word"), [
    ("https://blolabel.ai/probe/nine/../one/", "CARDAMOM"),
    ("https://blolabel.ai/probe/x/%2e%2E/two/.", "PELICAN")])
def test_dot_segments_resolve_as_a_browser_resolves_them(app, url, word):
    """Safari follows the WHATWG URL standard: `..` and `.%2e` go up a level, `.` stays."""
    app.open_url(url)
    assert app(label=word).exists


def test_open_url_opens_safari_on_the_page(app, client):
    app.open_url("https://example.com/")
    assert client.app_current()["bundleId"] == SAFARI
    assert app(label="Example Domain", className="StaticText").exists


def test_words_in_the_address_bar_search_the_web(safari, client):
    go_to(safari, "iso 8601 date format")
    assert address(safari) == "iso 8601 date format"
    document = tree(client).find(".//XCUIElementTypeWebView//XCUIElementTypeOther[@label]")
    assert document.get("label") == "iso 8601 date format - Google Search"
    links = [e.get("label") for e in tree(client).iter("XCUIElementTypeLink")]
    assert links and all("iso 8601 date format" in link.lower() for link in links)
    safari(className="Link").click()  # a result opens
    assert safari(label="Iso 8601 date format", className="StaticText").exists


def test_an_unknown_host_shows_the_error_page(safari):
    go_to(safari, "no-such-host.invalid")
    assert safari(label="Safari Can\u2019t Open the Page").exists
    assert address(safari) == "no-such-host.invalid"


def test_links_back_forward_and_the_edge_swipe(safari, client):
    go_to(safari, "example.com")
    safari(label="More information...", className="Link").click()
    assert safari(label="Example Domains", className="StaticText").exists
    assert address(safari) == "iana.org"
    safari(name="BackButton").click()
    assert safari(label="Example Domain", className="StaticText").exists
    forward = safari(name="ForwardButton").get(timeout=1)
    assert forward.enabled and forward.label == "Forward"
    forward.click()
    assert safari(label="Example Domains", className="StaticText").exists
    safari.swipe(2, 400, 300, 400)  # from the left edge: back
    assert safari(label="Example Domain", className="StaticText").exists


def test_cancel_leaves_the_page_as_it_was(safari):
    go_to(safari, "example.com")
    safari(name="TabBarItemTitle").click()
    safari.send_keys("apple")
    safari(label="Cancel").click()
    assert not safari(className="Keyboard").exists
    assert address(safari) == "example.com"


def test_tabs_overview_new_tab_and_persistence(sim, safari, client):
    safari.open_url("https://example.com/")  # into the blank tab
    safari.open_url("https://blolabel.ai/probe/one/")  # a second tab
    assert [t["title"] for t in stored_tabs(sim)] == ["Example Domain", "blolabel probe"]
    tabs = safari(name="TabOverviewButton").get(timeout=1)
    assert tabs.label == "Tabs"
    tabs.click()
    cards = [e.get("label") for e in tree(client).iter("XCUIElementTypeCell")]
    assert cards == ["Example Domain", "blolabel probe"]
    for label in ("Done", "New Tab", "Private", "2 Tabs"):
        assert safari(label=label, className="Button").exists, label
    safari(label="Example Domain", className="Cell").click()  # switch to the first tab
    assert safari(label="Example Domain", className="StaticText").exists
    safari.app_terminate(SAFARI)
    safari.app_launch(SAFARI)  # tabs come back, with the one in front
    assert safari(label="Example Domain", className="StaticText").exists
    safari(name="TabOverviewButton").click()
    safari(label="New Tab").click()
    assert address(safari) == "Search or enter website"
    assert len(stored_tabs(sim)) == 3


def visible_cards(client: wda.Client) -> list[str]:
    return [e.get("label") for e in tree(client).iter("XCUIElementTypeCell")
            if e.get("visible") == "true"]


def test_the_overview_opens_on_the_tab_in_front(sim, safari, client):
    pages = ["one", "two", "three", "four", "five", "six", "seven", "eight"]
    for page in pages:  # eight tabs: four rows, more than one screen holds
        safari.open_url(f"https://blolabel.ai/probe/{page}/")
    safari(name="TabOverviewButton").click()
    newest = visible_cards(client)
    assert newest and newest[-1] == "blolabel probe" and len(newest) < len(pages)
    assert tree(client).findall(".//XCUIElementTypeCell")[-1].get("visible") == "true"
    safari(label="Done", className="Button").click()
    safari.app_terminate(SAFARI)
    store = sim.state()["stores"][SAFARI]
    assert store["active"] == len(pages) - 1
    safari.app_launch(SAFARI)
    safari(name="TabOverviewButton").click()  # the newest is still in front: same place
    assert tree(client).findall(".//XCUIElementTypeCell")[-1].get("visible") == "true"
    cells = tree(client).findall(".//XCUIElementTypeCell")
    assert cells[0].get("visible") == "false", "the first tabs are scrolled out of sight"


def test_closing_tabs_and_private_tabs_are_not_kept(sim, safari):
    safari.open_url("https://example.com/")
    safari(name="TabOverviewButton").click()
    safari(label="Private", className="Button").click()
    assert safari(label="Private Browsing").exists
    safari(label="New Tab").click()
    go_to(safari, "apple.com")
    assert safari(label="Apple", className="StaticText").exists
    assert [t["title"] for t in stored_tabs(sim)] == ["Example Domain"]
    safari(name="TabOverviewButton").click()
    safari(label="1 Tab", className="Button").click()  # back to the normal tabs
    safari(name="closeTabButton").click()
    assert [t["url"] for t in stored_tabs(sim)] == [""]  # the last tab closed: a blank one


def test_link_menu_on_a_long_press(sim, safari, client):
    go_to(safari, "example.com")
    safari(label="More information...", className="Link").tap_hold(1.0)
    items = [e.get("label") for e in tree(client).find(".//XCUIElementTypeMenu")]
    assert items == ["Open in New Tab", "Add to Reading List", "Copy Link", "Share\u2026"]
    assert safari(name="LinkPreview").exists
    safari.tap(200, 700)  # elsewhere: the menu goes, the page stays
    assert not safari(className="Menu").exists
    assert safari(label="Example Domain", className="StaticText").exists
    safari(label="More information...", className="Link").tap_hold(1.0)
    safari(label="Copy Link").click()
    assert sim.state()["stores"]["com.apple.pasteboard"]["text"] == (
        "https://www.iana.org/domains/example")
    safari(label="More information...", className="Link").tap_hold(1.0)
    safari(label="Open in New Tab").click()
    assert [t["title"] for t in stored_tabs(sim)] == ["Example Domain", "Example Domains"]


def test_the_share_sheet_is_a_popover_with_an_activity_list(sim, safari, client):
    go_to(safari, "squoosh.app")
    safari(name="MoreMenuButton").click()
    safari(label="Share\u2026").click()
    popover = tree(client).find(".//XCUIElementTypePopover")
    assert popover is not None
    cells = [(c.get("name"), c.get("label")) for c in popover.iter("XCUIElementTypeCell")]
    assert ("actionGroupCell", "Copy") in cells and ("shareCell", "More") in cells
    assert safari(name="LP.CaptionBar.BottomCaption").get(timeout=1).label == "squoosh.app"
    # Behind the popover Safari's own views are there but not visible, while the page's web
    # content keeps its visibility, as the dump shows it.
    for name in ("TabBarItemTitle", "MoreMenuButton", "WebView"):
        assert safari(name=name).get(timeout=1).visible is False, name
    assert safari(label="Squoosh", className="StaticText").get(timeout=1).visible is True
    # Its contents are reported in the remote view's own coordinates, as on a phone: the Copy
    # cell's frame lies on the dismiss region, so facebook-wda's click (at the middle of the
    # frame reported) closes the sheet and copies nothing; a tap by id presses it.
    copy = safari(className="Cell", label="Copy").get(timeout=1)
    assert (copy.bounds.x, copy.bounds.y) == (18, 249)
    copy.click()
    assert not safari(className="Popover").exists
    assert "com.apple.pasteboard" not in sim.state()["stores"]
    safari(name="MoreMenuButton").click()
    safari(label="Share\u2026").click()
    safari(className="Cell", label="Copy").get(timeout=1).tap()
    assert not safari(className="Popover").exists
    assert sim.state()["stores"]["com.apple.pasteboard"]["text"] == "https://squoosh.app/"
    safari(name="MoreMenuButton").click()
    safari(label="Share\u2026").click()
    safari(name="PopoverDismissRegion").get(timeout=1).tap()  # a tap outside: it goes
    assert not safari(className="Popover").exists


def test_a_tap_on_a_link_is_not_a_hold(safari):
    go_to(safari, "example.com")
    safari(label="More information...", className="Link").click()
    assert not safari(className="Menu").exists


def _focused(client: wda.Client) -> list[str]:
    found = []
    stack = [client.source(format="json")]
    while stack:
        node = stack.pop()
        if node.get("isFocused") == "1":
            found.append(node.get("name"))
        stack.extend(node.get("children") or [])
    return found


def _picture_crop(png: Image.Image, frame: Rect, scale: int) -> Image.Image:
    # Inside the rounded corners, the panel holds only its fill and the word.
    inset = 14
    return png.convert("RGB").crop(((frame.x + inset) * scale, (frame.y + inset) * scale,
                                    (frame.x + frame.width - inset) * scale,
                                    (frame.y + frame.height - inset) * scale))


def _drawn_alone(word: str, frame: Rect, facts: DeviceFacts) -> Image.Image:
    root = Node("Application", Rect(0, 0, facts.width, facts.height),
                children=(Node("Image", frame, pixels_text=word),))
    return Image.open(io.BytesIO(render.png(Screen.of(root, "x", 1), facts)))


@pytest.mark.parametrize("page", list(PROBE_WORDS))
def test_probe_page_word_is_only_in_the_pixels(safari, client, raw, page):
    picture, written = PROBE_WORDS[page]
    safari.open_url(f"https://blolabel.ai/probe/{page}/")
    sources = [client.source(), str(client.source(format="json")),
               raw("GET", "/source?format=description").text,
               raw("GET", "/wda/accessibleSource").text]
    for text in sources:
        assert picture.lower() not in text.lower()
    word = safari(label=written, className="StaticText").get(timeout=1)
    assert word.visible
    image = tree(client).find(".//XCUIElementTypeWebView//XCUIElementTypeImage")
    assert image is not None and image.get("visible") == "true"
    assert set(image.attrib) & {"name", "label", "value"} == set()
    frame = Rect(*(int(image.get(k)) for k in ("x", "y", "width", "height")))
    assert frame.bottom <= 776  # one panel, in the first screenful
    facts = DeviceFacts()
    seen = _picture_crop(client.screenshot(), frame, facts.scale)
    expected = _picture_crop(_drawn_alone(picture, frame, facts), frame, facts.scale)
    other = _picture_crop(_drawn_alone("WRONGWORD", frame, facts), frame, facts.scale)
    assert ImageChops.difference(seen, expected).getbbox() is None
    assert ImageChops.difference(seen, other).getbbox() is not None


def test_probe_text_word_is_in_the_tree(safari):
    safari.open_url("https://blolabel.ai/probe/one/")
    assert safari(label="CARDAMOM", className="StaticText").exists
    assert not safari(labelContains="MERIDIAN").exists


def test_an_address_no_url_parser_reads_is_searched_for(safari, client, sim: SimServer):
    """An unclosed `[` in the host: the keys are answered (the simulator once dropped the
    request), and Safari searches for the text, as for any that is not an address."""
    go_to(safari, "http://[example.com/")
    document = tree(client).find(".//XCUIElementTypeWebView//XCUIElementTypeOther[@label]")
    assert document.get("label") == "http://[example.com/ - Google Search"
    with pytest.raises(wda.WDARequestError, match="is not a valid URL"):
        safari.open_url("https://[example.com/")  # WDA's fb_openUrl: NSURL reads none
