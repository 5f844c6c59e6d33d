"""What `--trajectory` costs per agent action, and what a judge is then sent per item.

Plays the reference finishes of some tasks on one simulated iPhone, with trajectory capture off
and then on (the same tasks, the same phone), and prints: agent actions and agent turns, the
frames kept and the requests they added (one `GET /screenshot` each), the wall time of both
runs and the time added per action; then one frame's own cost after a screen change (the
screenshot request, scaling it to 600 px) and its size on disk. Last, it builds a judgeset
from the run with frames and prints what the baseline judge would be sent per item (images and
request bytes at `--frames` and `--long-edge`).

`--latency NAME` starts the simulator with that latency model (`iphone`, where the simulator
has one), so the cost is a real phone's rather than the simulator's.

    python scripts/bench_judge.py [--task GLOB]... [--latency iphone] [--frames 48]
"""

from __future__ import annotations

import argparse
import base64
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import wda

from phoneshell.audit import read_audit
from phoneshell.frames import scale_png
from phoneshell.judges import JudgeOptions, Shown, Sources, build_judgeset, open_judgeset
from phoneshell.judges.baseline import SYSTEM_PROMPT, user_content
from phoneshell.records import TrajectoryFrame, read_lines
from phoneshell.runner import RunOptions, run_suite
from phoneshell.sim import SimServer

TASKS = ("calculator.*", "notes.*", "settings.about.*", "multi.*", "safari.*")


def play(sim: SimServer, runs: Path, run_id: str, globs: tuple[str, ...],
         trajectory: bool) -> float:
    """Run the solution on the tasks; return the wall time."""
    started = time.perf_counter()
    summary = run_suite(RunOptions(("environments",), device=sim.url, task_globs=globs,
                                   runs_dir=runs, run_id=run_id, trajectory=trajectory),
                        progress=lambda line: None)
    if not summary.all_passed:
        raise SystemExit(f"{run_id}: not every reference finish passed")
    return time.perf_counter() - started


def frame_cost(sim: SimServer, count: int = 20) -> tuple[float, float, int]:
    """Median ms of a screenshot right after a screen change, and of scaling it; PNG bytes."""
    client = wda.Client(sim.url)
    fetch, scale, size = [], [], 0
    for n in range(count):
        client.app_start("com.apple.calculator") if n % 2 else client.home()
        started = time.perf_counter()
        value = client.http.get("screenshot").value
        fetched = time.perf_counter()
        scaled = scale_png(base64.b64decode(value))
        fetch.append((fetched - started) * 1000)
        scale.append((time.perf_counter() - fetched) * 1000)
        size = len(scaled.png)
    return statistics.median(fetch), statistics.median(scale), size


def judge_requests(folder: Path, options: JudgeOptions) -> tuple[int, float, float]:
    """Items, and the mean images and bytes of the baseline judge's request per item."""
    judgeset = open_judgeset(folder)
    shown, sizes = [], []
    for item_id in judgeset.manifest.items:
        parts, count = user_content(Shown(judgeset.item(item_id), judgeset.item_dir(item_id),
                                          options))
        body: dict[str, Any] = {"model": "m", "messages": [
            {"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": parts}]}
        shown.append(count)
        sizes.append(len(json.dumps(body)))
    return len(sizes), statistics.mean(shown), statistics.mean(sizes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--task", dest="tasks", action="append", metavar="GLOB",
                        help=f"task ids to play (default: {' '.join(TASKS)})")
    parser.add_argument("--latency", metavar="NAME", help="the simulator's latency model")
    parser.add_argument("--frames", type=int, default=48)
    parser.add_argument("--long-edge", type=int, default=600)
    args = parser.parse_args()
    globs = tuple(args.tasks or TASKS)
    options: dict[str, Any] = {"latency": args.latency} if args.latency else {}
    with tempfile.TemporaryDirectory() as tmp, SimServer(**options) as sim:
        runs = Path(tmp)
        off = play(sim, runs, "OFF", globs, trajectory=False)
        on = play(sim, runs, "ON", globs, trajectory=True)
        events = read_audit(runs / "ON" / "audit.jsonl").records
        actions = len({e.seq for e in events if e.phase == "agent"})
        turns = len({(e.task_id, e.attempt) for e in events if e.task_id})
        frames = list(read_lines(runs / "ON" / "trajectory.jsonl", TrajectoryFrame))
        kept = sum(1 for f in frames if f.file)
        disk = sum((runs / "ON" / f.file).stat().st_size for f in frames if f.file)
        fetch_ms, scale_ms, png = frame_cost(sim)
        build = time.perf_counter()
        build_judgeset(runs / "set", Sources(runs=(runs / "ON",)))
        built_s = time.perf_counter() - build
        items, images, request = judge_requests(
            runs / "set", JudgeOptions(args.frames, args.long_edge))
    model = args.latency or "none (the simulator's own speed)"
    print(f"latency model: {model}; tasks: {' '.join(globs)}")
    print(f"agent turns {turns}, agent actions {actions}; frames kept {kept} of {len(frames)} "
          f"(one per action and one per turn): {len(frames)} GET /screenshot added")
    print(f"wall time: off {off:.1f} s, on {on:.1f} s; added {on - off:.1f} s, "
          f"{1000 * (on - off) / max(1, len(frames)):.0f} ms per frame")
    print(f"one frame after a screen change: GET /screenshot {fetch_ms:.0f} ms median, scaling "
          f"to 600 px {scale_ms:.0f} ms; {png / 1024:.0f} KiB (on disk: "
          f"{disk / max(1, kept) / 1024:.0f} KiB per frame)")
    print(f"judgeset of {items} item(s) built in {built_s:.1f} s; the baseline judge's request "
          f"at --frames {args.frames} --long-edge {args.long_edge}: {images:.1f} image(s), "
          f"{request / 1024:.0f} KiB per item on average")


if __name__ == "__main__":
    main()
