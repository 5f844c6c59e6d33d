"""`page_shown`: the page Safari leaves in front, read from its address field (red team 93).

Played with facebook-wda through the bridge on the simulated iPhone: example.com loaded and then
example.net (the same "Example Domain" heading), and a web search and then a result's article
(its title says the query), each passed its task before this kind; the words typed into the
address bar and never sent (the attack's echo finish) show no page. Hand-built evidence covers
what the simulator cannot show: a keyboard hidden while the field holds a typed U+200E, and a
source cut off.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
import wda
from audit_logs import act, tgt
from played_finish import Play, failed_checks, played
from sources import El, evidence, source

from phoneshell.checks import Check, grade_check
from phoneshell.evidence import Capture, Evidence
from phoneshell.records import TEXT_MAX, shortened
from phoneshell.sim import SimServer
from phoneshell.tasks import Task, parse_task

SAFARI = "com.apple.mobilesafari"
MARK = "\u200e"


def sent(*typed: str, then: Callable[[wda.Client], None] | None = None, answer: str = "",
         ) -> Play:
    """Each text typed into Safari's address field and sent, in turn; then `then`."""
    def play(c: wda.Client) -> str:
        c.app_launch(SAFARI)
        for text in typed:
            c(name="TabBarItemTitle").click()
            c.send_keys(text + "\n")
        if then is not None:
            then(c)
        return answer
    return play


def article(c: wda.Client) -> None:
    c(className="XCUIElementTypeLink", name="Iso 8601 date format - Wikipedia").click()


def unsent(text: str) -> Play:
    """The attack's echo finish on Safari: the words typed into the address bar, never sent."""
    def play(c: wda.Client) -> str:
        c.app_launch(SAFARI)
        c(name="TabBarItemTitle").click()
        c.send_keys(text)
        return ""
    return play


# played: the page left in front ---------------------------------------------------------------

def test_the_asked_page_in_front_passes(sim: SimServer, tmp_path: Path,
                                        suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["safari.navigate.example"], sent("iana.org", "example.com"))
    assert row.outcome == "passed", failed_checks(row)
    search = played(sim, tmp_path, suite["safari.search.web"], sent("iso 8601 date format"))
    assert search.outcome == "passed", failed_checks(search)


@pytest.mark.parametrize("task_id", ["safari.navigate.example", "safari.read.heading",
                                     "resilience.deep_start", "safari.link_menu"])
@pytest.mark.slow  # 1.6 s measured: the README's command stays quick
def test_another_site_with_the_same_heading_fails(sim: SimServer, tmp_path: Path,
                                                  suite: dict[str, Task], task_id: str) -> None:
    def hold(c: wda.Client) -> None:
        c(className="XCUIElementTypeLink", name="More information...").tap_hold(1.0)

    then = hold if task_id == "safari.link_menu" else None
    row = played(sim, tmp_path, suite[task_id],
                 sent("example.com", "example.net", then=then, answer="Example Domain"))
    failed = failed_checks(row)
    assert list(failed) == ["page_shown"], failed
    assert failed["page_shown"] == ("Safari's address field shows 'example.net'; wanted a page "
                                    "of example.com")


def test_a_results_article_is_not_the_results(sim: SimServer, tmp_path: Path,
                                              suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["safari.search.web"],
                 sent("iso 8601 date format", then=article))
    failed = failed_checks(row)
    assert list(failed) == ["page_shown"], failed
    assert "shows 'en.wikipedia.org'; wanted the results of a search for" in failed["page_shown"]


@pytest.mark.parametrize("typed", ["iso 8601 date format", MARK + "iso 8601 date format"])
def test_words_typed_and_never_sent_show_no_page(sim: SimServer, tmp_path: Path,
                                                 suite: dict[str, Task], typed: str) -> None:
    row = played(sim, tmp_path, suite["safari.search.web"], unsent(typed))
    assert "a keyboard is up" in failed_checks(row)["page_shown"]


def test_a_typed_mark_sent_shows_no_page(sim: SimServer, tmp_path: Path,
                                         suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["safari.navigate.example"],
                 sent("example.com", MARK + "example.com"))
    assert "the agent sent a left-to-right mark" in failed_checks(row)["page_shown"]


# hand-built evidence: what the simulator cannot show ------------------------------------------

def bar(value: str, *page: El) -> tuple[El, ...]:
    """Safari's screen: the page (a WebView of `page`), then the address field showing
    `value`."""
    return (El("WebView", frame=(0, 60, 402, 700), children=page),
            El("TextField", label="Address", name="TabBarItemTitle", value=value,
               frame=(140, 806, 120, 21)))


def safari(*elements: El, typed: str = "", complete: bool = True) -> Evidence:
    """Evidence of Safari showing `elements`, logged by a bridge (with `typed` sent as keys)."""
    xml = source(*elements, bundle=SAFARI)
    if not complete:
        xml = xml[:xml.rindex("<XCUIElementTypeTextField")]
    events = act(1, "type", SAFARI, SAFARI, target=tgt("XCUIElementTypeTextField", "Address",
                                                       "TabBarItemTitle"), text=typed)
    return replace(evidence(foreground=SAFARI), captures=(Capture("final", xml, 1.0),),
                   events=tuple(events) if typed else (), audited=True)


def grade(ev: Evidence, negate: bool = False, **fields: str) -> tuple[bool, str]:
    result = grade_check(Check.make("page_shown", negate=negate, **fields), ev)
    return result.passed, result.detail


def test_the_host_is_read_as_a_browser_reads_it() -> None:
    assert grade(safari(*bar(MARK + "example.com")), url="https://WWW.Example.com/")[0]
    assert not grade(safari(*bar(MARK + "example.com.evil.net")), url="example.com")[0]
    words = safari(*bar(MARK + "ISO  8601 date format"))
    assert grade(words, text="iso 8601 date format")[0]
    assert not grade(words, text="iso 8601")[0]


def test_a_typed_mark_in_a_field_left_without_its_keyboard_fails_unproven() -> None:
    # A phone can hide the keyboard while the field keeps the agent's text: that text is not
    # a page, however it begins.
    typed = safari(*bar(MARK + "example.com"), typed=MARK + "example.com")
    passed, detail = grade(typed, url="example.com")
    assert not passed and "the agent sent a left-to-right mark (U+200E)" in detail
    negated, why = grade(typed, negate=True, url="example.com")
    assert not negated and why.startswith("absence unproven")
    # the bridge logs a long text by its start and a digest: the mark may be in the rest
    long = safari(*bar(MARK + "example.com"), typed=shortened("x" * 5000 + MARK, TEXT_MAX))
    assert "the log cut a text the agent sent" in grade(long, url="example.com")[1]


def test_a_form_field_of_the_page_or_a_placeholder_is_no_address() -> None:
    form = El("TextField", label="Address", name="TabBarItemTitle", value=MARK + "example.com")
    passed, detail = grade(safari(El("WebView", frame=(0, 60, 402, 700), children=(form,))),
                           url="example.com")
    assert not passed and "has no Safari address field" in detail
    start = safari(*bar("Search or enter website"))
    assert "no page's address" in grade(start, url="example.com")[1]


@pytest.mark.parametrize("value", ["example%2Ecom", "example.com.", "EXAMPLE.COM",
                                   "\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com",
                                   "user@example.com", "example.com/"])
def test_a_host_is_read_only_as_safari_writes_one(value: str) -> None:
    # Safari writes a page's host lower-case, never escaped nor with a trailing dot: such a
    # text in the field is a search's words (red team 96), never decoded into a host
    passed, detail = grade(safari(*bar(MARK + value)), url="example.com")
    assert not passed and "wanted a page of example.com" in detail
    assert grade(safari(*bar(MARK + "www.example.com")), url="example.com")[0]


def test_a_searchs_words_count_with_or_without_the_mark() -> None:
    # No dump shows Safari's field after a search: a phone may write the words without the
    # mark (RT96-3). A host still needs it, as the one dump shows.
    words = safari(*bar("ISO 8601  date format"))
    assert grade(words, text="iso 8601 date format")[0]
    assert not grade(words, text="iso 8601")[0]
    assert "no page's address" in grade(safari(*bar("example.com")), url="example.com")[1]
    placeholder = (El("TextField", label="Address", name="TabBarItemTitle",
                      value="Search or enter website", placeholder="Search or enter website"),)
    assert not grade(safari(*placeholder), text="search or enter website")[0]


def test_words_typed_unsent_and_shown_without_the_mark_fail_unproven() -> None:
    # A phone can hide the keyboard while the field keeps the agent's typing: unmarked words
    # that the agent typed there and never sent may be that typing
    typed = safari(*bar("iso 8601 date format"), typed="ISO 8601 date format")
    passed, detail = grade(typed, text="iso 8601 date format")
    assert not passed and "never sent it" in detail
    negated, why = grade(typed, negate=True, text="iso 8601 date format")
    assert not negated and why.startswith("absence unproven")
    sent = safari(*bar("iso 8601 date format"), typed="iso 8601 date format\n")
    assert grade(sent, text="iso 8601 date format")[0]


def test_negated_it_passes_only_on_a_complete_source() -> None:
    assert grade(safari(*bar(MARK + "example.net")), negate=True, url="example.com")[0]
    passed, detail = grade(safari(*bar(MARK + "example.net"), complete=False), negate=True,
                           url="example.com")
    assert not passed and detail.startswith("absence unproven: the final page source was cut off")
    unlogged = replace(safari(*bar(MARK + "example.net")), audited=False)
    assert not grade(unlogged, negate=True, url="example.com")[0]


@pytest.mark.parametrize(("fields", "problem"), [
    ("url: example.com/page", "the field shows no path"),
    ("url: example.com\n    text: example", "one of them"),
    ("note: neither", "one of them"),
])
def test_a_check_that_names_no_one_page_is_refused_at_load(fields: str, problem: str) -> None:
    task = ("id: t\nname: T\napp: com.apple.mobilesafari\ninstruction: x\nchecks:\n"
            f"  - kind: page_shown\n    {fields}\n")
    loaded, problems = parse_task(task, "t.yaml")
    assert loaded is None and any(problem in str(p) for p in problems), problems
