"""A simulated iPhone whose owner has three Safari tabs open, and what its Safari's store holds:
the witness of which tabs a run closed."""

from __future__ import annotations

from phoneshell.device import Phone, run_steps
from phoneshell.sim import SimServer
from phoneshell.tasks import Step
from phoneshell.xcui import SAFARI

OWNERS = ("https://example.com/", "https://www.apple.com/", "https://en.wikipedia.org/")


def tab_urls(sim: SimServer) -> list[str]:
    """The address of each tab Safari keeps, in the overview's order."""
    safari = sim.state()["stores"].get(SAFARI, {})  # type: ignore[union-attr]
    return [tab["url"] for tab in safari["tabs"]]  # type: ignore[index]


def owners_phone(sim: SimServer) -> None:
    """The owner's tabs (`OWNERS`) opened, in order."""
    run_steps(Phone(sim.url), [Step("open_url", url) for url in OWNERS])
    assert tab_urls(sim) == list(OWNERS)
