"""Time the suite on simulated iPhones, count what it asks of the phone, and what the sandbox costs.

    python scripts/bench_run.py [--paths environments] [--phones 1 4]
    python scripts/bench_run.py --requests       # requests per logged action, rig checks
    python scripts/bench_run.py --sandbox-cost   # what bubblewrap adds to starting an agent

The default times the whole suite with the reference finishes on one simulated iPhone and on
four, and prints both wall times, the ratio, and the outcome counts (every attempt should pass).

`--requests` plays the suite attempt by attempt on one simulated iPhone through a bridge and
counts, from the simulator's own request counts: what the bridge itself reads per logged action
(target: at most one on average), everything the phone is asked per logged action, and, with the
null agent (every attempt fails), what the rig check after a failure costs.

`--sandbox-cost` measures starting a program under bubblewrap against starting it plainly, and a
minimal command agent's attempts with `--sandbox bwrap` against `--sandbox none` (target: under
100 ms an attempt).
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from phoneshell.agents import AgentContext, make_agent
from phoneshell.agents.sandbox import Sandbox, choose
from phoneshell.audit import actions, read_audit
from phoneshell.runner import AttemptPlan, RunOptions, open_rig, run_attempt, run_suite
from phoneshell.sim import SimServer
from phoneshell.tasks import load_tasks


def wall_times(paths: list[str], phones: list[int]) -> None:
    timings: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as runs:
        for count in phones:
            started = time.perf_counter()
            summary = run_suite(RunOptions(tuple(paths), device=f"sim:{count}",
                                           runs_dir=Path(runs)), progress=lambda line: None)
            timings[count] = time.perf_counter() - started
            counts = summary.counts()
            print(f"sim:{count}: {timings[count]:6.1f} s for {len(summary.rows)} attempts "
                  f"({counts['passed']} passed, {counts['failed']} failed, "
                  f"{counts['skipped']} skipped)", flush=True)
    first, *rest = phones
    for count in rest:
        print(f"sim:{first} / sim:{count} wall time ratio: {timings[first] / timings[count]:.2f}")


def requests(paths: list[str], agent_spec: str) -> None:
    """Play every task once and count what the phone was asked."""
    tasks = load_tasks(paths).tasks
    outcomes: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as runs, SimServer() as sim, \
            open_rig(sim.url, Path(runs), "sim", private=True) as rig:
        agent = make_agent(agent_spec)
        before = sim.request_counts()
        for n, task in enumerate(tasks, start=1):
            plan = AttemptPlan("B", Path(runs) / "B", task, n)
            outcomes[run_attempt(plan, rig, agent).row.outcome] += 1
        after = sim.request_counts()
        log = read_audit(Path(runs) / "B" / "audit.jsonl").records
    grew = Counter({k: after[k] - before.get(k, 0) for k in after})
    logged = len(actions(log))
    own = rig.bridge.recorder.own_reads
    agent_logged = sum(1 for a in actions(log) if a.phase == "agent")
    failed = outcomes["failed"]
    # Each attempt reads the lock once before setup; the check after a failure reads it again
    # (and probes input only when the attempt's log cannot vouch for it).
    rechecks = grew["GET /wda/locked"] - len(tasks)
    print(f"{agent_spec}: {len(tasks)} attempts ({dict(outcomes)}), {logged} logged actions "
          f"({agent_logged} the agent's)")
    print(f"  the bridge's own reads: {own} = {own / logged:.2f} per logged action")
    print(f"  the phone was asked {grew['total']} requests = "
          f"{grew['total'] / logged:.2f} per logged action, of which:")
    for route, count in grew.most_common(8):
        if route != "total":
            print(f"    {count:6}  {route}")
    print(f"  {failed} failed attempt(s) re-read the lock {rechecks} time(s) to check the rig; "
          f"{grew['total'] / len(tasks):.1f} requests an attempt in all")


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
    parser.add_argument("--phones", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--requests", action="store_true",
                        help="count requests per logged action (solution, then null agent)")
    parser.add_argument("--sandbox-cost", action="store_true",
                        help="what bubblewrap adds to starting an agent")
    parser.add_argument("--count", type=int, default=20, help="samples for --sandbox-cost")
    args = parser.parse_args()
    if args.requests:
        requests(args.paths, "solution")
        requests(args.paths, "null")
    elif args.sandbox_cost:
        sandbox_cost(args.paths, args.count)
    else:
        wall_times(args.paths, args.phones)


if __name__ == "__main__":
    sys.exit(main())
