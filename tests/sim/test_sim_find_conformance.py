"""Locators accept and refuse what WDA 16 does: one row per query, with WDA's answer.

Each row is (strategy, query, answer) on the Settings root list, found from the application:
a count of matches, or the W3C error WDA gives. The answers follow WebDriverAgent's sources
(`FBFindElementCommands`, `FBElementTypeTransformer`, `FBClassChainQueryParser`,
`NSPredicate+FBFormat`, `FBElementUtils`, `FBXPath`, `FBExceptionHandler`): a class chain or
xpath WDA cannot parse is `invalid selector`; a short class name is `invalid argument`; what
NSPredicate cannot parse, and a key WDA does not know, raise exceptions WDA answers `unknown
error`. `docs/simulator.md` ("Finding elements") has the same table in words.
"""

from __future__ import annotations

import pytest
import wda

from phoneshell.sim.predicates import MAX_NESTING

ALL = 173
"""Every element of the Settings root list, the application included."""
HITTABLE = 109
"""Those a touch at their hit point reaches (`covers`): not the separators and backdrops under
the rows, nor the rows' plain wrappers drawn under them."""

ROWS = [
    # class name: a full type name only; Any is every element; the application is its own match
    ("class name", "XCUIElementTypeButton", 13),
    ("class name", "XCUIElementTypeAny", ALL),
    ("class name", "XCUIElementTypeApplication", 1),
    ("class name", "XCUIElementTypeBogus", 101),  # an unknown full name stands for Other
    ("class name", "XCUIElementTypeOther", 101),
    ("class name", "Button", "invalid argument"),
    ("class name", "XCUIElementType", "invalid argument"),
    # predicate string: a bare word is a key path; keys are WDA's attributes, case as written
    ("predicate string", "label == 'General'", 2),
    ("predicate string", "label = \"General\"", 2),
    ("predicate string", "wdLabel == 'General'", 2),
    ("predicate string", "label == General", "unknown error"),
    ("predicate string", "Label == 'General'", "unknown error"),
    ("predicate string", "identifier == 'com.apple.settings.general'", "unknown error"),
    ("predicate string", "hittable == true", HITTABLE),
    ("predicate string", "rect.x > 10", 147),
    ("predicate string", "rect.x BETWEEN {0, 10}", 23),
    ("predicate string", "rect.nope == 1", 0),
    ("predicate string", "index == 0", 102),
    ("predicate string", "label == value", 152),
    ("predicate string", "label IN {'General', 'About'}", 2),
    ("predicate string", "label ==[c] 'general'", 2),
    ("predicate string", "label ENDSWITH[cd] 'RAL'", 2),
    ("predicate string", "label MATCHES 'Gen.*' AND label LIKE 'Gen*'", 2),
    ("predicate string", "NOT (label == 'General') AND label BEGINSWITH 'Gen'", 0),
    ("predicate string", "value == nil", 151),
    ("predicate string", "visible == 'true'", 0),  # a number is never equal to a text
    ("predicate string", "TRUEPREDICATE", ALL),
    ("predicate string", "type == 'XCUIElementTypeApplication'", 1),
    ("predicate string", "label == 'General' AND", "unknown error"),
    ("predicate string", "label === 'General'", "unknown error"),
    ("predicate string", "label ==[x] 'General'", "unknown error"),
    ("predicate string", "", "unknown error"),
    ("predicate string", "ANY label == 'General'", "unknown error"),
    ("predicate string", "label == $wanted", "unknown error"),
    ("predicate string", "label MATCHES '(unclosed'", "unknown error"),
    ("predicate string", "label CONTAINS 1", "unknown error"),
    # class chain: read a character at a time, as WDA's tokenizer does
    ("class chain", "**/XCUIElementTypeButton[`label == 'General'`]", 1),
    ("class chain", "**/*[`label == 'General'`]", 2),
    ("class chain", "**/XCUIElementTypeAny[`label == 'General'`]", 2),
    ("class chain", "**XCUIElementTypeButton[`label == 'General'`]", 1),
    ("class chain", "**/XCUIElementTypeCell[`label == 'a``b'`]", 0),
    ("class chain", "**/XCUIElementTypeCell[$label == 'General'$]", 1),
    ("class chain", "**/XCUIElementTypeCell[`visible == 1`][-1]", 1),
    ("class chain", "XCUIElementTypeWindow[1]/*", 1),
    ("class chain", "XCUIElementTypeWindow/**/XCUIElementTypeButton[-1]", 1),
    ("class chain", "**/XCUIElementTypeBogus", 101),
    ("class chain", "**/Button", "invalid selector"),
    ("class chain", "/XCUIElementTypeWindow", "invalid selector"),
    ("class chain", "**/XCUIElementTypeButton/", "invalid selector"),
    ("class chain", "**/**/XCUIElementTypeButton", "invalid selector"),
    ("class chain", "**/", "invalid selector"),
    ("class chain", "**/XCUIElementTypeButton[1][`label == 'General'`]", "invalid selector"),
    ("class chain", "**/XCUIElementTypeButton[1][2]", "invalid selector"),
    ("class chain", "**/XCUIElementTypeButton[0]", "invalid selector"),
    ("class chain", "**/XCUIElementTypeButton[--1]", "invalid selector"),
    ("class chain", "**/XCUIElementTypeButton[ 1 ]", "invalid selector"),
    # a position is decimal digits (NSCharacterSet's decimalDigitCharacterSet: any script's),
    # never the Ethiopic one `str.isdigit` takes and `int` refuses (red team 86); one of
    # thousands of digits, which `int` refuses too, is past every element or, zeros first, 1
    ("class chain", "**/XCUIElementTypeButton[-\u1369]", "invalid selector"),
    ("class chain", "**/XCUIElementTypeButton[\u1369]", "invalid selector"),
    ("class chain", "**/XCUIElementTypeButton[\u0661]", 1),
    ("class chain", "**/XCUIElementTypeButton[" + "9" * 5000 + "]", 0),
    ("class chain", "**/XCUIElementTypeButton[-" + "0" * 5000 + "1]", 1),
    ("class chain", "**/XCUIElementTypeButton[`label == 'General'", "invalid selector"),
    ("class chain", "**/XCUIElementTypeButton[`foo == 'x'`]", "unknown error"),
    ("class chain", "", "unknown error"),
    # xpath: XPath 1.0 on the page source; no element in the answer is no match
    ("xpath", "//XCUIElementTypeButton[@label='General']", 1),
    ("xpath", "//XCUIElementTypeAny[@label='General']", 2),
    ("xpath", "//XCUIElementTypeApplication", 1),
    ("xpath", "//XCUIElementTypeButton[@label='General']/@name", 0),
    ("xpath", "count(//*)", 0),
    ("xpath", "//Button", 0),
    ("xpath", "///", "invalid selector"),
    # xpath: WDA builds each query's document with the attributes the query names (FBXPath),
    # so one naming `hittable` or `nativeFrame`, which /source leaves out, finds what a
    # predicate does; `@*` names them all; `attribute::` is not how WDA looks for a name
    ("xpath", "//*[@label='General'][@hittable='true']", 2),
    ("xpath", "//XCUIElementTypeButton[@hittable='true']", 11),
    ("xpath", "//*[@hittable='true']", HITTABLE),
    ("xpath", "//*[@*[name()='hittable']='true']", HITTABLE),
    ("xpath", "//XCUIElementTypeButton[@nativeFrame='{{16, 587}, {370, 52}}']", 1),
    ("xpath", "//*[attribute::hittable='true']", 0),
    # link text: "attribute=text" (the last "=" part is the text), else the name
    ("link text", "label=General", 2),
    ("link text", "General", 1),
    ("link text", "label=General=x", 0),
    ("partial link text", "label=Gen", 2),
    ("link text", "foo=General", "unknown error"),
    ("accessibility id", "com.apple.settings.general", 1),
    ("accessibility id", "", 0),
]


@pytest.fixture
def settings(client: wda.Client) -> str:
    return client.session("com.apple.Preferences").session_id


@pytest.mark.parametrize(("using", "value", "answer"), ROWS,
                         ids=[f"{u}:{v[:40]}" for u, v, _ in ROWS])
def test_a_locator_answers_as_wda_does(settings, raw, using, value, answer):
    reply = raw("POST", f"/session/{settings}/elements", {"using": using, "value": value})
    if isinstance(answer, int):
        assert reply.status == 200, reply.value
        assert len(reply.value) == answer
    else:
        assert reply.value["error"] == answer, reply.value
        assert reply.status == (500 if answer == "unknown error" else 400)


@pytest.mark.parametrize("query", [
    "NOT " * 3000 + "label == 'a'",
    "(" * 3000 + "label == 'a'" + ")" * 3000,
    "label IN " + "{" * 3000 + "}" * 3000,
    "NOT " * 1000 + "label == 'a'",  # what fits under the bridge's 4096-character cap
])
@pytest.mark.parametrize("using", ["predicate string", "class chain"])
def test_a_predicate_nested_past_the_bound_is_an_invalid_selector(settings, raw, using, query):
    value = f"**/*[`{query}`]" if using == "class chain" else query
    reply = raw("POST", f"/session/{settings}/elements", {"using": using, "value": value})
    assert (reply.status, reply.value["error"]) == (400, "invalid selector")
    assert f"deeper than {MAX_NESTING}" in reply.value["message"]
    assert raw("GET", "/status").status == 200


def test_a_predicate_at_the_bound_still_runs(settings, raw):
    query = "NOT " * (MAX_NESTING - 1) + "(label == 'General')"
    reply = raw("POST", f"/session/{settings}/elements", {"using": "predicate string",
                                                          "value": query})
    assert reply.status == 200 and len(reply.value) == ALL - 2


@pytest.mark.parametrize("query", [
    "//*[" + "not(" * 3000 + "@a" + ")" * 3000 + "]",
    "//*" + "[*" * 3000 + "]" * 3000,
])
def test_a_deep_xpath_is_an_invalid_selector(settings, raw, query):
    reply = raw("POST", f"/session/{settings}/elements", {"using": "xpath", "value": query})
    assert (reply.status, reply.value["error"]) == (400, "invalid selector")


def test_finds_from_an_element_include_it_where_wda_does(settings, raw):
    cell = raw("POST", f"/session/{settings}/element",
               {"using": "class chain",
                "value": "**/XCUIElementTypeButton[`label == 'General'`]"})
    uid = cell.value["ELEMENT"]

    def count(using: str, value: str) -> int:
        reply = raw("POST", f"/session/{settings}/element/{uid}/elements",
                    {"using": using, "value": value})
        assert reply.status == 200, reply.value
        return len(reply.value)

    # WDA tests the element itself for these, and runs xpath on its own subtree
    assert count("class name", "XCUIElementTypeButton") == 1
    assert count("predicate string", "label == 'General'") == 2  # the button and its text
    assert count("link text", "label=General") == 2
    assert count("xpath", "//XCUIElementTypeButton") == 1
    assert count("xpath", "//XCUIElementTypeCell") == 0  # not the page around it
    # a class chain and an id start below it
    assert count("class chain", "**/XCUIElementTypeButton") == 0


def test_facebook_wda_short_names_still_work(client):
    # facebook-wda writes XCUIElementType before a short className itself
    settings = client.session("com.apple.Preferences")
    assert settings(className="Button", label="General").exists
    assert settings(xpath="//Button[@label='General']").exists


def test_the_page_source_still_leaves_the_optional_attributes_out(settings, raw):
    # WDA writes hittable, nativeFrame, minValue, maxValue and customActions only into an xpath
    # query's own document: /source stays as a phone serves it by default, after such a find too
    found = raw("POST", f"/session/{settings}/elements",
                {"using": "xpath", "value": "//*[@*][@hittable='true'][@nativeFrame]"})
    assert found.status == 200 and len(found.value) == HITTABLE
    text = raw("GET", "/source").value
    for name in ("hittable", "nativeFrame", "minValue", "maxValue", "customActions"):
        assert f" {name}=" not in text
