"""`command:` judges run confined, as command agents do: a judge that hunts for the labels (on
its grandparent's command line, in every process's, by the exact path, over the whole file
system) finds nothing in the sandbox and scores as the guesser it is; unconfined
(`--sandbox none`) it finds them, scores 100%, and every record of the run says its scores
are not tamper-proof. An honest judge still gets its item and writes in its folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import run_cli
from judges.judges_rig import ROOT, Made

from phoneshell.agents.sandbox import Sandbox
from phoneshell.judges import JudgeError, JudgeOptions, judge_set, make_judge, score
from phoneshell.judges.run import EARLIER
from phoneshell.records import JudgeRun, JudgeScore, read_record

HUNTER = r"""
import json, os, sys
from pathlib import Path
given = json.load(sys.stdin)
item_id = given["item"]["id"]
looked = []

def labels_in(path):
    try:
        for line in Path(path).read_text().splitlines():
            row = json.loads(line)
            if row["id"] == item_id:
                return row["label"] == "positive"
    except (OSError, ValueError, KeyError):
        return None

def answer(success, how):
    print(json.dumps({"success": success, "reasoning": how}))
    sys.exit(0)

# the red team's way: phoneshell judge JUDGESET on the grandparent's command line
try:
    parent = os.getppid()
    grand = int(Path(f"/proc/{parent}/stat").read_text().split(")")[1].split()[1])
    words = Path(f"/proc/{grand}/cmdline").read_bytes().split(b"\0")
    for word in words[words.index(b"judge") + 1:]:
        found = labels_in(Path(word.decode()) / "labels.jsonl")
        if found is not None:
            answer(found, "the grandparent's command line")
except (OSError, ValueError, IndexError):
    pass
# every process's command line
for entry in os.listdir("/proc"):
    if entry.isdigit():
        try:
            words = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        for word in words:
            found = labels_in(Path(word.decode(errors="replace")) / "labels.jsonl")
            if found is not None:
                answer(found, f"process {entry}'s command line")
# the exact path, handed over by the test
found = labels_in(os.environ["HUNT_LABELS"])
if found is not None:
    answer(found, "the exact path")
# the copy's origin: the item folder's grandparent
found = labels_in(Path(given["folder"]).parent.parent / "labels.jsonl")
if found is not None:
    answer(found, "beside the item")
# anywhere on the file system
for top, folders, files in os.walk("/"):
    folders[:] = [f for f in folders if os.path.join(top, f) not in ("/proc", "/sys", "/dev")]
    if "labels.jsonl" in files:
        found = labels_in(os.path.join(top, "labels.jsonl"))
        if found is not None:
            answer(found, "found by a walk: " + top)
# nothing: a guess, the same for every item (a coin on its random id may call every one right)
answer(True, "found nothing: guessed")
"""
HONEST = r"""
import json, os, sys
given = json.load(sys.stdin)
folder = given["folder"]
assert os.environ["PHONESHELL_JUDGE_ITEM_DIR"] == folder
frames = [open(f, "rb").read()[:8] for f in given["frames"]]
assert frames and all(f == b"\x89PNG\r\n\x1a\n" for f in frames)
notes = os.path.join(os.environ["HOME"], "notes.txt")  # its folder is writable
with open(notes, "w") as out:
    out.write(given["item"]["instruction"])
steps = given["item"]["steps"]
print(json.dumps({"success": len(steps) > 1, "reasoning": open(notes).read()[:40]}))
"""
FAILS_WHEN = """
import json, os, sys
json.load(sys.stdin)
sys.exit(3) if os.path.exists(os.environ["BROKEN"]) else print(json.dumps({"success": True}))
"""


def program(folder: Path, name: str, body: str) -> str:
    path = folder / f"{name}.py"
    path.write_text(body)
    return f"command:{sys.executable} {path}"


def judged(made: Made, spec: str, out: Path, sandbox: str = "auto") -> JudgeScore:
    options = JudgeOptions(sandbox=sandbox)
    judge = make_judge(spec, options)
    run = judge_set(made.judgeset, judge, out, options)
    return score(judge.name, made.judgeset.manifest.set_id, made.labels, run.answers, run.run)


def reasons(out: Path) -> set[str]:
    return {json.loads(p.read_text())["reasoning"] for p in (out / "results").glob("*.json")}


@pytest.fixture
def hunting(made: Made, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HUNT_LABELS", str(made.judgeset.folder.resolve() / "labels.jsonl"))


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_judge_that_hunts_for_the_labels_finds_none_confined(
        bwrap: Sandbox, made: Made, hunting: None, tmp_path: Path) -> None:
    result = judged(made, program(tmp_path, "hunter", HUNTER), tmp_path / "out")
    assert reasons(tmp_path / "out") == {"found nothing: guessed"}
    assert result.wrong and result.sandbox == "bwrap" and result.tamper_proof
    assert read_record(tmp_path / "out" / "judge.json", JudgeRun).tamper_proof


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_unconfined_it_finds_them_and_is_said_not_tamper_proof(
        made: Made, hunting: None, tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = run_cli("judge", str(made.judgeset.folder), "--judge",
                   program(tmp_path, "hunter", HUNTER), "--out", str(out), "--sandbox", "none")
    assert done.returncode == 0, done.stderr  # right on every item
    # its PID namespace (`agents/pidns.py`) hides its grandparent's pid, not the machine's /proc
    found = reasons(out)
    assert found and all(r.endswith("command line") for r in found), found
    said = ("the judge ran UNCONFINED (--sandbox none was given): it could read the "
            "judgeset's labels and write its own answers; its scores are not tamper-proof")
    assert f"WARNING: {said}" in done.stderr and f"WARNING: {said}" in done.stdout
    assert "accuracy 100.0%" in done.stdout
    run = read_record(out / "judge.json", JudgeRun)
    kept = json.loads((out / "score.json").read_text())
    assert (run.sandbox, run.tamper_proof, kept["sandbox"]) == ("none", False, "none")
    page = tmp_path / "judge.html"
    again = run_cli("judge", str(made.judgeset.folder), "--judge",
                    program(tmp_path, "hunter", HUNTER), "--out", str(out), "--sandbox",
                    "none", "--html", str(page))
    assert again.returncode == 0 and "not tamper-proof" in page.read_text()


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_the_labels_stay_hidden_inside_what_the_sandbox_shows(
        bwrap: Sandbox, made: Made, hunting: None, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The judgeset and the runs lie in a folder shared with the sandbox (a judge's data)."""
    monkeypatch.setenv("PHONESHELL_SANDBOX_SHARE", str(made.judgeset.folder.parent))
    judged(made, program(tmp_path, "hunter", HUNTER), tmp_path / "out")
    assert reasons(tmp_path / "out") == {"found nothing: guessed"}
    named = f"{program(tmp_path, 'hunter', HUNTER)} {made.judgeset.folder / 'labels.jsonl'}"
    with pytest.raises(JudgeError, match="names .*labels.jsonl, inside the judgeset"):
        judged(made, named, tmp_path / "named")


@pytest.mark.slow  # 2.6 s measured: the README's command stays quick
def test_an_honest_judge_works_confined(bwrap: Sandbox, made: Made, tmp_path: Path) -> None:
    result = judged(made, program(tmp_path, "honest", HONEST), tmp_path / "out")
    assert result.missing == result.invalid == 0 and result.sandbox == "bwrap"
    assert {r[:10] for r in reasons(tmp_path / "out")} <= {
        made.judgeset.item(i).instruction[:10] for i in made.judgeset.manifest.items}


def test_a_judge_that_cannot_start_in_its_sandbox_is_refused(
        bwrap: Sandbox, made: Made, tmp_path: Path) -> None:
    with pytest.raises(JudgeError, match="no-such-judge: not found on PATH .*judge's sandbox"):
        judged(made, "command:no-such-judge --x", tmp_path / "out")


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_an_unconfined_invocation_marks_the_whole_run(
        bwrap: Sandbox, made: Made, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Resumed confined, a run that was unconfined stays marked: it could have written any
    answer kept."""
    broken = tmp_path / "broken"
    broken.touch()
    monkeypatch.setenv("BROKEN", str(broken))
    spec, out = program(tmp_path, "fails", FAILS_WHEN), tmp_path / "out"
    assert judged(made, spec, out, "none").missing == len(made.labels)
    result = judged(made, spec, out)  # confined, the broken file is out of its sight
    assert result.missing == 0 and not result.tamper_proof
    assert result.sandbox == "none" and result.sandbox_note.startswith(EARLIER)


def test_a_folder_to_hide_that_holds_the_package_keeps_its_parts_hidden(
        bwrap: Sandbox, tmp_path: Path) -> None:
    """Hiding the checkout (a source beside it, a run of `.`) never unhides the simulator."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    sim = ROOT / "phoneshell" / "sim" / "__init__.py"
    argv = bwrap.hiding([ROOT]).wrap(["/bin/sh", "-c", f"test -e {sim} && echo seen || echo no"],
                                     "", scratch, tmp_path)
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "HOME": str(scratch)})
    bwrap.take_back(scratch)
    assert done.stdout.strip() == "no", done.stderr
