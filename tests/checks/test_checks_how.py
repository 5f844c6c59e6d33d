"""How-it-was-done checks from hand-written audit logs: submitted typing, held taps, the keys of a
computation and a page the agent loaded (a timer started at a duration: test_checks_countdown)."""

from __future__ import annotations

import pytest
from audit_logs import CALC, PREFS, SAFARI, act, grade, log, tgt

from phoneshell.audit import Target

FIELD = tgt("XCUIElementTypeTextField", "Address", "TabBarItemTitle")
GO = tgt("XCUIElementTypeKey", "go")
TIMER = "com.apple.mobiletimer"
NOTES = "com.apple.mobilenotes"


def key(seq: int, label: str) -> list[object]:
    return act(seq, "tap", CALC, CALC, target=tgt("XCUIElementTypeButton", label, label))


# typed_into submitted ------------------------------------------------------------------------

def test_a_query_typed_but_never_sent_fails_submitted() -> None:
    unsent = log(act(1, "type", SAFARI, SAFARI, target=FIELD, text="iso 8601 date format"))
    passed, detail = grade("typed_into", unsent, text="iso 8601", into="Address", submitted=True)
    assert not passed and "never sent it" in detail
    assert grade("typed_into", unsent, text="iso 8601", into="Address")[0]


BOOKS = "com.apple.iBooks"
SEARCH = tgt("XCUIElementTypeSearchField", "Search", "Search")


def test_text_typed_and_deleted_again_before_anything_was_done_with_it_was_not_typed() -> None:
    """A title typed, then erased and an author typed in its place: the search run was the
    author's (the field's text when its editing ended); negated, typing it at all counts."""
    erased = log(act(1, "type", BOOKS, BOOKS, target=SEARCH, text="Moby Dick"),
                 act(2, "type", BOOKS, BOOKS, target=SEARCH, text="\b" * 9 + "Melville"))
    passed, detail = grade("typed_into", erased, text="Moby Dick", into="Search")
    assert not passed and "'Melville' into XCUIElementTypeSearchField" in detail, detail
    assert grade("typed_into", erased, text="Melville", into="Search")[0]
    assert not grade("typed_into", erased, text="Moby Dick", into="Search", negate=True)[0]
    sent_first = log(act(1, "type", BOOKS, BOOKS, target=SEARCH, text="Moby Dick\n"),
                     act(2, "type", BOOKS, BOOKS, target=SEARCH, text="\b" * 9 + "Melville"))
    assert grade("typed_into", sent_first, text="Moby Dick", into="Search")[0]  # it was run


def test_a_suggestion_naming_what_was_typed_sends_it() -> None:
    typed = act(1, "type", SAFARI, SAFARI, target=FIELD, text="iso 8601 date format")
    suggestion = act(2, "tap", SAFARI, SAFARI,
                     target=tgt("XCUIElementTypeCell", "iso 8601 date format"))
    passed, detail = grade("typed_into", log(typed, suggestion), text="iso 8601",
                           submitted=True)
    assert passed and "sent it" in detail, detail
    for label in ("Apple", "Find “iso 8601 date format”", "iso 8601 date format javascript",
                  "ISO 8601 - Wikipedia, en.wikipedia.org/wiki/ISO_8601"):
        other = act(2, "tap", SAFARI, SAFARI, target=tgt("XCUIElementTypeCell", label))
        assert not grade("typed_into", log(typed, other), text="iso 8601", submitted=True)[0]
    keyed = act(2, "tap", SAFARI, SAFARI, target=Target(
        type="XCUIElementTypeKey", label="iso 8601 date format", name="k", keyboard=True))
    assert not grade("typed_into", log(typed, keyed), text="iso 8601", submitted=True)[0]


def test_return_typed_or_the_go_key_tapped_sends_it() -> None:
    returned = log(act(1, "type", SAFARI, SAFARI, target=FIELD, text="iso 8601\n"))
    tapped_go = log(act(1, "type", SAFARI, SAFARI, target=FIELD, text="iso 8601"),
                    act(2, "tap", SAFARI, SAFARI, target=GO))
    for sent in (returned, tapped_go):
        passed, detail = grade("typed_into", sent, text="iso 8601", submitted=True)
        assert passed and "sent it" in detail


RETURN = Target(type="XCUIElementTypeButton", label="go", name="go", keyboard=True)
"""The keyboard's Return key as iOS draws it: a Button inside the keyboard."""
DONE = tgt("XCUIElementTypeButton", "Done", "DoneButton")
"""A Done button of the app's own (the tab overview's): not the keyboard's."""
CANCEL = tgt("XCUIElementTypeButton", "Cancel", "Cancel")
TYPED = act(1, "type", SAFARI, SAFARI, target=FIELD, text="iso 8601")


def keyboard_key(seq: int, label: str) -> list[object]:
    return act(seq, "tap", SAFARI, SAFARI, target=Target(type="XCUIElementTypeKey", label=label,
                                                          name=label, keyboard=True))


def test_only_the_keyboards_own_return_key_sends() -> None:
    """A Done, Go or Search button elsewhere on the screen sends nothing typed: the tab
    overview's Done after a Cancel passed once as Return."""
    tapped_return = log(TYPED, act(2, "tap", SAFARI, SAFARI, target=RETURN))
    assert grade("typed_into", tapped_return, text="iso 8601", submitted=True)[0]
    for elsewhere in (DONE, tgt("XCUIElementTypeButton", "Go", "Go"),
                      tgt("XCUIElementTypeButton", "Search", "Search")):
        ev = log(TYPED, act(2, "tap", SAFARI, SAFARI, target=elsewhere))
        passed, detail = grade("typed_into", ev, text="iso 8601", submitted=True)
        assert not passed and "never sent it" in detail, elsewhere


def test_a_return_after_the_editing_ended_sends_nothing() -> None:
    """Cancel (or any tap, another app, home) ends the field's editing: the keyboard's Return
    tapped after it is not the typing's."""
    for between in (act(2, "tap", SAFARI, SAFARI, target=CANCEL),
                    act(2, "tap", SAFARI, SAFARI, target=tgt("XCUIElementTypeButton", "Tabs")),
                    act(2, "home", SAFARI, "com.apple.springboard"),
                    act(2, "tap", SAFARI, SAFARI, target=None, x=10, y=10)):
        ev = log(TYPED, between, act(3, "tap", SAFARI, SAFARI, target=RETURN))
        assert not grade("typed_into", ev, text="iso 8601", submitted=True)[0], between


def test_keys_tapped_before_return_are_part_of_what_is_sent() -> None:
    """The keyboard's keys type: deleted back to nothing, the text sent no longer holds the
    words; a scroll of the suggestions or more typing leaves the editing as it was."""
    deleted = log(TYPED, *(keyboard_key(n, "delete") for n in range(2, 10)),
                  act(10, "tap", SAFARI, SAFARI, target=RETURN))
    assert not grade("typed_into", deleted, text="iso 8601", submitted=True)[0]
    finished = log(act(1, "type", SAFARI, SAFARI, target=FIELD, text="iso 860"),
                   act(2, "swipe", SAFARI, SAFARI, from_x=1, from_y=300, to_x=1, to_y=100),
                   keyboard_key(3, "1"), act(4, "tap", SAFARI, SAFARI, target=RETURN))
    passed, detail = grade("typed_into", finished, text="iso 8601", submitted=True)
    assert passed and "'iso 8601'" in detail, detail


def test_a_clear_starts_the_field_again_and_a_text_view_has_no_send() -> None:
    cleared = log(TYPED, act(2, "type", SAFARI, SAFARI, target=FIELD, text="", via="clear"),
                  act(3, "type", SAFARI, SAFARI, target=FIELD, text="date\n"))
    assert not grade("typed_into", cleared, text="iso 8601", submitted=True)[0]
    # typed, then cleared before it was sent or left: never acted on (negated, it was typed)
    assert not grade("typed_into", cleared, text="iso 8601")[0]
    assert not grade("typed_into", cleared, text="iso 8601", negate=True)[0]
    body = tgt("XCUIElementTypeTextView", "Note", "Note")
    note = log(act(1, "type", "com.apple.mobilenotes", "com.apple.mobilenotes", target=body,
                   text="iso 8601\n"))
    assert not grade("typed_into", note, text="iso 8601", submitted=True)[0]


# tapped hold ----------------------------------------------------------------------------------

def test_hold_needs_a_long_press_on_the_element() -> None:
    link = tgt("XCUIElementTypeLink", "More information...")
    plain = log(act(1, "tap", SAFARI, SAFARI, target=link, gesture="tap"))
    held = log(act(1, "tap", SAFARI, SAFARI, target=link, gesture="touch_and_hold",
                   duration=1.0))
    long_touch = log(act(1, "tap", SAFARI, SAFARI, target=link, gesture="actions", duration=0.8))
    passed, detail = grade("tapped", plain, text="More information", hold=True)
    assert not passed and "no touch and hold" in detail
    assert grade("tapped", held, text="More information", hold=True)[0]
    assert grade("tapped", long_touch, text="More information", hold=True)[0]


# tapped_keys ----------------------------------------------------------------------------------

TIMES = ("4", "7", "multiply", "9", "equals")


def keyed(*labels: str, start: int = 1) -> list[list[object]]:
    return [key(n, k) for n, k in enumerate(labels, start=start)]


def test_the_result_keyed_in_fails_and_the_computation_passes() -> None:
    passed, detail = grade("tapped_keys", log(*keyed("4", "2", "3")), keys=TIMES, app=CALC)
    assert not passed and "last taps were 4 2 3" in detail, detail
    passed, detail = grade("tapped_keys", log(*keyed(*TIMES)), keys=TIMES, app=CALC)
    assert passed and "4 7 multiply 9 equals" in detail


def test_the_keys_of_a_computation_must_be_the_computation() -> None:
    """Tapped in another order, then cleared and the result keyed in: every key was tapped,
    and nothing was worked out (it passed calculator.arithmetic once)."""
    shuffled = log(*keyed("9", "7", "4", "multiply", "All clear", "4", "2", "3"))
    assert not grade("tapped_keys", shuffled, keys=TIMES, app=CALC)[0]
    cleared_after = log(*keyed(*TIMES, "All clear"))
    assert not grade("tapped_keys", cleared_after, keys=TIMES, app=CALC)[0]
    with_a_gap = log(*keyed("4", "7", "multiply"), key(4, "0"), key(5, "Clear"),
                     *keyed("9", "equals", start=6))
    assert not grade("tapped_keys", with_a_gap, keys=TIMES, app=CALC)[0]
    swiped = log(*keyed("4", "7", "multiply", "9"),
                 act(5, "swipe", CALC, CALC, from_x=300, from_y=200, to_x=100, to_y=200),
                 key(6, "equals"))  # a swipe on the display deletes a digit
    assert not grade("tapped_keys", swiped, keys=TIMES, app=CALC)[0]


def test_the_computation_must_start_with_nothing_pending() -> None:
    """36 + 0 x, then 240 x 15 % =: the last taps are the computation, and the display shows
    36, the result keyed before it (the computation adds nothing). Clear clears only the entry;
    = or All clear leave nothing pending."""
    pct = ("2", "4", "0", "multiply", "1", "5", "percent", "equals")
    onto = ("3", "6", "add", "0", "multiply")
    for between in ((), ("Clear",)):
        ev = log(*keyed(*onto, *between, *pct))
        passed, detail = grade("tapped_keys", ev, keys=pct, app=CALC)
        assert not passed and "with no = or All clear between" in detail, between
    for between in (("All clear",), ("equals",)):
        assert grade("tapped_keys", log(*keyed(*onto, *between, *pct)), keys=pct, app=CALC)[0]


def test_another_order_counts_only_when_the_task_lists_it() -> None:
    commuted = log(*keyed("9", "multiply", "4", "7", "equals"))
    assert not grade("tapped_keys", commuted, keys=TIMES, app=CALC)[0]
    assert grade("tapped_keys", commuted, keys=TIMES, also=("9 multiply 4 7 equals",),
                 app=CALC)[0]
    # what came before the computation, or a visit home after it, does not matter
    retried = log(*keyed("4", "2", "All clear"), *keyed(*TIMES, start=4),
                  act(9, "home", CALC, "com.apple.springboard"))
    assert grade("tapped_keys", retried, keys=TIMES, app=CALC)[0]


def test_tapped_keys_match_whole_labels_and_count_a_double_tap_twice() -> None:
    forty = log(key(1, "47"))
    assert not grade("tapped_keys", forty, keys=("4",))[0]
    double = log(act(1, "tap", CALC, CALC, target=tgt("XCUIElementTypeButton", "4", "4"),
                     gesture="double_tap"), *keyed("equals", start=2))
    assert grade("tapped_keys", double, keys=("4", "4", "equals"))[0]
    assert not grade("tapped_keys", double, keys=("4", "equals", "equals"))[0]


def test_an_unresolved_tap_in_the_computation_leaves_it_unproven() -> None:
    blind = log(*keyed("4", "7", "multiply"), act(4, "tap", CALC, CALC, x=1, y=1),
                key(5, "equals"))
    passed, detail = grade("tapped_keys", blind, keys=TIMES, app=CALC)
    assert not passed and "multiply ?(1, 1) equals" in detail, detail  # named by its point


# visited -------------------------------------------------------------------------------------

def loaded(url: str) -> object:
    return log(act(1, "open_url", SAFARI, SAFARI, url=url))


def sent(text: str, after: str = SAFARI, *before: list[object]) -> object:
    return log(*before, act(len(before) + 1, "type", SAFARI, after, target=FIELD, text=text))


def test_visited_by_opening_or_by_sending_the_address() -> None:
    typed = sent("www.example.com\n")
    assert grade("visited", loaded("https://blolabel.ai/probe/eight/"),
                 url="blolabel.ai/probe/eight")[0]
    assert not grade("visited", loaded("https://blolabel.ai/probe/eight/"),
                     url="blolabel.ai/probe/one")[0]
    passed, detail = grade("visited", typed, url="example.com")
    assert passed and "sent it" in detail
    by_key = log(act(1, "type", SAFARI, SAFARI, target=FIELD, text="example.com"),
                 act(2, "tap", SAFARI, SAFARI, target=RETURN))
    assert grade("visited", by_key, url="example.com")[0]


def test_a_search_for_the_words_or_an_unsent_address_is_not_a_visit() -> None:
    search = sent("example com\n")
    unsent = log(act(1, "type", SAFARI, SAFARI, target=FIELD, text="example.com"))
    lookalike = loaded("https://example.com.evil.net/")
    for ev in (search, unsent, lookalike):
        assert not grade("visited", ev, url="example.com")[0]
    assert not grade("visited", log(audited=False), url="example.com")[0]


def test_an_address_typed_then_cancelled_is_not_a_visit_whatever_is_tapped_after() -> None:
    """The address typed, Cancel, then the tab overview's Done: passed once as Return."""
    for then in (DONE, RETURN):
        ev = log(act(1, "type", SAFARI, SAFARI, target=FIELD, text="blolabel.ai/probe/four/"),
                 act(2, "tap", SAFARI, SAFARI, target=CANCEL),
                 act(3, "tap", SAFARI, SAFARI, target=then))
        assert not grade("visited", ev, url="blolabel.ai/probe/four")[0], then


def test_a_visit_is_sent_from_safaris_address_field_with_safari_in_front_after() -> None:
    page = tgt("XCUIElementTypeTextField", "Find on Page", "find")
    elsewhere = log(act(1, "type", SAFARI, SAFARI, target=page, text="example.com\n"))
    assert not grade("visited", elsewhere, url="example.com")[0]
    assert not grade("visited", sent("example.com\n", after="com.apple.springboard"),
                     url="example.com")[0]
    no_outcome = log(act(1, "type", SAFARI, None, target=FIELD, text="example.com\n"))
    assert not grade("visited", no_outcome, url="example.com")[0]
    assert not grade("visited", log(act(1, "open_url", SAFARI, None, url="example.com")),
                     url="example.com")[0]


@pytest.mark.parametrize(("url", "want", "holds"), [
    ("https://blolabel.ai/probe/four/../../nothing", "blolabel.ai/probe/four", False),
    ("https://blolabel.ai/probe/four/%2e%2E/one", "blolabel.ai/probe/one", True),
    ("https://blolabel.ai/probe/four/%2e%2E/one", "blolabel.ai/probe/four", False),
    ("https://blolabel.ai/probe/x/../four/./", "blolabel.ai/probe/four", True),
    ("https://blolabel.ai/probe/four/more", "blolabel.ai/probe/four", False),
    ("https://blolabel.ai/probe/fourth", "blolabel.ai/probe/four", False),
    ("HTTPS://WWW.BloLabel.AI:443/prob%65/four?ref=1#top", "blolabel.ai/probe/four", True),
    ("http://blolabel.ai:8080/probe/four", "blolabel.ai/probe/four", False),
    ("https://blolabel.ai@evil.net/probe/four", "blolabel.ai/probe/four", False),
    ("https://evil.net\\@blolabel.ai/probe/four", "blolabel.ai/probe/four", False),
    ("https://user:pw@blolabel.ai/probe/four", "blolabel.ai/probe/four", True),
    ("https:\\\\blolabel.ai\\probe\\four", "blolabel.ai/probe/four", True),
    ("https://blolabel%2Eai./probe/four", "blolabel.ai/probe/four", True),
    ("https://blolabel.ai/probe%2Ffour", "blolabel.ai/probe/four", False),
    ("javascript:location='https://blolabel.ai/probe/four'", "blolabel.ai/probe/four", False),
    ("https://example.com/anything/at/all", "example.com", True),
    ("https://example.com/?q=1", "example.com/?q=2", False),
])
def test_urls_compare_as_a_browser_reads_them(url: str, want: str, holds: bool) -> None:
    """Dot segments, escapes, a host's case and trailing dot, default ports, `user@` and
    backslashes as WHATWG parses them; a host alone names its site, a path that page only."""
    assert grade("visited", loaded(url), url=want)[0] is holds
    assert grade("visited", sent(url.replace("#top", "") + "\n"), url=want)[0] is holds


@pytest.mark.parametrize("port", ["\u1369", "\U00010a40", "1" * 5000, "99999", "65536"])
def test_a_port_of_anything_but_ascii_digits_to_65535_is_no_visit_and_never_raises(
        port: str) -> None:
    """Red team 86: `str.isdigit` holds for the Ethiopic digit one and the Kharosthi one,
    which `int` refuses, as it refuses 4,301 digits; the parser raised, and the attempt was not
    scored. WHATWG reads a port as ASCII digits up to 65535: these load no page of the site."""
    for url in (f"https://example.com:{port}", f"https://example.com:{port}/"):
        passed, detail = grade("visited", loaded(url), url="example.com")
        assert not passed and "never loaded example.com" in detail, detail
    assert grade("visited", loaded("https://example.com:000443/"), url="example.com")[0]


def tap_on(label: str, page: str = "", kind: str = "Button") -> list[object]:
    target = Target(type=f"XCUIElementType{kind}", label=label, name=label, page=page)
    return act(1, "tap", PREFS, PREFS, target=target)


def test_tapped_with_a_type_or_page_counts_only_a_tap_there() -> None:
    # settings.back.twice: General's About row, not a row holding the word on another page
    assert grade("tapped", log(tap_on("About", "General")), text="About", app=PREFS,
                 whole=True, page="General")[0]
    passed, detail = grade("tapped", log(tap_on("About", "Accessibility")), text="About",
                           app=PREFS, whole=True, page="general")
    assert not passed and "no tap on 'About' (on the page 'general')" in detail, detail
    # notes.text_select's ban: the edit menu's Select, not a note titled so
    note = log(act(1, "tap", NOTES, NOTES, target=tgt("XCUIElementTypeCell", "Select")))
    menu = log(act(1, "tap", NOTES, NOTES, target=tgt("XCUIElementTypeMenuItem", "Select")))
    assert grade("tapped", note, negate=True, text="Select", whole=True, type="MenuItem")[0]
    passed, detail = grade("tapped", menu, negate=True, text="Select", whole=True,
                           type="MenuItem")
    assert not passed and "tapped XCUIElementTypeMenuItem 'Select'" in detail, detail
