"""A command agent's claim on stdout is its last valid claim line, wherever it falls in the
output: followed as the pipe is read (`environment.ClaimLines`), never in the kept copy, which
leaves out all but the first and last 4 MiB (red team 74: a `gave_up` printed between two 20 MB
runs of noise was recorded as the `done` printed before them)."""

from __future__ import annotations

import json
import random
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from phoneshell.agents import capped_output, make_agent
from phoneshell.agents.environment import MAX_CLAIM_BYTES, ClaimLines, parse_claim_line
from phoneshell.evidence import Claim
from phoneshell.runner import AttemptPlan, Rig, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

PYTHON = shlex.quote(sys.executable)
NOISE = ("import json, sys\n"
         "out = sys.stdout\n"
         "def noise():\n"
         "    for n in range(20_000):\n"
         "        out.write(f'{{\"step\": {n}, \"log\": \"' + 'x' * 980 + '\"}\\n')\n"
         "print(json.dumps({'status': 'done', 'answer': 'early'}))\n"
         "noise()\n"
         "print(json.dumps({'status': 'gave_up', 'answer': 'final'}))\n"
         "noise()\n")
"""A program that claims `done`, prints 20 MB of log lines (JSON, but no claims), claims
`gave_up`, and prints 20 MB more: its last claim sits in the middle the kept copy leaves out."""


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    with SimServer() as sim, open_rig(sim.url, tmp_path, effect_timeout_s=0.5) as rig:
        yield rig


def test_the_last_claim_is_kept_when_the_middle_of_stdout_is_left_out(
        rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    script = tmp_path / "noisy.py"
    script.write_text(NOISE)
    row = run_attempt(AttemptPlan("R", tmp_path / "R", suite["settings.about.reach"], 1), rig,
                      make_agent(f"command:{PYTHON} {shlex.quote(str(script))}")).row
    kept = (tmp_path / "R" / "attempts" / "settings.about.reach" / "1" / "agent.stdout")
    assert b"bytes left out here" in kept.read_bytes()  # the claim was in what was cut
    assert b'"final"' not in kept.read_bytes()
    assert row.claim is not None
    assert (row.claim.status, row.claim.answer) == ("gave_up", "final"), row.claim


def last_line_claim(out: bytes) -> Claim | None:
    """The rule, read plainly off the whole output: the last line (of at most
    `MAX_CLAIM_BYTES`) that is a claim."""
    found = None
    for line in out.split(b"\n"):
        if len(line) <= MAX_CLAIM_BYTES:
            found = parse_claim_line(line.decode("utf-8", "replace")) or found
    return found


def test_claim_lines_find_the_last_claim_however_the_output_is_cut_into_reads() -> None:
    draw = random.Random(74)
    claims = [json.dumps({"status": s, "answer": str(n)}).encode()
              for n, s in enumerate(("done", "gave_up", "failed") * 3)]
    pieces = [*claims, b"{", b"}", b"{not json}", b'{"status": "maybe"}', b"  {}  ", b"",
              b"x" * 300, b"{" + b"y" * (MAX_CLAIM_BYTES - 1) + b"}",
              b"\xff\xfe{", b'{"status": "done"} trailing']
    for _ in range(60):
        lines = [draw.choice(pieces) for _ in range(draw.randint(0, 12))]
        out = b"\n".join(lines) + draw.choice((b"", b"\n"))
        said = read_in_pieces(out, draw, (1, 3, 17, capped_output.READ_CHUNK))
        assert said.end() == last_line_claim(out), out[:200]


def read_in_pieces(out: bytes, draw: random.Random, sizes: tuple[int, ...]) -> ClaimLines:
    """`out` fed to `ClaimLines` in reads of any of `sizes`, as a pipe gives them."""
    said = ClaimLines()
    at = 0
    while at < len(out):
        size = draw.choice(sizes)
        said.feed(out[at:at + size])
        at += size
    return said
