"""Measure what the harness costs on a real phone, and what several simulated phones buy.

Costs (the default): runs the tasks on one simulated iPhone in this process, as slow as a real
one (`--latency iphone`), with the reference finishes. Every request is counted twice: where it
reaches the phone (the simulator's tally, under the attempt's phase) and where it reaches the
bridge (from the harness or the agent), so the bridge's own reads are the difference. It prints,
per attempt: requests and modelled seconds (the latency table's price of each request) by
phase (what a run does once, before its first attempt and after its last, spread over its
attempts), split into the agent's own and the harness's, with their total (the run's wall
time is the sum of its phases', measured from the run's start to its end); the agent's share
of the modelled time and of the wall time, each of that total (and, priced in, with a model's
thinking time before each action);
requests by phase and route; the reads that repeated the one before with nothing in between
that could have changed it; and the harness's and the agent's seconds an attempt by kind of
task (`kind_of`: plain, with probes, the rest).

Pairs (`--pairs N`): runs the suite N times on `sim:1` and on `sim:M` (`--phones M`, default
the `sim:auto` choice), alternately, so both see the same machine load, and prints the wall
time of each and each pair's ratio.

    python scripts/bench_run.py [--latency iphone|none] [--agent solution] [--task GLOB]
                                [--by-task N]  # also the N tasks whose harness costs most
    python scripts/bench_run.py --pairs 3 [--phones 2] [--latency none]

Docs quote its figures from one generated block of docs/device.md (`bench_docs`), never by hand:

    python scripts/bench_run.py --latency none --write-docs  # rewrite the block
    python scripts/bench_run.py --latency none --check-docs  # fail when it is stale (CI)
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from bench_docs import (  # beside this script
    Figures,
    committed,
    differences,
    grading_line,
    render,
    write,
)
from bench_phases import PHASES, CountingBridge, PhasedRig, Phases

from bridge.custody import Custody
from phoneshell.agents import make_agent
from phoneshell.audit import read_audit
from phoneshell.checks import needs_of
from phoneshell.device import Phone
from phoneshell.phones.resolve import resolve_devices
from phoneshell.records import ResultRow
from phoneshell.runner import AttemptPlan, RunOptions, run_attempt, run_suite, tidy
from phoneshell.runner.selection import select_tasks
from phoneshell.runner.workers import preflight
from phoneshell.sim import SimServer
from phoneshell.sim.latency import RouteCount
from phoneshell.tasks import Task, load_tasks

THINK_S = (1.0, 3.0)
"""Seconds a model's agent may take per action (a fast model; a usual one with a screenshot),
priced in on top of the agent's requests to show its share of a real run (not slept)."""


def measure_costs(tasks: list[Task], agent_spec: str, latency: str, effect_s: float,
                  repeat: int, by_task: int = 0) -> Figures:
    """Run every task `repeat` times on one simulator, print what it cost, and return the
    figures docs quote."""
    phases = Phases()
    rows: list[ResultRow] = []
    with tempfile.TemporaryDirectory() as runs, SimServer(latency=latency) as sim, \
            CountingBridge(sim.url, runs_dir=Path(runs), token=secrets.token_urlsafe(24),
                           control_token=secrets.token_urlsafe(24),
                           custody=Custody(screens_static=True)) as bridge:
        phases.sim, bridge.phases = sim, phases
        rig = PhasedRig(bridge, Phone(bridge.url, effect_timeout_s=effect_s), phases=phases)
        agent = make_agent(agent_spec)
        installed = frozenset(str(b) for b in sim.state()["installed"])  # type: ignore[union-attr]
        sim.latency.tally.take()
        tally: dict[str, dict[str, RouteCount]] = {}
        kinds: dict[str, KindCost] = {kind: KindCost() for kind in KINDS}
        each: dict[str, KindCost] = defaultdict(KindCost)
        phases.begin()  # what a run does once per phone before its first attempt
        preflight(rig, "bench")
        housekeeping, _ = tidy.start_phone(rig, "bench", tasks)
        _merge(tally, sim.latency.tally.take())
        with rig.phone.keeping_reads():  # as a run's worker keeps them between agents
            for n in range(1, repeat + 1):
                for task in tasks:
                    phases.new_attempt()
                    plan = AttemptPlan("bench", Path(runs) / "bench", task, n, installed,
                                       "sim-1")
                    received = Counter(phases.bridge["agent"])
                    rows.append(run_attempt(plan, rig, agent, housekeeping.owner).row)
                    phases.run_own("run end")  # what the run does between attempts
                    # what this attempt cost (its teardown's put-off read is the next's)
                    counts = sim.latency.tally.take()
                    kinds[kind_of(task)].add(counts, phases.bridge["agent"] - received)
                    each[task.id].add(counts, phases.bridge["agent"] - received)
                    _merge(tally, counts)
                    housekeeping.attempt_done()
            phases.run_own("run end")  # and once after its last
            housekeeping.finish()
        wall_s = phases.end()
        _merge(tally, sim.latency.tally.take())
        # Logged actions by phase (the rig check logs under `check`: it is counted there).
        log = read_audit(Path(runs) / "bench" / "audit.jsonl").records
        actions = Counter(e.phase for e in log if e.stage == "intent")
    figures = Figures()
    report_costs(rows, tally, phases, wall_s, latency, actions, figures)
    report_kinds(kinds, figures)
    if by_task:
        report_tasks(each, by_task)
    return figures


KINDS = ("plain", "probes", "the rest")
"""Kinds of task by what the harness must do for them (`kind_of`)."""


def kind_of(task: Task) -> str:
    """`probes`: a count or a device value to read; `plain`: setup and teardown only stop apps
    and go home, and nothing is scrolled at capture; `the rest`: everything else (a page to
    load, a deep screen to open, a scroll capture, several apps)."""
    needs = {need.what for need in needs_of(task.checks)}
    if needs & {"probe", "read"}:
        return "probes"
    simple = all(step.kind in ("terminate", "home") for step in (*task.setup, *task.teardown))
    apps = {step.arg for step in (*task.setup, *task.teardown) if step.kind == "terminate"}
    return "plain" if simple and not needs and len(apps) <= 1 else "the rest"


def _merge(into: dict[str, dict[str, RouteCount]],
           counts: dict[str, dict[str, RouteCount]]) -> None:
    for phase, routes in counts.items():
        for route, count in routes.items():
            kept = into.setdefault(phase, {}).setdefault(route, RouteCount())
            kept.count += count.count
            kept.seconds += count.seconds
            kept.repeats += count.repeats


def _bridge_own_s(counts: dict[str, RouteCount], received: Counter[str]) -> float:
    """The modelled seconds of the requests the phone got beyond those the bridge received:
    the bridge's own reads."""
    return sum(c.seconds * (c.count - received.get(r, 0)) / c.count
               for r, c in counts.items() if c.count > received.get(r, 0))


@dataclass
class KindCost:
    """What the attempts of one kind of task cost, modelled."""

    attempts: int = 0
    agent_s: float = 0.0
    harness_s: float = 0.0

    def add(self, counts: dict[str, dict[str, RouteCount]], received: Counter[str]) -> None:
        """Add one attempt's requests (`received`: the agent phase's, as the bridge got them)."""
        agent = counts.get("agent", {})
        bridge_s = _bridge_own_s(agent, received)
        everything = sum(c.seconds for routes in counts.values() for c in routes.values())
        own = sum(c.seconds for c in agent.values()) - bridge_s
        self.attempts += 1
        self.agent_s += own
        self.harness_s += everything - own


def report_kinds(kinds: dict[str, KindCost], figures: Figures) -> None:
    """Print the harness's and the agent's modelled seconds an attempt, by kind of task (and
    keep them in `figures`)."""
    print("\nby kind of task (kind_of), modelled s an attempt")
    print(f"  {'kind':<10}{'attempts':>9}{'harness s':>11}{'agent s':>9}{'agent share':>13}")
    for kind, cost in kinds.items():
        if cost.attempts:
            n, total = cost.attempts, cost.agent_s + cost.harness_s
            share = cost.agent_s / total if total else 0
            print(f"  {kind:<10}{n:>9}{cost.harness_s / n:>11.2f}{cost.agent_s / n:>9.2f}"
                  f"{share:>13.0%}")
            figures.kinds.append((kind, n, cost.harness_s / n, cost.agent_s / n, share))


def report_tasks(each: dict[str, KindCost], most: int) -> None:
    """Print the `most` tasks whose harness costs the most, modelled s an attempt."""
    print(f"\nthe {most} tasks whose harness costs most, modelled s an attempt")
    print(f"  {'task':<36}{'harness s':>10}{'agent s':>9}{'agent share':>13}")
    ranked = sorted(each.items(), key=lambda item: -item[1].harness_s / item[1].attempts)
    for task_id, cost in ranked[:most]:
        n, total = cost.attempts, cost.agent_s + cost.harness_s
        print(f"  {task_id:<36}{cost.harness_s / n:>10.2f}{cost.agent_s / n:>9.2f}"
              f"{cost.agent_s / total if total else 0:>13.0%}")


def _totals(counts: dict[str, RouteCount]) -> tuple[int, float, int]:
    return (sum(c.count for c in counts.values()), sum(c.seconds for c in counts.values()),
            sum(c.repeats for c in counts.values()))


def report_costs(rows: list[ResultRow], tally: dict[str, dict[str, RouteCount]],
                 phases: Phases, wall_s: float, latency: str, actions: Counter[str],
                 figures: Figures) -> None:
    """Print the per-attempt figures (see the module docstring), keeping in `figures` those
    docs quote."""
    n = max(1, len(rows))
    outcomes = Counter(r.outcome for r in rows)
    figures.attempts, figures.passed = len(rows), outcomes["passed"]
    print(f"{len(rows)} attempts ({outcomes['passed']} passed, {outcomes['failed']} failed, "
          f"{outcomes['skipped']} skipped); latency {latency}; wall {wall_s:.1f} s "
          f"({wall_s / n:.2f} s an attempt)")
    print(f"\n{'phase':<11}{'requests':>10}{'bridge':>8}{'modelled s':>12}{'bridge s':>10}"
          f"{'wall s':>9}{'repeats':>9}   (per attempt)")
    agent_s = harness_s = 0.0
    agent_n = harness_n = 0
    sums = [0.0] * 6
    for phase in PHASES:
        counts = tally.get(phase, {})
        total, seconds, repeats = _totals(counts)
        received = phases.bridge.get(phase, Counter())
        own = sum(received.values())
        bridge_n = total - own
        bridge_s = _bridge_own_s(counts, received)
        cells = (total, bridge_n, seconds, bridge_s, phases.wall_s[phase], repeats)
        sums = [a + b for a, b in zip(sums, cells, strict=True)]
        print(_phase_row(phase, cells, n))
        if total:
            figures.phases.append((phase, total / n, bridge_n / n, seconds / n))
        if phase == "agent":
            agent_n, agent_s = own, seconds - bridge_s
            harness_n, harness_s = harness_n + bridge_n, harness_s + bridge_s
        else:
            harness_n, harness_s = harness_n + total, harness_s + seconds
    print(_phase_row("total", sums, n))
    print(f"\nagent's own requests: {agent_n / n:.1f} an attempt, {agent_s / n:.2f} s modelled")
    print(f"harness requests:     {harness_n / n:.1f} an attempt, {harness_s / n:.2f} s modelled"
          f" (the bridge's reads in the agent phase included)")
    total_s = agent_s + harness_s
    figures.agent_n, figures.agent_s = agent_n / n, agent_s / n
    figures.harness_n, figures.harness_s = harness_n / n, harness_s / n
    figures.actions = actions["agent"] / n
    # Both shares are of every phase, the run's own included, as the rows above add up.
    print(f"agent's share of the modelled time: {agent_s / total_s:.0%}" if total_s else "")
    steps = actions["agent"]
    for think_s in THINK_S:
        # a model's agent thinks before each action; the reference finishes never do
        thinking = agent_s + think_s * steps
        figures.thinking.append((think_s, thinking / (thinking + harness_s)))
        print(f"  with a model's {think_s:.0f} s of thought before each of its "
              f"{steps / n:.1f} actions an attempt: {thinking / (thinking + harness_s):.0%}")
    print(grading_line(figures).removeprefix("- "))
    if latency != "none":
        agent_wall = phases.wall_s["agent"] - _bridge_own_s(tally.get("agent", {}),
                                                             phases.bridge["agent"])
        print(f"agent's share of the wall time:     {agent_wall / wall_s:.0%} (the agent "
              "phase's wall time less the bridge's modelled reads, of the total's)")
    added = {p: _totals(tally.get(p, {}))[0] - sum(phases.bridge.get(p, Counter()).values())
             for p in PHASES}
    for label, which in (("agent", ("agent",)), ("all phases", PHASES)):
        logged = sum(actions[p] for p in which)
        extra = sum(added[p] for p in which)
        if logged:
            figures.round_trips[label] = extra / logged
            print(f"bridge round trips per logged action, {label}: {extra / logged:.2f} "
                  f"({extra} over {logged} actions)")
    _routes(tally, phases, n)
    failed = [r for r in rows if not r.passed]
    for row in failed[:10]:
        print(f"  {row.outcome}: {row.task_id}/{row.attempt}: "
              f"{row.skip_reason or '; '.join(c.detail for c in row.checks if not c.passed)}")


def _phase_row(label: str, row: Iterable[float], n: int) -> str:
    """One line of the phase table, per attempt: requests, the bridge's, modelled s, the
    bridge's, wall s, repeats."""
    total, bridge_n, seconds, bridge_s, wall_s, repeats = (x / n for x in row)
    return (f"{label:<11}{total:>10.1f}{bridge_n:>8.1f}{seconds:>12.2f}{bridge_s:>10.2f}"
            f"{wall_s:>9.2f}{repeats:>9.1f}")


def _routes(tally: dict[str, dict[str, RouteCount]], phases: Phases, n: int) -> None:
    print("\nrequests per attempt by phase and route (bridge: of them, the bridge's own)")
    for phase in PHASES:
        counts = tally.get(phase, {})
        if not counts:
            continue
        print(f"  {phase}")
        received = phases.bridge.get(phase, Counter())
        for route, c in sorted(counts.items(), key=lambda kv: -kv[1].seconds):
            own = c.count - received.get(route, 0)
            extra = f"  bridge {own / n:.2f}" if own else ""
            print(f"    {c.count / n:7.2f}  {c.seconds / n:6.2f} s  {route}{extra}"
                  + (f"  repeats {c.repeats / n:.2f}" if c.repeats else ""))


def measure_pairs(paths: Iterable[str], globs: tuple[str, ...], pairs: int, phones: int,
                  latency: str) -> None:
    """Wall time of the suite on sim:1 and sim:`phones`, alternately, `pairs` times."""
    ratios = []
    with tempfile.TemporaryDirectory() as runs:
        for i in range(pairs):
            times = {}
            for count in (1, phones) if i % 2 == 0 else (phones, 1):
                started = time.perf_counter()
                summary = run_suite(RunOptions(tuple(paths), device=f"sim:{count}",
                                               latency=latency, task_globs=globs,
                                               runs_dir=Path(runs)), progress=lambda _: None)
                times[count] = time.perf_counter() - started
                c = summary.numbers
                print(f"pair {i + 1}: sim:{count} {times[count]:6.1f} s "
                      + (f"({c.passed} passed, {c.failed} failed, {c.skipped} skipped)"
                         if c else ""), flush=True)
            ratios.append(times[1] / times[phones])
            print(f"pair {i + 1}: sim:1 / sim:{phones} = {ratios[-1]:.2f}", flush=True)
    print(f"speed-up of sim:{phones} over sim:1: median {statistics.median(ratios):.2f} "
          f"(pairs: {', '.join(f'{r:.2f}' for r in ratios)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--paths", nargs="+", default=["environments"])
    parser.add_argument("--task", dest="tasks", action="append", default=[], metavar="GLOB")
    parser.add_argument("--agent", default="solution")
    parser.add_argument("--latency", choices=("iphone", "none"), default="iphone")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--effect-s", type=float, default=5.0,
                        help="how long a step's effect may take (a real phone's: 5 s)")
    parser.add_argument("--pairs", type=int, default=0,
                        help="instead: this many interleaved pairs of sim:1 and sim:M runs")
    parser.add_argument("--phones", type=int, default=0, help="M for --pairs (default: auto)")
    parser.add_argument("--by-task", type=int, default=0, metavar="N",
                        help="also list the N tasks whose harness costs the most")
    docs = parser.add_mutually_exclusive_group()
    docs.add_argument("--write-docs", action="store_true",
                      help="write the figures into docs/device.md's generated block")
    docs.add_argument("--check-docs", action="store_true",
                      help="exit 1 when docs/device.md's generated block is stale")
    args = parser.parse_args()
    quoted = args.write_docs or args.check_docs
    if quoted and (args.latency != "none" or args.pairs or args.tasks or args.repeat != 1
                   or args.agent != "solution" or args.paths != ["environments"]):
        parser.error("the docs quote the suite's reference finishes with --latency none, once "
                     "each: --write-docs and --check-docs take no other choice")
    if args.pairs:
        phones = args.phones or len(resolve_devices("sim:auto"))
        measure_pairs(args.paths, tuple(args.tasks), args.pairs, phones, args.latency)
        return
    tasks = select_tasks(load_tasks(args.paths).tasks, args.tasks)
    figures = measure_costs(tasks, args.agent, args.latency, args.effect_s, args.repeat,
                            args.by_task)
    block = render(figures)
    if args.write_docs:
        write(block)
        print("\nwrote docs/device.md's generated block")
    elif args.check_docs:
        if figures.passed != figures.attempts:  # a reference finish stopped passing
            raise SystemExit(f"{figures.attempts - figures.passed} of {figures.attempts} "
                             "reference finishes did not pass: the figures measure a broken "
                             "suite (see the rows above)")
        stale = differences(committed(), block)
        if stale:
            raise SystemExit("docs/device.md's generated block is stale (run scripts/bench_run.py"
                             " --latency none --write-docs):\n  " + "\n  ".join(stale))
        print("\ndocs/device.md's generated block holds what bench_run prints")


if __name__ == "__main__":
    main()
