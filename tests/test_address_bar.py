"""The one rule of what Safari does with a text sent from its address field (red team 96): each
decision the module's docstring documents, and the host a field shows."""

from __future__ import annotations

import pytest

from phoneshell.address_bar import sent, shown_host


@pytest.mark.parametrize(("text", "does", "url"), [
    ("example.com", "load", "https://example.com"),
    ("EXAMPLE.com/a?b#c", "load", "https://EXAMPLE.com/a?b#c"),
    ("localhost:8080", "load", "https://localhost:8080"),
    ("b\u00fccher.de", "load", "https://b\u00fccher.de"),
    ("https://user@example.com/x", "load", "https://user@example.com/x"),
    ("https://example%2Ecom/", "load", "https://example%2Ecom/"),
    ("ftp://example.com", "cannot", "ftp://example.com"),
    ("  ", "nothing", ""),
])
def test_an_address_loads(text: str, does: str, url: str) -> None:
    assert (sent(text).does, sent(text).url) == (does, url)


@pytest.mark.parametrize("text", [
    "example.com.", "example%2Ecom", "blolabel%2Eai/probe/eight", "blolabel.ai./probe/eight",
    "\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com", "example\u3002com", "user@example.com",
    "example.com\\probe", "example..com", ".example.com", "example.com:abc",
    "example.com:99999", "example", "iso 8601 date format", "http://[example.com/",
])
def test_anything_else_is_searched(text: str) -> None:
    assert (sent(text).does, sent(text).words) == ("search", text)


def test_a_field_shows_a_host_only_as_safari_writes_one() -> None:
    assert shown_host("example.com") == "example.com"
    assert shown_host("example.com:8080") == "example.com:8080"
    for value in ("EXAMPLE.com", "example%2Ecom", "example.com.", "example.com/a", "iso 8601",
                  "\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com"):
        assert shown_host(value) is None, value
