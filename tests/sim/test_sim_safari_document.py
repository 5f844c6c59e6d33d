"""Safari's tab document as both iOS 26 dumps name and frame it (red team 124, RT124-6).

The dumps (shared/reference/ios-sources: the start page, a loaded page) name the document
"TabDocument?...&IsPageLoaded=true&WebViewProcessID=<pid>", the start page too, and frame the
WebView full-screen under the bars, the page's own document Other between them. An agent that
waits on IsPageLoaded, or reads the process id, reads them here as on a phone.
"""

from __future__ import annotations

import re

import wda
from lxml import etree

SAFARI = "com.apple.mobilesafari"


def _document(client: wda.Client) -> tuple[str, tuple[str, ...]]:
    """The tab document's name after "IsPrivate=false", and the WebView's frame."""
    root = etree.fromstring(client.source().encode())
    doc = next(e for e in root.iter() if (e.get("name") or "").startswith("TabDocument?"))
    web = next(e for e in doc.iter("XCUIElementTypeWebView") if e.get("name") == "WebView")
    frame = tuple(web.get(k) for k in ("x", "y", "width", "height"))
    return doc.get("name").split("IsPrivate=false")[1], frame


def test_the_tab_document_is_named_and_framed_as_the_dumps(client):
    safari = client.session(SAFARI)
    start, start_frame = _document(client)
    assert re.fullmatch(r"&IsPageLoaded=true&WebViewProcessID=\d+", start), start
    assert start_frame == ("0", "0", "402", "874")
    safari(name="TabBarItemTitle").click()
    safari.send_keys("example.com\n")
    loaded, frame = _document(client)
    assert loaded == start  # one WebContent process for the launch
    assert frame == ("0", "0", "402", "874")
    title = safari(className="Other", name="Example Domain").get(timeout=1)
    assert (title.bounds.y, title.bounds.height) == (62, 714)  # the document, between the bars
    pid = int(start.rsplit("=", 1)[1])
    safari_pid = int(etree.fromstring(client.source().encode()).get("processId"))
    assert safari_pid < pid < safari_pid + 20  # WebKit's, launched just after Safari
    client.app_terminate(SAFARI)
    client.session(SAFARI)  # a new launch: a new WebContent process
    again = int(_document(client)[0].rsplit("=", 1)[1])
    assert again != pid and again > int(etree.fromstring(client.source().encode())
                                        .get("processId"))
