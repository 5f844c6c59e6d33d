"""`visited` and `page_shown` grade a text typed in Safari's address field by what Safari does
with it (`address_bar.sent`), the rule the simulated Safari plays (red team 96, RT96-2): played
with facebook-wda through the bridge on the simulator."""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from played_finish import Play, failed_checks, played

from phoneshell.sim import SimServer
from phoneshell.sim.apps.safari_pages import PROBE_WORDS
from phoneshell.tasks import Task

SAFARI = "com.apple.mobilesafari"
WRITTEN = PROBE_WORDS["eight"][1]


def typed(text: str, answer: str, seen: list[str] | None = None) -> Play:
    """`text` typed into Safari's address field and sent, answering `answer`; the page source
    after it kept in `seen`, to tell which page the simulated Safari loaded."""
    def play(c: wda.Client) -> str:
        c.app_launch(SAFARI)
        c(name="TabBarItemTitle").click()
        c.send_keys(text + "\n")
        if seen is not None:
            seen.append(str(c.source()))
        return answer
    return play


@pytest.mark.parametrize("text", ["blolabel%2Eai/probe/eight", "blolabel.ai./probe/eight",
                                  "\uff42\uff4c\uff4f\uff4c\uff41\uff42\uff45\uff4c.ai/probe/eight",
                                  "blolabel\u3002ai/probe/eight"])
def test_a_text_safari_searches_for_is_no_visit(sim: SimServer, tmp_path: Path,
                                                suite: dict[str, Task], text: str) -> None:
    seen: list[str] = []
    row = played(sim, tmp_path, suite["probe.text.eight"], typed(text, WRITTEN, seen))
    failed = failed_checks(row)
    assert list(failed) == ["visited"], failed
    assert f"it loaded a search for {text!r}" in failed["visited"]
    # the simulated Safari searched for it: the same rule, the same side
    assert "Google results for" in seen[0] and WRITTEN not in seen[0]


@pytest.mark.parametrize("text", ["example.com.", "example%2Ecom", "EXAMPLE.com%2E"])
def test_a_search_for_a_hosts_spelling_shows_no_page(sim: SimServer, tmp_path: Path,
                                                     suite: dict[str, Task], text: str) -> None:
    row = played(sim, tmp_path, suite["safari.navigate.example"], typed(text, "Example Domain"))
    failed = failed_checks(row)
    assert "visited" in failed and "page_shown" in failed, failed
    assert "wanted a page of example.com" in failed["page_shown"]


@pytest.mark.parametrize("text", ["EXAMPLE.com", "https://example%2Ecom/", "example.com:443"])
def test_an_address_safari_loads_is_a_visit_and_the_page(sim: SimServer, tmp_path: Path,
                                                        suite: dict[str, Task],
                                                        text: str) -> None:
    row = played(sim, tmp_path, suite["safari.navigate.example"], typed(text, "Example Domain"))
    assert row.outcome == "passed", failed_checks(row)


def test_a_url_typed_with_its_scheme_loads_as_the_checks_read_it(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    # WHATWG decodes an escape in a URL's host: the simulated Safari loads the probe page, as
    # `visited` reads it (it showed "can't open" before)
    seen: list[str] = []
    row = played(sim, tmp_path, suite["probe.text.eight"],
                 typed("https://blolabel%2Eai/probe/eight", WRITTEN, seen))
    assert row.outcome == "passed", failed_checks(row)
    assert WRITTEN in seen[0]


def test_a_port_no_site_answers_on_is_no_page(sim: SimServer, tmp_path: Path,
                                              suite: dict[str, Task]) -> None:
    seen: list[str] = []
    row = played(sim, tmp_path, suite["safari.navigate.example"],
                 typed("example.com:8080", "Example Domain", seen))
    failed = failed_checks(row)
    assert "visited" in failed and "page_shown" in failed, failed
    assert "Can\u2019t Open the Page" in seen[0]
