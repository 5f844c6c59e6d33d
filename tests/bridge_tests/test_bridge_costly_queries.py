"""A request whose cost nothing bounds never reaches the phone: finds, waits, launch extras.

WDA answers one request at a time and cannot stop a query once it runs. An XPath that walks the
whole page again for every element it tests (nested: hours on a real page), a `MATCHES` regex
that backtracks catastrophically (or a `LIKE` of many wildcards), or `expectNotification` with
WDA's 60 s default would hold every later request, the harness's included, and the phone would
be taken for down: the attempt not scored and the run stopped, an agent's choice. Each is
refused (403, one `refused` line) and never reaches the phone; the queries agents really send
still go through. Keys pressed by name and launch arguments are refused for the other reason:
the log could not say what they did. Over real HTTP, as an agent sends them, to the simulated
iPhone behind the bridge; the finds' rules are also checked one by one (`bridge.finds`, pure).
"""

from __future__ import annotations

import pytest
import wda
from bridge_rig import Rig, post

from bridge.finds import MAX_UNBOUNDED, check_find, regex_cost, xpath_cost
from bridge.gate import Refused
from phoneshell.xcui import SETTINGS

# What agents and client libraries send: each forwarded.
EVERYDAY_XPATHS = (
    '//XCUIElementTypeButton[@name="Done"]', "//XCUIElementTypeCell[2]",
    "(//XCUIElementTypeButton)[last()]", "//*[contains(@label,'Battery')]",
    "//XCUIElementTypeCell[.//XCUIElementTypeStaticText[@name='General']]",
    "//*[@name='Wi-Fi']/following-sibling::*[1]", "//*[@name='General']/..",
    "//*[@name='Wi-Fi']/following::XCUIElementTypeSwitch[1]",
    "//XCUIElementTypeTable/XCUIElementTypeCell[3]/XCUIElementTypeStaticText",
    "//XCUIElementTypeCell[.//XCUIElementTypeSwitch and .//XCUIElementTypeStaticText]",
    "//*[@type='XCUIElementTypeButton' and (@name='OK' or @name='Done')]",
    "/XCUIElementTypeApplication/XCUIElementTypeWindow[1]//XCUIElementTypeButton",
    "//XCUIElementTypeButton[@name='and']",
    "//*[starts-with(@name, 'Wi') and string-length(@value) > 3]",
    "//XCUIElementTypeTable[.//XCUIElementTypeCell[.//XCUIElementTypeStaticText[@name='x']]]",
    "//XCUIElementTypeButton[@name='Réglages']", '//*[@label="日本"]',
)
# (query, words of the reason): each would walk the page a power of its size.
COSTLY_XPATHS = (
    ("//*[count(//*[count(//*[count(//*)>0])>0])>0]", "path from the root"),
    ("//*[count(//*)>0]", "path from the root"),
    ("//*[@value=//XCUIElementTypeStaticText[1]/@label]", "path from the root"),
    ("//*[not(/XCUIElementTypeApplication)]", "path from the root"),
    ("//*[count(following::*)>0]", "following axis"),
    ("//*[preceding::*]", "preceding axis"),
    ("//*[count(ancestor::*[last()]//*)>0]", "climbs"),
    ("//*[count(..//*)>0]", "climbs"),
    ("//*[parent::*/descendant::*]", "climbs"),
    ("//*[count(.//*[count(.//*[count(.//*)>0])>0])>0]", "3 nested predicates"),
    ("//*[following-sibling::*[following-sibling::*[following-sibling::*]]]",
     "3 nested predicates"),
    ("//*[descendant::*[descendant::*[descendant::*]]]", "3 nested predicates"),
    ("//a[b[c[d[e[f]]]]]", "nest deeper than 4"),
    (" | ".join(["//*"] * 40), "walks the page 40 times"),
    ("//*[@name='" + "x" * 5000 + "']", "5,013 characters long"),
    ("//*/following::*/preceding::*/following::*", "3 following:: or preceding:: steps"),
    ("//é[count(//*[count(//*)>0])>0]", "path from the root"),  # a name in any script
    ("//*[count(//*)>0] ^ 1", "cannot read it as XPath 1.0 from character 19"),
)
EVERYDAY_REGEXES = (".*Wi-Fi.*", "Wi-?Fi", "[0-9]+%", "(Wi-Fi|Bluetooth)", r"\d{1,2}:\d{2}( AM)?",
                    "(ab)+", r"^\d+:\d+ (AM|PM)$", "a{20}", r"[(+]+\)", r"\(a+\)+")
COSTLY_REGEXES = ("(a+)+b", "(x+x+)+y", "(a|a)*", "((a|b)c)+", "(.*){3}", "(a|b){2,}",
                  "(?:a*)*", ".*a.*b.*c", ".{0,100}a.{0,100}b.{0,100}", "a+?b+c++")


@pytest.mark.parametrize("query", EVERYDAY_XPATHS)
def test_an_everyday_xpath_is_bounded(query: str) -> None:
    assert xpath_cost(query) == ""


@pytest.mark.parametrize(("query", "why"), COSTLY_XPATHS)
def test_a_costly_xpath_is_named_with_its_rule(query: str, why: str) -> None:
    assert why in xpath_cost(query) or why in _refusal(query)


def _refusal(query: str) -> str:
    """Why the bridge refuses a find by `query` ("" when it forwards it)."""
    try:
        check_find("/elements", {"using": "xpath", "value": query})
    except Refused as exc:
        return exc.reason
    return ""


@pytest.mark.parametrize("pattern", EVERYDAY_REGEXES)
def test_an_everyday_regex_is_bounded(pattern: str) -> None:
    assert regex_cost(pattern) == ""


@pytest.mark.parametrize("pattern", COSTLY_REGEXES)
def test_a_regex_that_backtracks_is_named(pattern: str) -> None:
    why = regex_cost(pattern)
    assert "repeats a group" in why or f"over {MAX_UNBOUNDED}" in why, why


def _finds_reaching(rig: Rig) -> int:
    """Find requests the simulated phone has received since the last call."""
    counts = rig.sim.latency.tally.take()
    return sum(c.count for routes in counts.values() for route, c in routes.items()
               if route.startswith("POST /element"))


def _refused_fast(rig: Rig, path: str, body: object, *words: str) -> str:
    """POST `body`; check it was refused, logged as one refusal, and never reached the phone;
    the message."""
    _finds_reaching(rig)
    logged = len([e for e in rig.events() if e.stage == "refused"])
    status, message = post(rig, path, body)
    assert status == 403 and "phoneshell bridge refused" in message, (status, message)
    assert _finds_reaching(rig) == 0, "the phone got the query"
    refusals = [e for e in rig.events() if e.stage == "refused"]
    assert len(refusals) == logged + 1 and refusals[-1].error in message
    for word in words:
        assert word in message
    return message


@pytest.mark.parametrize(("query", "why"), COSTLY_XPATHS[:3] + COSTLY_XPATHS[9:10])
def test_a_costly_xpath_never_reaches_the_phone(rig: Rig, query: str, why: str) -> None:
    sid = wda.Client(rig.bridge.url).session(SETTINGS).session_id
    for route in ("/elements", "/element"):
        _refused_fast(rig, f"/session/{sid}{route}", {"using": "xpath", "value": query}, why)
    assert wda.Client(rig.bridge.url).status()  # the phone answers: nothing runs on it


@pytest.mark.parametrize(("using", "query"), (
    ("predicate string", "label MATCHES '(x+x+)+y'"),
    ("predicate string", "name MATCHES[c] \"(a|a)*\" OR label == 'Wi-Fi'"),
    ("predicate string", "value MATCHES '.*a.*b.*c'"),
    ("class chain", "**/XCUIElementTypeCell[`label MATCHES '(a+)+b'`]"),
    ("predicate string", "label LIKE[c] '*a*a*a*b'"),
    ("predicate string", r"label MATCHES '\x28a+\x29+b'"),  # the string's escapes make a group
))
def test_a_regex_that_backtracks_never_reaches_the_phone(rig: Rig, using: str,
                                                         query: str) -> None:
    sid = wda.Client(rig.bridge.url).session(SETTINGS).session_id
    _refused_fast(rig, f"/session/{sid}/elements", {"using": using, "value": query},
                  "MATCHES" if "MATCHES" in query else "LIKE")


def test_a_scroll_to_a_child_by_a_regex_that_backtracks_is_refused(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    cell = session(className="XCUIElementTypeCell").get(timeout=5).id
    status, message = post(rig, f"/session/{session.session_id}/wda/element/{cell}/scroll",
                           {"predicateString": "label MATCHES '(a|aa)+$'"})
    assert status == 403 and "scroll's predicateString" in message and "MATCHES" in message
    assert [e.stage for e in rig.events()][-1] == "refused"


def test_everyday_queries_are_forwarded_and_found(rig: Rig) -> None:
    client = wda.Client(rig.bridge.url)
    session = client.session(SETTINGS)
    _finds_reaching(rig)
    assert session(xpath="//XCUIElementTypeCell[.//XCUIElementTypeStaticText"
                         "[@name='General']]").exists
    assert session(xpath="//*[@name='General']/..").exists
    assert session(predicate="label MATCHES '.*Gen.*'").exists
    assert session(predicate="label LIKE '*Gen*'").exists
    assert session(classChain="**/XCUIElementTypeStaticText[`label MATCHES 'Gen.*'`]").exists
    assert not session(xpath="//*[count(.//*[@name='General']) > 99]").exists
    assert _finds_reaching(rig) >= 6


def test_waiting_for_a_notification_is_held_to_a_gestures_limit(rig: Rig) -> None:
    sid = wda.Client(rig.bridge.url).session(SETTINGS).session_id
    path = f"/session/{sid}/wda/expectNotification"
    for body, shown in (({"name": "x", "timeout": 100000}, "100,000 s"),
                        ({"name": "x"}, "60 s")):  # WDA waits 60 s when none is given
        status, message = post(rig, path, body)
        assert status == 403 and f"waiting for a notification for {shown}" in message, message
    refused = [e for e in rig.events() if e.stage == "refused"]
    assert len(refused) == 2
    # a short wait reaches the phone, which times out as WDA does (no notification comes)
    status, message = post(rig, path, {"name": "x", "timeout": 1})
    assert (status, message) == (408, "Did not receive any expected x notifications within 1s")
    last = rig.intents()[-1]
    assert (last.kind, last.params.get("timeout")) == ("other", 1)


def test_keys_pressed_by_name_are_refused(rig: Rig) -> None:
    sid = wda.Client(rig.bridge.url).session(SETTINGS).session_id
    status, message = post(rig, f"/session/{sid}/wda/element/0/keyboardInput",
                           {"keys": [{"key": "v", "modifierFlags": 1 << 20}]})
    assert status == 403 and "cannot read as the text typed" in message


def test_an_app_launched_with_arguments_or_environment_is_refused(rig: Rig) -> None:
    client = wda.Client(rig.bridge.url)
    session = client.session()
    for extras in ({"arguments": ["-AppleLanguages", "(fr)"]}, {"environment": {"X": "1"}}):
        with pytest.raises(wda.WDARequestError, match="launch with the bundle id alone"):
            session.app_launch(SETTINGS, **extras)
        with pytest.raises(wda.WDARequestError, match="launch with the bundle id alone"):
            client.session(SETTINGS, **extras)
    assert rig.sim_state()["foreground"] != SETTINGS  # none of them launched it
    session.app_launch(SETTINGS)  # facebook-wda's own empty ones are no extras
    assert rig.sim_state()["foreground"] == SETTINGS
