"""`POST /url` routes as iOS does: Apple's apps open for their schemes and universal links (Maps
for maps.apple.com), Safari for any other web link, WDA's error for a scheme no app handles."""

from __future__ import annotations

import pytest
import wda

SAFARI = "com.apple.mobilesafari"


def front(client: wda.Client) -> str:
    return str(client.app_current()["bundleId"])


@pytest.mark.parametrize(("url", "bundle"), [
    ("mobilenotes://", "com.apple.mobilenotes"),
    ("calshow://", "com.apple.mobilecal"),
    ("x-apple-reminderkit://", "com.apple.reminders"),
    ("maps://?q=coffee", "com.apple.Maps"),
    ("music://", "com.apple.Music"),
    ("itms-apps://apps.apple.com", "com.apple.AppStore"),
    ("https://apps.apple.com/app/id1", "com.apple.AppStore"),
    ("shareddocuments://", "com.apple.DocumentsApp"),
    ("App-prefs:", "com.apple.Preferences"),
    ("https://example.com/", SAFARI),
])
def test_a_url_opens_the_app_ios_routes_it_to(app, client, url, bundle):
    app.open_url(url)
    assert front(client) == bundle


def test_a_maps_link_opens_maps_searching_its_query(app, client):
    app.open_url("https://maps.apple.com/?q=coffee")
    assert front(client) == "com.apple.Maps"
    assert app(className="SearchField").get(timeout=1).value == "coffee"


def test_a_scheme_no_app_handles_is_an_error_and_changes_nothing(app, client, raw):
    reply = raw("POST", f"/session/{app.session_id}/url", {"url": "nosuchscheme://x"})
    assert reply.status == 500 and reply.value["error"] == "unknown error"
    assert front(client) == "com.apple.springboard"
