"""Path checks from hand-written audit logs: where each must pass, fail, and fail closed."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from audit_logs import CALC, PREFS, SAFARI, SB, act, grade, log, tgt

from phoneshell.audit import AuditEvent, Target

SWITCH = [act(1, "launch", SB, CALC, bundle_id=CALC), act(2, "home", CALC, SB),
          act(3, "tap", SB, SAFARI, target=tgt("XCUIElementTypeIcon", "Safari")),
          act(4, "launch", SAFARI, CALC, bundle_id=CALC)]
PLAIN_CALC = [act(1, "launch", SB, CALC, bundle_id=CALC),
              act(2, "tap", CALC, CALC, target=tgt("XCUIElementTypeButton", "4"))]


# opened_in_order -------------------------------------------------------------------------------

def test_opened_in_order_passes_on_the_detour() -> None:
    passed, detail = grade("opened_in_order", log(*SWITCH), apps=(CALC, SAFARI, CALC))
    assert passed and "springboard > calculator > springboard > mobilesafari > calculator" in detail


def test_opened_in_order_fails_on_a_plain_calculator_run() -> None:
    passed, detail = grade("opened_in_order", log(*PLAIN_CALC), apps=(CALC, SAFARI, CALC))
    assert not passed and "wanted calculator > mobilesafari > calculator" in detail


def test_opened_in_order_ignores_setup_and_the_app_already_in_front() -> None:
    setup_only = log(act(1, "launch", SB, SAFARI, phase="setup", bundle_id=SAFARI),
                     act(2, "launch", SAFARI, CALC, phase="setup", bundle_id=CALC))
    assert not grade("opened_in_order", setup_only, apps=(SAFARI, CALC))[0]
    started_in_calc = log(act(1, "tap", CALC, CALC), act(2, "launch", CALC, SAFARI))
    assert not grade("opened_in_order", started_in_calc, apps=(CALC, SAFARI))[0]
    assert grade("opened_in_order", started_in_calc, apps=(SAFARI,))[0]


def test_opened_in_order_sees_a_change_only_the_next_action_noticed() -> None:
    late = log(act(1, "tap", SB, SB, target=tgt("XCUIElementTypeIcon", "Safari")),
               act(2, "tap", SAFARI, SAFARI))  # the switch showed only at the next read
    assert grade("opened_in_order", late, apps=(SAFARI,))[0]


def test_negated_opened_in_order_fails_closed_without_a_log() -> None:
    assert grade("opened_in_order", log(*PLAIN_CALC), negate=True, apps=(CALC, SAFARI))[0]
    passed, detail = grade("opened_in_order", log(audited=False), negate=True, apps=(SAFARI,))
    assert not passed and "no audit log was recorded" in detail
    torn = log(*PLAIN_CALC, flags=frozenset({"audit_torn"}))
    assert not grade("opened_in_order", torn, negate=True, apps=(SAFARI,))[0]


# never_opened -------------------------------------------------------------------------------

def test_never_opened_passes_and_fails() -> None:
    assert grade("never_opened", log(*PLAIN_CALC), app=SAFARI)[0]
    passed, detail = grade("never_opened", log(*SWITCH), app=SAFARI)
    assert not passed and "brought it to the front" in detail
    failed_launch = log(act(1, "launch", SB, SB, bundle_id=SAFARI))
    assert not grade("never_opened", failed_launch, app=SAFARI)[0]  # asking counts


def test_never_opened_fails_closed_on_partial_logs() -> None:
    assert not grade("never_opened", log(audited=False), app=SAFARI)[0]
    passed, detail = grade("never_opened", log(act(1, "tap", SB, None)), app=SAFARI)
    assert not passed and "no recorded outcome" in detail


# typed_into ---------------------------------------------------------------------------------

SEARCH = tgt("XCUIElementTypeSearchField", "Search", "Search", "")


def test_typed_into_adds_up_keystrokes_into_one_field() -> None:
    ev = log(act(1, "type", PREFS, PREFS, target=SEARCH, text="Wi"),
             act(2, "type", PREFS, PREFS, target=tgt(SEARCH.type, "Search", "Search", "Wi"),
                 text="-Fi"))
    passed, detail = grade("typed_into", ev, text="wi-fi", app=PREFS, into="search")
    assert passed and "'Wi-Fi'" in detail


def test_typed_into_fails_in_another_app_field_or_without_typing() -> None:
    typed = log(act(1, "type", PREFS, PREFS, target=SEARCH, text="Wi-Fi"))
    assert not grade("typed_into", typed, text="Wi-Fi", app=SAFARI)[0]
    assert not grade("typed_into", typed, text="Wi-Fi", into="TextField")[0]
    tapped_through = log(act(1, "tap", PREFS, PREFS, target=tgt("XCUIElementTypeCell", "Wi-Fi")))
    passed, detail = grade("typed_into", tapped_through, text="Wi-Fi")
    assert not passed and "the agent typed: no typing" in detail


def test_typed_into_does_not_count_what_was_there_and_handles_backspace() -> None:
    prefilled = log(act(1, "type", PREFS, PREFS,
                        target=tgt(SEARCH.type, "Search", "Search", "Wi-Fi"), text="x"))
    assert not grade("typed_into", prefilled, text="Wi-Fi")[0]
    corrected = log(act(1, "type", PREFS, PREFS, target=SEARCH, text="Wu\b\bi-Fi"))
    assert not grade("typed_into", corrected, text="Wu")[0]


def test_negated_typed_into_needs_resolved_fields() -> None:
    blind = log(act(1, "type", PREFS, PREFS, text="Wi-Fi"))
    passed, detail = grade("typed_into", blind, negate=True, text="Wi-Fi", into="Search")
    assert not passed and "no resolved field" in detail


# tapped --------------------------------------------------------------------------------------

def test_tapped_matches_the_target_and_app() -> None:
    ev = log(act(1, "tap", PREFS, PREFS, target=tgt("XCUIElementTypeCell", "General")))
    assert grade("tapped", ev, text="general", app=PREFS)[0]
    assert not grade("tapped", ev, text="general", app=SAFARI)[0]
    assert not grade("tapped", ev, text="About")[0]


def test_a_ban_on_a_word_with_whole_is_broken_only_by_that_button() -> None:
    """"Get" is in "Budget Buddy": an honest agent that looked at that app broke the App
    Store's "do not download" ban. With `whole`, only the label (or its first part) or name
    that is the word breaks it."""
    store = "com.apple.AppStore"
    looked = log(act(1, "tap", store, store, target=tgt("XCUIElementTypeCell", "Budget Buddy")))
    assert grade("tapped", looked, text="Get", app=store, negate=True)[0] is False  # substring
    assert grade("tapped", looked, text="Get", app=store, negate=True, whole=True)[0]
    for label in ("Get", "GET", "Get, Budget Buddy"):
        got = log(act(1, "tap", store, store, target=tgt("XCUIElementTypeButton", label)))
        passed, detail = grade("tapped", got, text="Get", app=store, negate=True, whole=True)
        assert not passed, (label, detail)


def test_tapped_names_an_element_by_its_label_never_by_what_was_typed_into_it() -> None:
    """"About" typed into Settings' search field, then the field tapped: the tap was on the
    search field, whose value is only the agent's typing (settings.back.twice passed so)."""
    field = tgt("XCUIElementTypeSearchField", "Search", "Search", "About")
    ev = log(act(1, "type", PREFS, PREFS, target=tgt("XCUIElementTypeSearchField", "Search",
                                                      "Search", "Search"), text="About"),
             act(2, "tap", PREFS, PREFS, target=field))
    passed, detail = grade("tapped", ev, text="About", app=PREFS)
    assert not passed and "the agent tapped 'Search'" in detail, detail
    row = log(act(1, "tap", PREFS, PREFS, target=tgt("XCUIElementTypeCell", "Wi-Fi", "wifi",
                                                     "HomeNet")))
    assert not grade("tapped", row, text="HomeNet")[0]  # a value is never a name
    assert grade("tapped", row, text="wifi")[0]


def test_a_tap_on_the_agents_own_words_shown_back_is_no_tap_on_them() -> None:
    """"More information" searched for in Safari, then a result link holding the words held:
    it passed safari.link_menu as the page's own link held. A negated check still counts it."""
    field = tgt("XCUIElementTypeTextField", "Address", "TabBarItemTitle")
    result = tgt("XCUIElementTypeLink", "More information - Wikipedia")
    ev = log(act(1, "type", SAFARI, SAFARI, target=field, text="More information\n"),
             act(2, "tap", SAFARI, SAFARI, target=result, gesture="touch_and_hold",
                 duration=1.0))
    passed, detail = grade("tapped", ev, text="More information", hold=True)
    assert not passed and "only after typing 'More information'" in detail, detail
    assert not grade("tapped", ev, negate=True, text="More information")[0]
    typed_after = log(act(1, "tap", SAFARI, SAFARI, target=result, gesture="touch_and_hold",
                          duration=1.0),
                      act(2, "type", SAFARI, SAFARI, target=field, text="More information"))
    assert grade("tapped", typed_after, text="More information", hold=True)[0]


def test_negated_tapped_is_unproven_when_targets_were_not_resolved() -> None:
    ev = log(act(1, "tap", PREFS, PREFS, x=10, y=20))
    passed, detail = grade("tapped", ev, negate=True, text="Delete")
    assert not passed and "had no resolved target" in detail
    resolved = log(act(1, "tap", PREFS, PREFS, target=tgt("XCUIElementTypeCell", "General")))
    assert grade("tapped", resolved, negate=True, text="Delete")[0]


# opened_via_spotlight -------------------------------------------------------------------------

def spotlight_run(result_type: str = "XCUIElementTypeCell") -> Sequence[list[AuditEvent]]:
    return [act(1, "swipe", SB, SB),
            act(2, "type", SB, SB, target=tgt("XCUIElementTypeSearchField", "Search"),
                text="Calcu"),
            act(3, "tap", SB, CALC, target=tgt(result_type, "Calculator"))]


def test_spotlight_passes_on_a_search_result_tap() -> None:
    passed, detail = grade("opened_via_spotlight", log(*spotlight_run()), app=CALC)
    assert passed and "from a Spotlight result 'Calculator'" in detail


def test_spotlight_fails_on_a_direct_launch_or_an_icon() -> None:
    passed, detail = grade("opened_via_spotlight", log(*PLAIN_CALC), app=CALC)
    assert not passed and "launched com.apple.calculator directly" in detail
    icon = log(act(1, "tap", SB, CALC, target=tgt("XCUIElementTypeIcon", "Calculator")))
    assert not grade("opened_via_spotlight", icon, app=CALC)[0]
    searched_then_icon = log(*spotlight_run("XCUIElementTypeIcon"))
    assert not grade("opened_via_spotlight", searched_then_icon, app=CALC)[0]


def test_spotlight_passes_on_its_return_which_opens_the_top_hit() -> None:
    search = tgt("XCUIElementTypeSearchField", "Search", "Search")
    typed = log(act(1, "type", SB, CALC, target=search, text="Calculator\n"))
    passed, detail = grade("opened_via_spotlight", typed, app=CALC)
    assert passed and "for 'Calculator'" in detail, detail
    key = Target(type="XCUIElementTypeButton", label="search", name="search", keyboard=True)
    tapped = log(act(1, "type", SB, SB, target=search, text="Calcu"),
                 act(2, "tap", SB, CALC, target=key))
    assert grade("opened_via_spotlight", tapped, app=CALC)[0]
    # Return in a field of the app already in front is no launch from Spotlight
    elsewhere = log(act(1, "tap", SB, CALC, target=tgt("XCUIElementTypeIcon", "Calculator")),
                    act(2, "type", CALC, CALC, target=search, text="x\n"))
    assert not grade("opened_via_spotlight", elsewhere, app=CALC)[0]


def test_spotlight_must_be_how_the_app_first_opened() -> None:
    """Spotlight searched and cancelled, Calculator opened from its icon, Control Center pulled
    over it and closed: the tap that closed it brought Calculator back from SpringBoard, and
    passed once as the Spotlight result that opened it."""
    search = tgt("XCUIElementTypeSearchField", "Search", "Search")
    via_control_center = log(
        act(1, "type", SB, SB, target=search, text="z"),
        act(2, "tap", SB, SB, target=tgt("XCUIElementTypeButton", "Cancel")),
        act(3, "tap", SB, CALC, target=tgt("XCUIElementTypeIcon", "Calculator")),
        act(4, "swipe", CALC, SB, from_x=350, from_y=5, to_x=350, to_y=400),
        act(5, "tap", SB, CALC, target=tgt("XCUIElementTypeWindow")))
    passed, detail = grade("opened_via_spotlight", via_control_center, app=CALC)
    assert not passed and "first opened by #3 agent tap 'Calculator'" in detail, detail
    # a search still up when a later tap in SpringBoard brings the app back is no launch either
    searched_late = log(act(1, "tap", SB, CALC, target=tgt("XCUIElementTypeIcon", "Calculator")),
                        act(2, "home", CALC, SB), act(3, "type", SB, SB, target=search,
                                                      text="Calc"),
                        act(4, "tap", SB, CALC, target=tgt("XCUIElementTypeCell", "Calculator")))
    assert not grade("opened_via_spotlight", searched_late, app=CALC)[0]


def test_spotlight_needs_the_search_still_up_when_its_result_is_tapped() -> None:
    search = tgt("XCUIElementTypeSearchField", "Search", "Search")
    result = tgt("XCUIElementTypeCell", "Calculator")
    for between in (act(3, "tap", SB, SB, target=tgt("XCUIElementTypeButton", "Cancel")),
                    act(3, "home", SB, SB)):
        ev = log(act(1, "type", SB, SB, target=search, text="Calc"), between,
                 act(4, "tap", SB, CALC, target=result))
        assert not grade("opened_via_spotlight", ev, app=CALC)[0], between
    scrolled = log(act(1, "type", SB, SB, target=search, text="Calc"),
                   act(2, "swipe", SB, SB, from_x=200, from_y=600, to_x=200, to_y=300),
                   act(3, "tap", SB, CALC, target=result))
    assert grade("opened_via_spotlight", scrolled, app=CALC)[0]


# opened_from_search ---------------------------------------------------------------------------

SEARCH = tgt("XCUIElementTypeSearchField", "Search", "Search", "Search")


def searched(*then: list[AuditEvent], word: str = "Battery") -> object:
    return log(act(1, "tap", PREFS, PREFS, target=SEARCH),
               act(2, "type", PREFS, PREFS, target=SEARCH, text=word), *then)


def test_opened_from_search_passes_on_a_result_tapped_while_the_search_shows() -> None:
    result = tgt("XCUIElementTypeButton", "Battery", "Battery")
    passed, detail = grade("opened_from_search", searched(act(3, "tap", PREFS, PREFS,
                                                              target=result)),
                           text="Battery", result="Battery", app=PREFS, into="Search")
    assert passed and "opened 'Battery' from the results of 'Battery'" in detail, detail
    # a result labelled with where its page lives, after the keyboard's Search and a scroll
    storage = tgt("XCUIElementTypeButton", "iPhone Storage, General", "iPhone Storage")
    ev = searched(act(3, "tap", PREFS, PREFS, target=Target(
        type="XCUIElementTypeButton", label="search", name="search", keyboard=True)),
        act(4, "swipe", PREFS, PREFS, from_x=1, from_y=500, to_x=1, to_y=300),
        act(5, "tap", PREFS, PREFS, target=storage), word="Storage")
    assert grade("opened_from_search", ev, text="Storage", result="iPhone Storage",
                 app=PREFS)[0]


def test_opened_from_search_fails_when_the_row_is_tapped_on_the_list_after_a_cancel() -> None:
    """The word typed, the search cancelled, the row tapped on Settings' own list: it passed
    settings.search.battery once."""
    row = tgt("XCUIElementTypeButton", "Battery", "com.apple.settings.battery")
    ev = searched(act(3, "tap", PREFS, PREFS, target=tgt("XCUIElementTypeButton", "Cancel",
                                                         "Cancel")),
                  act(4, "tap", PREFS, PREFS, target=row))
    passed, detail = grade("opened_from_search", ev, text="Battery", result="Battery", app=PREFS)
    assert not passed and "the agent tapped 'Cancel', not the result 'Battery'" in detail
    wrong = searched(act(3, "tap", PREFS, PREFS, target=tgt("XCUIElementTypeButton",
                                                            "Battery Health")))
    assert not grade("opened_from_search", wrong, text="Battery", result="Battery")[0]
    other_word = searched(act(3, "tap", PREFS, PREFS, target=row), word="Batt")
    passed, detail = grade("opened_from_search", other_word, text="Battery", result="Battery")
    assert not passed and "no search for 'Battery'" in detail
    tapped_through = log(act(1, "tap", PREFS, PREFS, target=row))
    assert not grade("opened_from_search", tapped_through, text="Battery", result="Battery")[0]
    blind = searched(act(3, "tap", PREFS, PREFS, x=200, y=232))
    passed, detail = grade("opened_from_search", blind, text="Battery", result="Battery")
    assert not passed and "no resolved target" in detail


@pytest.mark.parametrize("kind, fields", [
    ("opened_in_order", {"apps": (CALC,)}), ("typed_into", {"text": "x"}),
    ("tapped", {"text": "x"}), ("opened_via_spotlight", {"app": CALC}),
    ("opened_from_search", {"text": "x", "result": "x"})])
def test_path_checks_never_pass_without_a_log(kind: str, fields: dict[str, object]) -> None:
    assert not grade(kind, log(audited=False), **fields)[0]
