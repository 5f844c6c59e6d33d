"""An element attribute name is looked up in one table for the `attribute/:name` route and for
predicates, as WDA's FBElementUtils looks it up for both: a name WDA does not know is refused
alike ("The attribute '...' is unknown"), and `UID` / `wdUID` answer the element's id."""

from __future__ import annotations

import pytest
import wda

from phoneshell.xcui import SETTINGS

UNKNOWN = ("bogus", "isVisible", "displayed", "rawIdentifier", "hasFocus")
"""Names WDA's FBElement protocol has no property for (isVisible is the JSON source's key)."""


@pytest.fixture
def settings(client: wda.Client) -> wda.Client:
    """A Settings session."""
    return client.session(SETTINGS)


@pytest.fixture
def row(settings: wda.Client) -> wda.Element:
    """Settings' General row, found through facebook-wda."""
    return settings(id="com.apple.settings.general").get(timeout=5)


@pytest.fixture
def general(settings: wda.Client, row: wda.Element) -> tuple[wda.Client, str]:
    """The session and the id of Settings' General row."""
    return settings, row.id


@pytest.mark.parametrize("name", UNKNOWN)
def test_an_unknown_attribute_is_refused_by_the_route_as_by_a_predicate(general, raw, name):
    session, element = general
    reply = raw("GET", f"/session/{session.session_id}/element/{element}/attribute/{name}")
    found = raw("POST", f"/session/{session.session_id}/elements",
                {"using": "predicate string", "value": f"{name} == 1"})
    assert (reply.status, reply.value["error"]) == (found.status, found.value["error"]) == (
        500, "unknown error")
    assert reply.value["message"] == found.value["message"]
    assert reply.value["message"].startswith(f"The attribute '{name}' is unknown")


@pytest.mark.parametrize("name", ["UID", "wdUID"])
def test_uid_is_the_elements_id(row, name):
    assert row._prop(f"attribute/{name}") == row.id


def test_every_name_a_predicate_knows_is_answered(general, raw):
    session, element = general
    for name in ("visible", "wdVisible", "accessible", "hittable", "index", "wdIndex", "frame",
                 "rect", "traits", "placeholderValue", "accessibilityContainer", "focused"):
        reply = raw("GET", f"/session/{session.session_id}/element/{element}/attribute/{name}")
        assert reply.status == 200, name
    assert raw("GET", f"/session/{session.session_id}/element/{element}/attribute/visible"
               ).value is True
