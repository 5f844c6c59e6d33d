"""Time `phoneshell attack` over the suite on one simulated iPhone, and count its replays.

Prints the wall time, the finishes made per family, the distinct finishes played, the replays
they took (a second play for probes included) and the (finish, task) gradings they served,
against what replaying once per grading would need: one replay per finish made, and for the
swap family every finish played again for every other task (finishes x tasks).

    python scripts/bench_attack.py [--paths environments] [--family F ...] [--device sim]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from phoneshell.attack import attacks, run_attack
from phoneshell.records import ATTACK_FAMILIES, AttackFamily
from phoneshell.tasks import load_tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--paths", nargs="+", default=["environments"])
    parser.add_argument("--family", action="append", choices=ATTACK_FAMILIES)
    parser.add_argument("--device", default="sim")
    args = parser.parse_args()
    families: tuple[AttackFamily, ...] = tuple(args.family or ATTACK_FAMILIES)
    tasks = load_tasks(args.paths).tasks
    made = attacks(tasks, families)
    with tempfile.TemporaryDirectory() as runs:
        started = time.perf_counter()
        outcome = run_attack(args.paths, args.device, Path(runs), families)
        seconds = time.perf_counter() - started
    report = outcome.report
    print(f"{len(tasks)} tasks, families {', '.join(families)}, device {args.device}")
    print(f"{'family':<12} {'finishes':>9} {'broken':>7}")
    for family in families:
        count = (sum(a.family == family for a in made) if family != "swap"
                 else sum(1 for t in tasks if t.solution))
        broken = sum(r.breaks for r in report.attacks if r.family == family)
        print(f"{family:<12} {count:>9} {broken:>7}")
    finishers = sum(1 for t in tasks if t.solution) if "swap" in families else 0
    gradings = len(made) + finishers * (len(tasks) - 1)
    print(f"wall time {seconds:.1f} s; {report.finishes} distinct finishes played in "
          f"{report.replays} replays ({seconds / max(report.replays, 1):.2f} s each) for "
          f"{gradings} gradings, where one replay per grading would be {gradings} "
          f"({len(made)} made + {finishers} swap finishes x {len(tasks) - 1} other tasks)")
    if outcome.stopped:
        print(f"stopped early: {outcome.stopped}")


if __name__ == "__main__":
    main()
