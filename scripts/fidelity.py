"""Compare the simulated iPhone's screens with the real iOS 26 WebDriverAgent dumps they copy.

For each screen there is a real `GET /source` of (`../shared/reference/ios-sources/`), this
drives a fresh simulator to the same screen with the unmodified facebook-wda client over HTTP,
reads its source, and measures both trees the same way:

* depth: the longest chain of elements from the application node down (the root counts 1);
* elements: every element, the application node included;
* wrappers: unnamed `Other`s (no name, label or value), the layout views UIKit leaves in;
* attributes: the set of attribute names written anywhere in the tree;
* pairs: the (type, name) of every element with `accessible="true"`, what VoiceOver and most
  agents find things by.

A screen meets the goal when its depth is at least 0.6 and its element count at least 0.5 of
the real one's, at least half of the real accessible pairs are among the simulator's, and every
real element the simulator shows (same type and label) has its real identifier there too, and
every scroll view both show is reported `visible` as the real one is (iOS 26 reports Settings'
root list "false" while it fills the screen), every named element both show at the same frame
is too (Notification Center's status-bar items "true", its big clock "false"), every
element the real dump gives a value has one under that name here (the Calendar icon's date),
and every value the real dump reports for an element both show (same type, name and label) the
simulator reports too (a heading's level, a text's own spaces), but for the values that are the
recorded phone's own facts (`DEVICE_FACTS`: its carrier, its Wi-Fi network, its date).
`tests/sim/test_sim_fidelity.py` holds every screen to that goal, reusing `SCREENS` (how each
screen is reached: `fidelity_screens.py`) and `measure` from here.

Usage: .venv/bin/python scripts/fidelity.py [--reference DIR] [--format json]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import wda
from fidelity_screens import SCREENS
from lxml import etree

from phoneshell.sim import SimServer

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT.parent / "shared" / "reference" / "ios-sources"
DEPTH_GOAL, ELEMENTS_GOAL, PAIRS_GOAL = 0.6, 0.5, 0.5
TYPE_PREFIX = "XCUIElementType"
SCROLL_VIEWS = ("Table", "CollectionView", "ScrollView", "WebView")
SCROLL_INDICATOR = " scroll bar, "  # "Vertical scroll bar, 2 pages"
DEVICE_FACTS = {
    ("Other", "Cellular"): "the carrier's signal (the dumps' simulator has none: \"No signal\")",
    ("Other", "3 of 3 Wi-Fi bars"): "the Wi-Fi network's name (the dumps' placeholder \"SSID\")",
    ("Icon", "Calendar"): "the date on the icon, the day the dump was recorded",
}
"""(short type, name) -> why the element's value is the phone's own fact, which the modelled
phone has as its own (`sim/facts.py`), never the recording's."""


@dataclass(frozen=True)
class Shape:
    """What the report measures of one page source."""

    depth: int
    elements: int
    wrappers: int
    attributes: frozenset[str]
    pairs: frozenset[tuple[str, str]]
    """(short type, name) of every accessible element; name "" when it has none."""
    ids: frozenset[tuple[str, str, str]]
    """(short type, label, name) of every accessible element whose name is an identifier (it
    differs from its label: WDA names an element by its label only when it has no id)."""
    lists: frozenset[tuple[str, str, str]] = frozenset()
    """(short type, name, visible) of every scroll view taller than 100 points: iOS 26 reports
    some visible="false" while they fill the screen, and a harness that asks is misled."""
    flags: frozenset[tuple[str, str, str, str, str]] = frozenset()
    """(short type, name, visible, accessible, traits) of every named element: what
    VoiceOver, a harness's aim and `accessible == 1` queries read of it."""
    placed: frozenset[tuple[str, str, str, str]] = frozenset()
    """(short type, name, "x y width height", visible) of every named element but the scroll
    indicators (WDA reports one visible for the moment it flashes, so a dump's flag is its
    moment's): at the same frame, an element is drawn alike, so it is reported alike."""
    valued: frozenset[tuple[str, str]] = frozenset()
    """(short type, name) of every named element with a value (an icon's date, a switch's
    state): what a `value CONTAINS ...` query finds."""
    values: frozenset[tuple[str, str, str, str | None]] = frozenset()
    """(short type, name, label, value) of every element with a name or label: the value each
    reports (None: none), which a harness reads and compares."""


def measure(xml: str | bytes) -> Shape:
    """Measure one WDA XML page source.

    Raises:
        ValueError: the text is not XML.
    """
    data = xml.encode() if isinstance(xml, str) else xml
    try:
        root = etree.fromstring(data)
    except etree.XMLSyntaxError as exc:
        raise ValueError(f"not a page source: {exc}") from exc
    depth, elements, wrappers = 0, 0, 0
    attributes: set[str] = set()
    pairs: set[tuple[str, str]] = set()
    ids: set[tuple[str, str, str]] = set()
    lists: set[tuple[str, str, str]] = set()
    flags: set[tuple[str, str, str, str, str]] = set()
    placed: set[tuple[str, str, str, str]] = set()
    valued: set[tuple[str, str]] = set()
    values: set[tuple[str, str, str, str | None]] = set()
    stack = [(root, 1)]
    while stack:
        node, level = stack.pop()
        depth, elements = max(depth, level), elements + 1
        attributes.update(node.attrib)
        kind = str(node.get("type", node.tag)).removeprefix(TYPE_PREFIX)
        if kind == "Other" and not ({"name", "label", "value"} & set(node.attrib)):
            wrappers += 1
        name = node.get("name", "")
        if name or node.get("label"):
            values.add((kind, name, node.get("label", ""), node.get("value")))
        if name:
            flags.add((kind, name, node.get("visible", ""), node.get("accessible", ""),
                       node.get("traits", "")))
            if SCROLL_INDICATOR not in name:
                frame = " ".join(node.get(key, "") for key in ("x", "y", "width", "height"))
                placed.add((kind, name, frame, node.get("visible", "")))
            if node.get("value") is not None:
                valued.add((kind, name))
        if node.get("accessible") == "true":
            name, label = node.get("name", ""), node.get("label", "")
            pairs.add((kind, name))
            if name and label and name != label:
                ids.add((kind, label, name))
        if kind in SCROLL_VIEWS and float(node.get("height", "0")) > 100:
            lists.add((kind, node.get("name", ""), node.get("visible", "")))
        stack.extend((child, level + 1) for child in node)
    return Shape(depth, elements, wrappers, frozenset(attributes), frozenset(pairs),
                 frozenset(ids), frozenset(lists), frozenset(flags), frozenset(placed),
                 frozenset(valued), frozenset(values))


ATTRIBUTES = ("type", "value", "name", "label", "enabled", "visible", "accessible", "x", "y",
              "width", "height", "index", "placeholderValue", "traits", "processId", "bundleId")
"""Every attribute WDA writes into an XML source (`supportedAttributes`, and the root's two)."""


def tree_rule_breaks(xml: str | bytes) -> list[str]:
    """What in one XML source breaks a rule every real WDA source obeys, one line each:

    * a label without a name (WDA names an element by its identifier, else its label);
    * an accessible element inside an accessible one (WDA's isWDAccessible is false below
      an accessibility element other than a Table);
    * an element without `index` or `traits`, or whose `index` is not its place among its
      siblings;
    * an attribute WDA never writes.
    """
    root = etree.fromstring(xml.encode() if isinstance(xml, str) else xml)
    breaks: list[str] = []
    stack: list[tuple[etree._Element, str | None, int]] = [(root, None, 0)]
    while stack:
        node, inside, place = stack.pop()
        what = f"{node.get('type', node.tag)} name={node.get('name')!r} label={node.get('label')!r}"
        if node.get("label") and not node.get("name"):
            breaks.append(f"label without a name: {what}")
        if inside is not None and node.get("accessible") == "true":
            breaks.append(f"accessible inside accessible {inside}: {what}")
        if "index" not in node.attrib or "traits" not in node.attrib:
            breaks.append(f"no index or traits: {what}")
        elif node is not root and node.get("index") != str(place):
            breaks.append(f"index {node.get('index')} at place {place}: {what}")
        breaks += [f"unknown attribute {key!r}: {what}" for key in node.attrib
                   if key not in ATTRIBUTES]
        if inside is None and node.get("accessible") == "true" and not str(
                node.get("type")).endswith("Table"):
            inside = f"{node.get('type')} {node.get('name')!r}"
        stack.extend((child, inside, i) for i, child in enumerate(node))
    return breaks


@dataclass(frozen=True)
class Comparison:
    """One screen, simulated against real."""

    screen: str
    dump: str
    sim: Shape
    real: Shape

    @property
    def depth_ratio(self) -> float:
        """Simulator depth over real depth."""
        return self.sim.depth / self.real.depth

    @property
    def elements_ratio(self) -> float:
        """Simulator element count over the real count."""
        return self.sim.elements / self.real.elements

    @property
    def shared_pairs(self) -> frozenset[tuple[str, str]]:
        """Real accessible (type, name) pairs the simulator has too."""
        return self.real.pairs & self.sim.pairs

    @property
    def pairs_ratio(self) -> float:
        """The share of real accessible pairs the simulator has."""
        return len(self.shared_pairs) / len(self.real.pairs) if self.real.pairs else 1.0

    @property
    def missing_pairs(self) -> list[tuple[str, str]]:
        """Real accessible pairs the simulator lacks, sorted."""
        return sorted(self.real.pairs - self.sim.pairs)

    @property
    def missing_attributes(self) -> list[str]:
        """Attribute names the real dump writes and the simulator never does."""
        return sorted(self.real.attributes - self.sim.attributes)

    @property
    def wrong_ids(self) -> list[tuple[str, str, str, str]]:
        """(type, label, real id, simulator name) where the simulator shows the element (same
        type and label) under another name than its real identifier."""
        ours: dict[tuple[str, str], set[str]] = {}
        for kind, label, name in self.sim.ids:
            ours.setdefault((kind, label), set()).add(name)
        for kind, name in self.sim.pairs:
            ours.setdefault((kind, name), set()).add(name)  # named by its label: no id
        return sorted((kind, label, name, ", ".join(sorted(ours[kind, label])))
                      for kind, label, name in self.real.ids
                      if (kind, label) in ours and name not in ours[kind, label])

    @property
    def wrong_visible(self) -> list[tuple[str, str, str]]:
        """(type, name, real visible) of each scroll view both show that the real dump reports
        one way only and the simulator never reports that way."""
        def seen(shape: Shape) -> dict[tuple[str, str], set[str]]:
            found: dict[tuple[str, str], set[str]] = {}
            for kind, name, visible in shape.lists:
                found.setdefault((kind, name), set()).add(visible)
            return found

        real, ours = seen(self.real), seen(self.sim)
        return sorted((kind, name, next(iter(shown))) for (kind, name), shown in real.items()
                      if len(shown) == 1 and (kind, name) in ours
                      and not shown & ours[kind, name])

    @property
    def wrong_flags(self) -> list[tuple[str, str, str, str]]:
        """(type, name, real "accessible traits", simulator's) of each element both show by
        the same name (and visibility) whose `accessible` flag and traits the simulator never
        reports as the real dump does (a start-page cell: a container there, a button here)."""
        def seen(shape: Shape) -> dict[tuple[str, str, str], set[str]]:
            found: dict[tuple[str, str, str], set[str]] = {}
            for kind, name, visible, accessible, traits in shape.flags:
                found.setdefault((kind, name, visible), set()).add(f"{accessible} {traits!r}")
            return found

        real, ours = seen(self.real), seen(self.sim)
        return sorted((kind, name, " | ".join(sorted(shown)), " | ".join(sorted(ours[key])))
                      for key, shown in real.items() for kind, name, _ in [key]
                      if key in ours and not shown & ours[key])

    @property
    def wrong_shown(self) -> list[tuple[str, str, str, str]]:
        """(type, name, frame, real visible) of each named element both show at the same
        frame that the real dump reports one way only and the simulator never reports that
        way (Notification Center's status-bar items, shown there, hidden here)."""
        def seen(shape: Shape) -> dict[tuple[str, str, str], set[str]]:
            found: dict[tuple[str, str, str], set[str]] = {}
            for kind, name, frame, visible in shape.placed:
                found.setdefault((kind, name, frame), set()).add(visible)
            return found

        real, ours = seen(self.real), seen(self.sim)
        return sorted((*key, next(iter(shown))) for key, shown in real.items()
                      if len(shown) == 1 and key in ours and not shown & ours[key])

    @property
    def missing_values(self) -> list[tuple[str, str]]:
        """(type, name) of each element the real dump gives a value that the simulator shows
        under that name and never with one (the Calendar icon's date)."""
        named = {(kind, name) for kind, name, *_ in self.sim.flags}
        return sorted((self.real.valued & named) - self.sim.valued)

    @property
    def wrong_values(self) -> list[tuple[str, str, str, str, str]]:
        """(type, name, label, real values, simulator's) of each element both show by the same
        type, name and label, of which the real dump reports a value the simulator never does
        (a heading's level "2" reported "1", a text's "Or " reported "Or"); none of
        `DEVICE_FACTS`. Values are shown as `repr`s, `None` for none."""
        def seen(shape: Shape) -> dict[tuple[str, str, str], set[str | None]]:
            found: dict[tuple[str, str, str], set[str | None]] = {}
            for kind, name, label, value in shape.values:
                if (kind, name) not in DEVICE_FACTS:
                    found.setdefault((kind, name, label), set()).add(value)
            return found

        def shown(values: set[str | None]) -> str:
            return " | ".join(sorted(map(repr, values)))

        real, ours = seen(self.real), seen(self.sim)
        return sorted((*key, shown(values), shown(ours[key])) for key, values in real.items()
                      if key in ours and not values <= ours[key])

    @property
    def meets_goal(self) -> bool:
        """Depth, element count and shared pairs all at their goals, no identifier, scroll
        view's or element's visibility, accessible flag, traits or value other than the real
        one."""
        return (self.depth_ratio >= DEPTH_GOAL and self.elements_ratio >= ELEMENTS_GOAL
                and self.pairs_ratio >= PAIRS_GOAL and not self.wrong_ids
                and not self.wrong_visible and not self.wrong_flags and not self.wrong_shown
                and not self.missing_values and not self.wrong_values)


def compare(screen: str, sources: Path = SOURCES) -> Comparison:
    """Reach `screen` on a fresh simulator and measure it against its real dump."""
    dump, reach = SCREENS[screen]
    real = measure((sources / dump).read_bytes())
    with SimServer() as sim:
        client = wda.Client(sim.url)
        reach(client, sim.url)
        ours = measure(client.source())
    return Comparison(screen, dump, ours, real)


def _row(c: Comparison) -> str:
    return (f"{c.screen:<34} {c.sim.depth:>3}/{c.real.depth:<3} {c.depth_ratio:5.2f}  "
            f"{c.sim.elements:>4}/{c.real.elements:<4} {c.elements_ratio:5.2f}  "
            f"{c.sim.wrappers:>4}/{c.real.wrappers:<4}  "
            f"{len(c.real.attributes & c.sim.attributes):>2}/{len(c.real.attributes):<2}  "
            f"{len(c.shared_pairs):>3}/{len(c.real.pairs):<3} {c.pairs_ratio:5.2f}  "
            f"{'yes' if c.meets_goal else 'NO'}")


def main() -> int:
    """Print the fidelity table; exit 1 when a screen misses the goal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, default=SOURCES,
                        help="folder of real dumps (default: %(default)s)")
    parser.add_argument("--format", choices=("table", "json"), default="table")
    args = parser.parse_args()
    results = [compare(screen, args.reference) for screen in SCREENS]
    if args.format == "json":
        print(json.dumps([{
            "screen": c.screen, "dump": c.dump, "depth": [c.sim.depth, c.real.depth],
            "elements": [c.sim.elements, c.real.elements],
            "wrappers": [c.sim.wrappers, c.real.wrappers],
            "attributes": [len(c.real.attributes & c.sim.attributes), len(c.real.attributes)],
            "pairs": [len(c.shared_pairs), len(c.real.pairs)],
            "missing_pairs": [list(p) for p in c.missing_pairs],
            "missing_attributes": c.missing_attributes,
            "wrong_ids": [list(w) for w in c.wrong_ids],
            "wrong_visible": [list(w) for w in c.wrong_visible],
            "wrong_flags": [list(w) for w in c.wrong_flags],
            "wrong_shown": [list(w) for w in c.wrong_shown],
            "missing_values": [list(w) for w in c.missing_values],
            "wrong_values": [list(w) for w in c.wrong_values], "meets_goal": c.meets_goal,
        } for c in results], indent=2))
    else:
        print(f"{'screen':<34} {'depth':<13} {'elements':<17} {'wrappers':<10} "
              f"{'attrs':<6} {'pairs':<13} goal")
        for c in results:
            print(_row(c))
        for c in results:
            if (c.missing_pairs or c.missing_attributes or c.wrong_ids or c.wrong_visible
                    or c.wrong_flags or c.wrong_shown or c.missing_values or c.wrong_values):
                print(f"\n{c.screen}: missing pairs {c.missing_pairs}; "
                      f"missing attributes {c.missing_attributes}; wrong ids {c.wrong_ids}; "
                      f"scroll views visible otherwise {c.wrong_visible}; "
                      f"accessible/traits otherwise {c.wrong_flags}; "
                      f"elements visible otherwise {c.wrong_shown}; "
                      f"values missing {c.missing_values}; values otherwise "
                      f"{c.wrong_values}")
    return 0 if all(c.meets_goal for c in results) else 1


if __name__ == "__main__":
    sys.exit(main())
