"""Time grading every check of a task against a 5,000-element page source, parsing included.

Prints the median and p90 over repeated runs. Target: median <= 50 ms.

    python scripts/bench_grade.py [--elements 5000] [--runs 40]
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
    return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            '<XCUIElementTypeApplication type="XCUIElementTypeApplication" name="Settings" '
            'label="Settings" enabled="true" visible="true" accessible="false" x="0" y="0" '
            'width="402" height="874" index="0" traits="" processId="1" '
            'bundleId="com.apple.Preferences">\n'
            '  <XCUIElementTypeWindow type="XCUIElementTypeWindow" enabled="true" visible="true" '
            'accessible="false" x="0" y="0" width="402" height="874" index="0" traits="">\n'
            + "\n".join(rows) + "\n  </XCUIElementTypeWindow>\n</XCUIElementTypeApplication>\n")


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
    args = parser.parse_args()
    xml = big_source(args.elements)
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
    print(f"{args.elements} elements, {len(TASK.checks)} checks: median "
          f"{statistics.median(timings):.1f} ms, p90 {p90:.1f} ms over {args.runs} runs "
          f"(target <= 50 ms); passed={verdict.passed} "
          f"({sum(r.passed for r in verdict.results)}/{len(verdict.results)} checks)")


if __name__ == "__main__":
    main()
