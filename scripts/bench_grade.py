"""Time grading every check of a task against a 5,000-element page source, parsing included.

The source is shaped as real iOS 26 dumps are (`--shape deep`, the default): rows twenty deep,
inside a dozen wrapper views, each row a cell with its content view, a button holding two
texts, a background and a separator; `--shape flat` puts every row straight under the window.
Prints the median and p90 of the wall time and of this process's CPU time over repeated runs
(the CPU time is what a busy shared machine disturbs least), and the ratio to parsing the same
bytes with lxml alone, measured in the same process: a C parser building its tree and handing
nothing to Python, the yardstick for what reading the source must cost.
Target: median <= 50 ms. On two busy cores: 31-33 ms deep and 37-40 ms flat (2.0x and 2.3x that
yardstick), from 52-53 and 52-59 ms (3.5x) before sources were read in one expat pass.

    python scripts/bench_grade.py [--elements 5000] [--runs 40] [--shape deep|flat]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from lxml import etree

from phoneshell.checks import Check
from phoneshell.evidence import Capture, Claim, Evidence, Foreground
from phoneshell.grade import grade
from phoneshell.tasks import Task

HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
        '<XCUIElementTypeApplication type="XCUIElementTypeApplication" name="Settings" '
        'label="Settings" enabled="true" visible="true" accessible="false" x="0" y="0" '
        'width="402" height="874" index="0" traits="" processId="1" '
        'bundleId="com.apple.Preferences">\n')
WRAPPERS = 12
"""Plain views between the window and the list in the real Settings dump."""
PER_ROW = 10


def _open(kind: str, y: int, shown: bool, index: int, text: str = "", height: int = 44,
          traits: str = "") -> str:
    said = f'name="{text}" label="{text}" ' if text else ""
    return (f'<XCUIElementType{kind} type="XCUIElementType{kind}" {said}enabled="true" '
            f'visible="{str(shown).lower()}" accessible="{str(bool(text)).lower()}" x="16" '
            f'y="{y}" width="370" height="{height}" index="{index}" traits="{traits}"')


def _row(i: int) -> str:
    """One Settings row, ten elements, its deepest text twenty levels down."""
    y = 100 + i * 44
    shown = y + 44 <= 874
    title, value = f"Setting {i}", f"value {i * 7}"
    return (_open("Cell", y, shown, i, f"{title}, {value}", traits="Button") + ">"
            + _open("Other", y, shown, 0) + ">" + _open("Other", y, shown, 0) + ">"
            + _open("Image", y, shown, 0, "gear") + "/>"
            + _open("Button", y, shown, 1, f"{title}, {value}", traits="Button") + ">"
            + _open("StaticText", y, shown, 0, title) + "/>"
            + _open("StaticText", y, shown, 1, value) + "/>"
            + "</XCUIElementTypeButton>" + _open("Image", y, shown, 2, "chevron") + "/>"
            + "</XCUIElementTypeOther>" + _open("Other", y, shown, 1) + "/>"
            + "</XCUIElementTypeOther>" + _open("Other", y + 43, shown, 1, height=1) + "/>"
            + "</XCUIElementTypeCell>")


def deep_source(count: int) -> str:
    """About `count` elements in the real dumps' shape (see the module docstring)."""
    rows = "\n".join(_row(i) for i in range(max(1, (count - WRAPPERS - 3) // PER_ROW)))
    wrappers = [_open("Other", 0, True, 0, height=874) + ">" for _ in range(WRAPPERS)]
    return (HEAD + _open("Window", 0, True, 0, height=874) + ">" + "".join(wrappers)
            + _open("Table", 0, True, 0, height=874) + ">\n" + rows
            + "</XCUIElementTypeTable>" + "</XCUIElementTypeOther>" * WRAPPERS
            + "</XCUIElementTypeWindow>\n</XCUIElementTypeApplication>\n")


def flat_source(count: int) -> str:
    """`count` cells straight under the window, most of them below the fold."""
    rows = "\n".join(_open("Cell", 100 + i * 44, 100 + i * 44 + 44 <= 874, i,
                           f"Setting {i}, value {i * 7}", traits="Button") + "/>"
                     for i in range(count))
    return (HEAD + _open("Window", 0, True, 0, height=874) + ">\n" + rows
            + "\n</XCUIElementTypeWindow>\n</XCUIElementTypeApplication>\n")


TASK = Task("bench", "Bench", "grade me", checks=(
    Check.make("foreground_app", "com.apple.Preferences"),
    Check.make("element_exists", "Setting 15, value 105"),
    Check.make("element_exists", "Model Number", negate=True),  # absent: scans every element
    Check.make("element_exists_anywhere", "not there at all"),
    Check.make("regex_on_screen", r"value \d{5}"),  # misses: every attribute searched
    Check.make("answer_contains", "105"),
))


def timed(runs: int, work: Callable[[], object]) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of each run, sorted."""
    wall, cpu = [], []
    for _ in range(runs):
        started, used = time.perf_counter(), time.process_time()
        work()
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
    return sorted(wall), sorted(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--elements", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--shape", choices=("deep", "flat"), default="deep")
    args = parser.parse_args()
    xml = (deep_source if args.shape == "deep" else flat_source)(args.elements)
    data = xml.encode()
    root = etree.fromstring(data)
    count = sum(1 for _ in root.iter())
    depth = max(len(list(node.iterancestors())) + 1 for node in root.iter())

    def graded() -> object:
        evidence = Evidence("bench", 0.0, foreground=Foreground(bundle_id="com.apple.Preferences"),
                            captures=(Capture("final", xml, 0.0),),
                            claim=Claim(status="done", answer="it is 105"))
        return grade(TASK, evidence)

    verdict = graded()
    wall, cpu = timed(args.runs, graded)
    floor_wall, _ = timed(args.runs, lambda: etree.fromstring(data))
    p90 = int(len(wall) * 0.9) - 1
    print(f"{count} elements, {depth} deep ({args.shape}), {len(TASK.checks)} checks: "
          f"median {statistics.median(wall):.1f} ms (p90 {wall[p90]:.1f}), CPU median "
          f"{statistics.median(cpu):.1f} ms (p90 {cpu[p90]:.1f}) over {args.runs} runs "
          f"(target <= 50 ms); {statistics.median(wall) / statistics.median(floor_wall):.1f}x "
          f"lxml's bare parse ({statistics.median(floor_wall):.1f} ms); verdict "
          f"{sum(r.passed for r in verdict.results)}/{len(verdict.results)} checks passed "
          "(2 fail on purpose: a miss scans everything)")


if __name__ == "__main__":
    main()
