"""Time grading every check of a task against a 5,000-element page source, parsing included.

Prints the median and p90 over repeated runs. Target: median <= 50 ms. `--deep` shapes the same
number of elements as the real iOS 26 trees are (docs/simulator.md): rows ten elements deep
inside a dozen wrapper views, where the flat default puts every row under the window.

    python scripts/bench_grade.py [--elements 5000] [--runs 40] [--deep]
"""

from __future__ import annotations

import argparse
import statistics
import time

from phoneshell.checks import Check
from phoneshell.evidence import Capture, Claim, Evidence, Foreground
from phoneshell.grade import grade
from phoneshell.tasks import Task


def big_source(count: int) -> str:
    """A Settings-like source with `count` cells, most of them below the fold."""
    rows = []
    for i in range(count):
        y = 100 + (i % 40) * 44 if i < 40 else 1000 + i * 44
        rows.append(
            f'      <XCUIElementTypeCell type="XCUIElementTypeCell" name="row.{i}" '
            f'label="Setting {i}, value {i * 7}" enabled="true" visible="{str(i < 40).lower()}" '
            f'accessible="true" x="16" y="{y}" width="370" height="44" index="{i}" '
            f'traits="Button"/>')
    return _document("\n".join(rows))


def _document(window: str) -> str:
    """Settings' application node and window around `window`'s content."""
    return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            '<XCUIElementTypeApplication type="XCUIElementTypeApplication" name="Settings" '
            'label="Settings" enabled="true" visible="true" accessible="false" x="0" y="0" '
            'width="402" height="874" index="0" traits="" processId="1" '
            'bundleId="com.apple.Preferences">\n'
            '  <XCUIElementTypeWindow type="XCUIElementTypeWindow" enabled="true" visible="true" '
            'accessible="false" x="0" y="0" width="402" height="874" index="0" traits="">\n'
            + window + "\n  </XCUIElementTypeWindow>\n</XCUIElementTypeApplication>\n")


def _element(kind: str, label: str, visible: bool, x: int, y: int, index: int,
             accessible: bool = False) -> str:
    text = f'name="{label}" label="{label}" ' if label else ""
    return (f'<XCUIElementType{kind} type="XCUIElementType{kind}" {text}enabled="true" '
            f'visible="{str(visible).lower()}" accessible="{str(accessible).lower()}" x="{x}" '
            f'y="{y}" width="370" height="44" index="{index}" traits=""')


def deep_source(count: int) -> str:
    """As many elements as `big_source`, in the real dumps' shape: per row a Cell with its
    content view, a Button with two texts, its background view and separator, all inside a
    dozen wrappers (iOS 26's Settings tree is 21 deep)."""
    rows = []
    for i in range(count // 10):
        y = 100 + (i % 40) * 44 if i < 40 else 1000 + i * 44
        shown = i < 40
        label = f"Setting {i}, value {i * 7}"

        def leaf(kind: str, text: str = "", at: int = 0, *, row_y: int = y,
                 row_shown: bool = shown) -> str:
            return _element(kind, text, row_shown, 16, row_y, at) + "/>"

        rows.append(
            _element("Cell", label, shown, 16, y, i, accessible=True) + ">"
            + _element("Other", "", shown, 16, y, 0) + ">" + _element("Other", "", shown, 16, y, 0)
            + ">" + _element("Button", label, shown, 16, y, 0) + ">"
            + leaf("StaticText", f"Setting {i}") + leaf("StaticText", f"value {i * 7}", 1)
            + "</XCUIElementTypeButton></XCUIElementTypeOther></XCUIElementTypeOther>"
            + _element("Other", "", shown, 16, y, 1) + ">" + leaf("Other")
            + "</XCUIElementTypeOther>" + leaf("Other", at=2) + leaf("Image", at=3)
            + "</XCUIElementTypeCell>")
    wrappers = 12
    opening = "".join(_element("Other", "", True, 0, 0, 0) + ">" for _ in range(wrappers))
    closing = "</XCUIElementTypeOther>" * wrappers
    return _document(opening + "\n".join(rows) + closing)


TASK = Task("bench", "Bench", "grade me", checks=(
    Check.make("foreground_app", "com.apple.Preferences"),
    Check.make("element_exists", "Setting 39, value 273"),
    Check.make("element_exists", "Model Number", negate=True),  # absent: scans every element
    Check.make("element_exists_anywhere", "not there at all"),
    Check.make("regex_on_screen", r"value \d{5}"),  # misses: every attribute searched
    Check.make("answer_contains", "273"),
))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--elements", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--deep", action="store_true", help="rows shaped as real iOS 26 trees")
    args = parser.parse_args()
    xml = deep_source(args.elements) if args.deep else big_source(args.elements)
    timings = []
    for _ in range(args.runs):
        started = time.perf_counter()
        evidence = Evidence("bench", 0.0, foreground=Foreground(bundle_id="com.apple.Preferences"),
                            captures=(Capture("final", xml, 0.0),),
                            claim=Claim(status="done", answer="it is 273"))
        verdict = grade(TASK, evidence)
        timings.append((time.perf_counter() - started) * 1000)
    timings.sort()
    p90 = timings[int(len(timings) * 0.9) - 1]
    shape = "deep" if args.deep else "flat"
    print(f"{args.elements} elements ({shape}), {len(TASK.checks)} checks: median "
          f"{statistics.median(timings):.1f} ms, p90 {p90:.1f} ms over {args.runs} runs "
          f"(target <= 50 ms); passed={verdict.passed} "
          f"({sum(r.passed for r in verdict.results)}/{len(verdict.results)} checks)")


if __name__ == "__main__":
    main()
