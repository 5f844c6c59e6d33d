"""Build WDA-shaped XML page sources and evidence for tests, element by element."""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import quoteattr

from phoneshell.evidence import Capture, Claim, Evidence, Foreground
from phoneshell.sim import SimServer


@dataclass(frozen=True)
class El:
    """One element to put in a test source (frames in points)."""

    type: str = "StaticText"
    label: str = ""
    name: str = ""
    value: str = ""
    frame: tuple[int, int, int, int] = (20, 100, 200, 40)
    visible: bool = True
    placeholder: str = ""
    children: tuple[El, ...] = ()
    """Elements inside this one (a WebView's page, a Keyboard's keys)."""
    traits: str = ""
    """WDA's accessibility traits ("Button, Selected")."""


def source(*elements: El, bundle: str = "com.apple.Preferences", size: tuple[int, int] = (402, 874),
           ) -> str:
    """An XML page source: application > window > the given elements, as WDA writes it."""
    w, h = size
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" '
             f'label="App" enabled="true" visible="true" accessible="false" x="0" y="0" '
             f'width="{w}" height="{h}" index="0" traits="" processId="1" bundleId="{bundle}">',
             f'  <XCUIElementTypeWindow type="XCUIElementTypeWindow" enabled="true" visible="true" '
             f'accessible="false" x="0" y="0" width="{w}" height="{h}" index="0" traits="">']
    for index, e in enumerate(elements):
        lines += _element(e, index, 2)
    lines += ["  </XCUIElementTypeWindow>", "</XCUIElementTypeApplication>", ""]
    return "\n".join(lines)


def _element(e: El, index: int, depth: int) -> list[str]:
    kind = f"XCUIElementType{e.type}"
    attrs = [f'type="{kind}"']
    if e.value:
        attrs.append(f"value={quoteattr(e.value)}")
    if e.name or e.label:
        attrs.append(f"name={quoteattr(e.name or e.label)}")
    if e.label:
        attrs.append(f"label={quoteattr(e.label)}")
    x, y, fw, fh = e.frame
    attrs.append(f'enabled="true" visible="{"true" if e.visible else "false"}" '
                 f'accessible="true" x="{x}" y="{y}" width="{fw}" height="{fh}" '
                 f'index="{index}"')
    if e.placeholder:
        attrs.append(f"placeholderValue={quoteattr(e.placeholder)}")
    attrs.append(f"traits={quoteattr(e.traits)}")
    pad = "  " * depth
    if not e.children:
        return [f"{pad}<{kind} {' '.join(attrs)}/>"]
    inner = [line for i, child in enumerate(e.children) for line in _element(child, i, depth + 1)]
    return [f"{pad}<{kind} {' '.join(attrs)}>", *inner, f"{pad}</{kind}>"]


def evidence(*elements: El, foreground: str | None = "com.apple.Preferences",
             answer: str | None = None, scrolls: tuple[str, ...] = (), final: str | None = None,
             flags: frozenset[str] = frozenset(), task_id: str = "t") -> Evidence:
    """Evidence whose final screen shows `elements` (or the XML `final`), in front `foreground`."""
    xml = final if final is not None else source(*elements, bundle=foreground or "")
    captures = (Capture("final", xml, 1.0),) + tuple(Capture("scroll", s, 2.0 + i)
                                                      for i, s in enumerate(scrolls))
    return Evidence(
        task_id=task_id, captured_at=1.0,
        foreground=Foreground(bundle_id=foreground) if foreground is not None else None,
        captures=captures,
        claim=Claim(status="done", answer=answer) if answer is not None else None,
        flags=flags,  # type: ignore[arg-type]
    )


JSON_SOURCE = "GET /source (json)"


def json_sources(sim: SimServer) -> int:
    """JSON page sources `sim` was asked for since its tally was last taken (it takes it)."""
    return sum(routes[JSON_SOURCE].count for routes in sim.latency.tally.take().values()
               if JSON_SOURCE in routes)
