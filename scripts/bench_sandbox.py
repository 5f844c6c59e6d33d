"""What the sandbox costs: starting a program in bubblewrap, and a command agent's turn.

    python scripts/bench_sandbox.py [--count 20]

Measures starting a program under bubblewrap against starting it plainly, and a minimal command
agent's attempts with `--sandbox bwrap` against `--sandbox none` (target: under 100 ms an
attempt).
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from phoneshell.agents import AgentContext, make_agent
from phoneshell.agents.sandbox import Sandbox
from phoneshell.agents.sandbox_choice import choose
from phoneshell.tasks import load_tasks


def spawn_ms(argv: list[str], count: int) -> float:
    samples = []
    for _ in range(count):
        started = time.perf_counter()
        subprocess.run(argv, check=True)
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def sandbox_cost(paths: list[str], count: int) -> None:
    """Starting a program in bubblewrap, and a minimal command agent's turn, with and without.

    The turns alternate, and medians are taken, so a busy machine weighs on both alike.
    """
    bwrap = choose("bwrap")
    with tempfile.TemporaryDirectory() as scratch:
        boxed = bwrap.wrap(["/bin/true"], "true", Path(scratch), Path.cwd())
        plain, inside = spawn_ms(["/bin/true"], count), spawn_ms(boxed, count)
    print(f"start /bin/true: {plain:.1f} ms plain, {inside:.1f} ms in bubblewrap "
          f"(+{inside - plain:.1f} ms, median of {count})")
    claim = '{"status": "gave_up", "summary": "measuring"}'
    agent = make_agent(f"command:echo {shlex.quote(claim)}")
    task = load_tasks(paths).tasks[0]
    turns: dict[str, list[float]] = {"none": [], "bwrap": []}
    with tempfile.TemporaryDirectory() as folder:
        for n in range(count):
            for sandbox in (Sandbox("none", "measuring"), bwrap):
                context = AgentContext(task, task.instruction, "http://127.0.0.1:9", 1, 30.0,
                                       Path(folder) / str(n) / sandbox.kind, sandbox)
                started = time.perf_counter()
                agent.run(context)
                turns[sandbox.kind].append((time.perf_counter() - started) * 1000)
    none, boxed_ms = statistics.median(turns["none"]), statistics.median(turns["bwrap"])
    print(f"a minimal command agent's turn: {none:.0f} ms unconfined, {boxed_ms:.0f} ms "
          f"sandboxed: the sandbox adds {boxed_ms - none:.0f} ms an attempt (target < 100 ms; "
          f"median of {count} each)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--paths", nargs="+", default=["environments"])
    parser.add_argument("--count", type=int, default=20, help="samples of each")
    args = parser.parse_args()
    sandbox_cost(args.paths, args.count)


if __name__ == "__main__":
    sys.exit(main())
