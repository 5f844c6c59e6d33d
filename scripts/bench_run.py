"""Time the whole suite with the reference finishes on one simulated iPhone and on four.

Prints both wall times, the ratio, and the outcome counts (every attempt should pass).

    python scripts/bench_run.py [--paths environments] [--phones 1 4]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from phoneshell.runner import RunOptions, run_suite


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--paths", nargs="+", default=["environments"])
    parser.add_argument("--phones", type=int, nargs="+", default=[1, 4])
    args = parser.parse_args()
    timings: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as runs:
        for phones in args.phones:
            started = time.perf_counter()
            summary = run_suite(RunOptions(tuple(args.paths), device=f"sim:{phones}",
                                           runs_dir=Path(runs)), progress=lambda line: None)
            timings[phones] = time.perf_counter() - started
            counts = summary.counts()
            print(f"sim:{phones}: {timings[phones]:6.1f} s for {len(summary.rows)} attempts "
                  f"({counts['passed']} passed, {counts['failed']} failed, "
                  f"{counts['skipped']} skipped)", flush=True)
    first, *rest = args.phones
    for phones in rest:
        print(f"sim:{first} / sim:{phones} wall time ratio: {timings[first] / timings[phones]:.2f}")


if __name__ == "__main__":
    main()
