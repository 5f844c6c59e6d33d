"""Time the implication test on synthetic suites: the indexed search against the all-pairs loop.

Prints, for 2,000 tasks, both timings, their ratio and whether the pairs are identical; for
10,000 tasks, the indexed search alone (the all-pairs loop would take minutes). Target: 10,000
tasks in <= 5 s on 2 cores.

    python scripts/bench_implications.py [--sizes 2000 10000] [--seed 7]
"""

from __future__ import annotations

import argparse
import random
import time

from phoneshell.checks import Check
from phoneshell.implication import implied_pairs, implied_pairs_naive
from phoneshell.tasks import Task

APPS = [f"com.apple.app{i:02d}" for i in range(16)]
WORDS = [
    "wi-fi", "bluetooth", "general", "about", "model", "number", "storage", "iphone", "battery",
    "health", "display", "brightness", "text", "size", "larger", "keyboard", "fonts", "date",
    "time", "software", "update", "search", "cancel", "alarm", "timer", "stopwatch", "world",
    "clock", "notes", "reminders", "calendar", "today", "month", "maps", "eiffel", "tower",
    "books", "moby", "dick", "safari", "example", "domain", "tab", "private", "share", "copy",
    "link",
]


def synthetic_suite(size: int, seed: int) -> list[Task]:
    """Tasks shaped like the public suite: mostly a foreground check plus one or two others."""
    rng = random.Random(seed)
    tasks = []
    for n in range(size):
        app = rng.choice(APPS)
        checks = [Check.make("foreground_app", app)] if rng.random() < 0.95 else []
        for _ in range(rng.choice((1, 1, 1, 2))):
            kind = rng.choice(("element_exists", "element_exists", "element_exists_anywhere",
                               "regex_on_screen", "answer_contains"))
            text = " ".join(rng.sample(WORDS, rng.choice((1, 1, 2, 3))))
            if rng.random() < 0.5:
                text += f" {rng.randrange(1000)}"
            checks.append(Check.make(kind, text, negate=kind != "answer_contains"
                                and rng.random() < 0.05))
        tasks.append(Task(f"t{n}", "T", "do it", app=app, checks=tuple(checks)))
    return tasks


def timed(fn, tasks):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    pairs = fn(tasks)
    return time.perf_counter() - started, [(p.implied.id, p.by.id) for p in pairs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000, 10000])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--naive-up-to", type=int, default=2000,
                        help="also run the all-pairs loop for suites up to this size")
    args = parser.parse_args()
    for size in args.sizes:
        tasks = synthetic_suite(size, args.seed)
        fast_s, fast = timed(implied_pairs, tasks)
        line = f"{size:6d} tasks: indexed {fast_s:7.3f} s, {len(fast)} pairs"
        if size <= args.naive_up_to:
            naive_s, naive = timed(implied_pairs_naive, tasks)
            line += (f"; all-pairs {naive_s:7.3f} s; ratio {naive_s / fast_s:6.1f}x; "
                     f"identical pairs: {fast == naive}")
        print(line, flush=True)


if __name__ == "__main__":
    main()
