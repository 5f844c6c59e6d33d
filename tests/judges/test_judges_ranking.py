"""Ranking fidelity is over each run's scored attempts, never over the judgeset's de-duplicated
items: `phoneshell run`, `report`, `judgeset` and `judge` as a user runs them (red team 53).

The agent passes `weather.open` the same way every time (three attempts, one item) and fails
`measure.open` by opening another app each attempt (three attempts, three items): its report says
3/6 = 50%, its items 1/4. A second run of it adds no item at all (each of its trajectories is one
of the first run's). A judge that always answers success must still see both runs ranked, each
at the rate its report prints.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli

pytestmark = pytest.mark.slow  # whole programs for seconds: CI runs them, the README's stays quick

AGENT = """\
n=$(echo "$PHONESHELL_ATTEMPT_DIR" | grep -o -- '/[0-9]*/agent' | tr -dc 0-9)
case "$PHONESHELL_TASK_ID" in
 weather.open) app=com.apple.weather;;
 measure.open) app=$(echo com.apple.calculator com.apple.Preferences com.apple.mobilenotes \\
                     | cut -d' ' -f"$n");;
esac
python3 -c "
import json, os, sys, urllib.request
url = os.environ['PHONESHELL_WDA_URL'].rstrip('/') + '/session'
body = {'capabilities': {'alwaysMatch': {'bundleId': sys.argv[1]}}}
urllib.request.urlopen(urllib.request.Request(url, data=json.dumps(body).encode(),
                       headers={'Content-Type': 'application/json'})).read()" "$app"
"""
YES = 'import json, sys\nsys.stdin.read()\nprint(json.dumps({"success": True}))\n'
RUNS = ("H", "H2")


@dataclass(frozen=True)
class Played:
    folder: Path
    runs: Path
    judge: str


def phoneshell(*args: str) -> str:
    done = run_cli(*args)
    assert done.returncode in (0, 1), (args, done.stdout, done.stderr)
    return done.stdout


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """Two runs of the agent, three attempts of each task each."""
    folder = tmp_path_factory.mktemp("ranking")
    tasks = folder / "tasks"
    tasks.mkdir()
    for task_id in ("weather.open", "measure.open"):
        shutil.copy(ROOT / "environments" / f"{task_id}.yaml", tasks)
    (folder / "agent.sh").write_text(AGENT)
    (folder / "yes.py").write_text(YES)
    for run_id in RUNS:
        phoneshell("run", str(tasks), "--agent", f"command:sh {folder / 'agent.sh'}",
                   "--repeat", "3", "--runs", str(folder / "runs"), "--run-id", run_id)
    return Played(folder, folder / "runs", f"command:python3 {folder / 'yes.py'}")


def reported(run_dir: Path) -> str:
    """"3/6 = 50.0%": the pass rate `phoneshell report` prints."""
    found = re.search(r"passed (\d+/\d+ = [\d.]+%) of scored", phoneshell("report", str(run_dir)))
    assert found, run_dir
    return found.group(1)


def build(played: Played, out: Path) -> None:
    phoneshell("judgeset", "--out", str(out), *(a for r in RUNS for a in
                                                ("--run", str(played.runs / r))))


def test_every_run_is_ranked_at_its_reports_pass_rate(played: Played, tmp_path: Path) -> None:
    rates = {r: reported(played.runs / r) for r in RUNS}
    assert rates == {"H": "3/6 = 50.0%", "H2": "3/6 = 50.0%"}
    build(played, tmp_path / "set")
    said = phoneshell("judge", str(tmp_path / "set"), "--judge", played.judge)
    for run_id, rate in rates.items():
        passed, percent = rate.split(" = ")
        assert (f"@ {run_id}: phone {percent} ({passed} passed), judge 100.0%; judged through "
                "4 item(s)") in said, said
    assert "ranking fidelity over 2 run(s)" in said, said
    assert "1 positive, 3 negative" in said  # the per-item figures stay over the items
    made = json.loads((tmp_path / "set" / "judgeset.json").read_text())
    assert (len(made["items"]), made["duplicates"], made["scored_attempts"]) == (4, 8, 12)
    assert [s["items"] for s in made["sources"]] == [4, 0]  # H2 is no item of its own
    score = json.loads(next((tmp_path / "set" / "judged").glob("*/score.json")).read_text())
    assert [(a["attempts"], a["passed"], a["phone_rate"], a["judge_rate"])
            for a in score["ranking"]["agents"]] == [(6, 3, 0.5, 1.0)] * 2
    assert score["ranking"]["mae"] == 0.5


def test_an_older_set_is_scored_without_a_ranking(played: Played, tmp_path: Path) -> None:
    build(played, tmp_path / "set")
    manifest_path = tmp_path / "set" / "judgeset.json"
    manifest = json.loads(manifest_path.read_text())
    del manifest["scored_attempts"]  # as a set built before attempts.jsonl was written
    for source in manifest["sources"]:
        del source["agent"]
    manifest_path.write_text(json.dumps(manifest))
    (tmp_path / "set" / "attempts.jsonl").unlink()
    said = phoneshell("judge", str(tmp_path / "set"), "--judge", played.judge)
    assert "no ranking: the judgeset was built before it recorded its runs' scored attempts" \
        in said and "ranking fidelity" not in said and "accuracy 25.0% (1/4" in said, said


def test_a_damaged_attempts_file_is_refused_before_judging(played: Played,
                                                           tmp_path: Path) -> None:
    build(played, tmp_path / "set")
    path = tmp_path / "set" / "attempts.jsonl"
    path.write_text("".join(path.read_text().splitlines(keepends=True)[1:]))  # one line lost
    done = run_cli("judge", str(tmp_path / "set"), "--judge", played.judge)
    assert done.returncode == 2 and not (tmp_path / "set" / "judged").exists(), done.stderr
    assert f"error: {path} holds 11 attempt(s), judgeset.json says 12" in done.stderr
    assert "hint: rebuild it with `phoneshell judgeset`" in done.stderr


def test_a_run_given_twice_is_refused(played: Played, tmp_path: Path) -> None:
    done = run_cli("judgeset", "--out", str(tmp_path / "set"), "--run", str(played.runs / "H"),
                   "--run", str(played.runs / "H") + "/")
    assert done.returncode == 2 and f"error: {played.runs / 'H'} is given twice" in done.stderr
