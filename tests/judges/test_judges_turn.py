"""A `command:` judge's program runs as a command agent's does (`agents/turn.py`): what it
leaves running outside its process group is stopped and said, one of its processes found outside
its process limit is named, forks past the limit are counted, and a folder written past its
limits just before it exits still stops it. Each was missing from the judge's own copy of the
agent's runner. Unconfined (`--sandbox none`), as the agent tests of the same bounds are: only
there can a program leave its cgroup."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from judges.judges_rig import Made

from phoneshell.agents import bounds, pidns, pids
from phoneshell.judges import JudgeOptions, make_judge
from phoneshell.judges.base import Reply, Shown

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")

ANSWER = "print(json.dumps({'success': True, 'reasoning': 'done'}))\n"
LEAVE = ("import json, os, sys, time\njson.load(sys.stdin)\n"
         "open(os.environ['ROOT_PROCS'], 'w').write(str(os.getpid()))\n"
         "time.sleep(0.6)\n" + ANSWER)
"""Moves itself into the hierarchy's root cgroup, past its limit, then answers."""
BOMB = ("import json, os, sys, time\njson.load(sys.stdin)\nborn = 0\nfor _ in range(400):\n"
        "    try:\n        pid = os.fork()\n    except OSError:\n        break\n"
        "    if pid == 0:\n        time.sleep(600)\n        os._exit(0)\n    born += 1\n"
        + ANSWER)
"""A fork bomb that stops at 400: each child sleeps, holding its pid."""
FILL = ("import json, os, sys\njson.load(sys.stdin)\n"
        "folder = os.path.dirname(os.environ['PHONESHELL_JUDGE_ITEM_DIR'])\n"
        "with open(os.path.join(folder, 'fill'), 'wb') as out:\n"
        "    out.write(os.urandom(16 << 20))\n" + ANSWER)
"""Writes 16 MiB into its scratch folder and answers at once, before a look while it runs."""
STRAY = ("import json, os, subprocess, sys\njson.load(sys.stdin)\n"
         "subprocess.Popen(['sh', '-c', 'sleep 1.5; touch \"$STRAY_ALIVE\"'], "
         "start_new_session=True)\n" + ANSWER)
"""Leaves a process in a session of its own, outside its process group, that would touch a file."""


def judge_one(made: Made, tmp_path: Path, body: str) -> Reply:
    """Judge the set's first item with the program `body`, unconfined."""
    program = tmp_path / "judge.py"
    program.write_text(body)
    options = JudgeOptions(sandbox="none", timeout_s=60)
    judge = make_judge(f"command:{sys.executable} {program}", options)
    judge.hide([made.judgeset.folder])
    item_id = made.judgeset.manifest.items[0]
    return judge.judge(Shown(made.judgeset.item(item_id), made.judgeset.item_dir(item_id),
                             options))


def test_a_judge_that_leaves_its_process_limit_is_named(
        made: Made, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parent = pids._parent()
    if parent is None or os.geteuid() != 0:
        pytest.skip("no pids cgroup here, or not root (then it cannot leave one)")
    monkeypatch.setenv("ROOT_PROCS", str(parent.parent / "cgroup.procs"))
    reply = judge_one(made, tmp_path, LEAVE)
    assert not reply.error and '"success": true' in reply.text, reply
    assert "it left its process limit (its cgroup): pid " in str(reply.raw.get("harness")), \
        reply.raw


def test_a_judge_that_forks_without_end_is_held_to_its_limit_and_said(
        made: Made, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not pids.available():
        pytest.skip("no pids cgroup can be made here (not root, or not Linux)")
    monkeypatch.setattr(pids, "PIDS_MAX", 40)
    reply = judge_one(made, tmp_path, BOMB)
    assert not reply.error, reply
    assert "it reached its limit of 40 processes and threads at once" in str(
        reply.raw.get("harness")), reply.raw


def test_a_judge_that_fills_its_folder_just_before_it_answers_is_stopped(
        made: Made, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounds, "FOLDER_MAX_BYTES", 8 << 20)
    reply = judge_one(made, tmp_path, FILL)
    assert reply.error.startswith("the command was stopped: it wrote more than 8 MiB into its "
                                  "folder; what it wrote into its folder was deleted"), reply


@pytest.mark.slow  # 2.6 s measured: the README's command stays quick
def test_what_a_judge_leaves_running_is_stopped_and_said(
        made: Made, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Unconfined, in its PID namespace the kernel kills the stray when the command line ends
    (where none can be made, the harness's sweep does); either way the reply says so."""
    alive = tmp_path / "alive"
    monkeypatch.setenv("STRAY_ALIVE", str(alive))
    reply = judge_one(made, tmp_path, STRAY)
    assert not reply.error, reply
    harness = str(reply.raw.get("harness"))
    if pidns.unavailable():
        assert "running after its turn, outside its process group; killed: pid " in harness
    else:
        assert "it left process(es) running in its PID namespace when its command line ended; " \
               "the kernel killed them with it" in harness, harness
    time.sleep(2.0)
    assert not alive.exists(), "the judge's stray outlived its item"
