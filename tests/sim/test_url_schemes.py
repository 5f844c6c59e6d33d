"""`POST /url` routes as iOS does: Apple's apps open for their schemes and universal links (Maps
for maps.apple.com), Safari for any other web link, WDA's error for a scheme no app handles."""

from __future__ import annotations

import pytest
import wda

from phoneshell.sim import SimServer
from phoneshell.sim.apps import builtin_apps

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


@pytest.mark.parametrize(("url", "bundle"), [
    ("sms:5555648583", "com.apple.MobileSMS"),
    ("SMS:", "com.apple.MobileSMS"),
    ("mailto:kate@example.com?subject=hi", "com.apple.mobilemail"),
    ("message://", "com.apple.mobilemail"),
    ("x-web-search://?coffee", SAFARI),
    ("https://podcasts.apple.com/us/podcast/id1", "com.apple.podcasts"),
    ("https://tv.apple.com/us/show/x", "com.apple.tv"),
])
def test_messaging_search_and_media_urls_open_their_apps(app, client, url, bundle):
    app.open_url(url)
    assert front(client) == bundle


def test_a_web_search_url_shows_the_search_in_safari(app, client):
    app.open_url("x-web-search://?best+coffee")
    assert front(client) == SAFARI
    assert "best coffee" in client.source()  # the results page for the words


def test_a_link_to_an_app_the_phone_lacks_opens_safari():
    """A phone without the TV app opens a tv.apple.com link in Safari."""
    apps = [a for a in builtin_apps() if a.bundle_id != "com.apple.tv"]
    with SimServer(apps=apps) as server:
        client = wda.Client(server.url)
        client.session().open_url("https://tv.apple.com/us/show/x")
        assert front(client) == SAFARI


def test_a_url_opened_with_a_named_app_opens_in_that_app(app, client, raw):
    """WDA's `bundleId`: the named app opens the URL (Settings, not Safari, for a web link)."""
    reply = raw("POST", f"/session/{app.session_id}/url",
                {"url": "https://example.com/", "bundleId": "com.apple.Preferences"})
    assert reply.status == 200, reply.value
    assert front(client) == "com.apple.Preferences"


def test_a_named_app_shows_a_url_it_handles(app, client, raw):
    reply = raw("POST", f"/session/{app.session_id}/url",
                {"url": "https://maps.apple.com/?q=coffee", "bundleId": "com.apple.Maps"})
    assert reply.status == 200, reply.value
    assert app(className="SearchField").get(timeout=1).value == "coffee"


@pytest.mark.parametrize("bundle", ["com.example.nothere", "com.apple.springboard", 7])
def test_a_url_with_an_app_not_installed_is_an_error(app, client, raw, bundle):
    reply = raw("POST", f"/session/{app.session_id}/url",
                {"url": "https://example.com/", "bundleId": bundle})
    assert reply.status in (400, 500) and reply.value["error"] in ("unknown error",
                                                                   "invalid argument")
    assert front(client) == "com.apple.springboard"
