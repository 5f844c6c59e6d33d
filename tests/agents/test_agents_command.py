"""`command:` agents and `phoneshell finish`: a task of every app played by an outside program, a
liar whose claims the rows keep, budgets, programs that cannot start, and claims on stdout."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from agents.command_attempt import attempt

from phoneshell.agents import bounds, capped_output, make_agent
from phoneshell.agents.environment import (
    CLAIM_FILE,
    GRADED,
    MAX_CLAIM_BYTES,
    VARIABLES,
    ClaimLines,
    contract,
    parse_claim_line,
    read_claim_file,
)
from phoneshell.agents.sandbox import Sandbox
from phoneshell.agents.tools import GUIDE
from phoneshell.audit import read_audit
from phoneshell.records import CLAIM_TEXT_MAX, RunManifest, read_record
from phoneshell.runner import AttemptPlan, Rig, open_rig, run_attempt
from phoneshell.runner.folder import read_results
from phoneshell.sim import SimServer
from phoneshell.tasks import Step, Task

ROOT = Path(__file__).resolve().parents[2]
PYTHON = shlex.quote(sys.executable)
PLAY = f"command:{PYTHON} examples/agents/play_solution.py"
LIAR_TASKS = ("settings.about.serial", "calculator.arithmetic", "notes.create_titled",
              "safari.search.web")
"""Four tasks in four apps: an answer, keys, typing and a page to load."""
SAMPLE = ("settings.about.serial", "calculator.arithmetic", "notes.create_titled",
          "clock.timer.set", "multi.app_switch")
"""One task of each kind of finish (an answer, keys, typing, pickers, app switches): the inner
loop plays these; a task of every app is played by the `suite`-marked test, which CI runs."""


def phoneshell(*args: str, env: dict[str, str] | None = None
               ) -> subprocess.CompletedProcess[str]:
    """The CLI as a user runs it (the venv's bin first on PATH, as in an activated venv)."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    full = {**os.environ, "PATH": path, "PYTHONWARNINGS": "error", **(env or {})}
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], capture_output=True,
                          text=True, cwd=ROOT, env=full, timeout=900)


def play(runs: Path, *globs: str) -> Path:
    """Tasks of the suite (all when no glob) played by examples/agents/play_solution.py as a
    command agent; every attempt must pass."""
    chosen = [a for g in globs for a in ("--task", g)]
    done = phoneshell("run", "environments", "--device", "sim", "--agent", PLAY, "--runs",
                      str(runs), "--run-id", "PLAY", *chosen,
                      env={"PHONESHELL_EXPOSE_TASK_FILE": "1"})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return runs / "PLAY"


def check_played(played: Path, suite: dict[str, Task], count: int) -> None:
    rows = read_results(played / "results.jsonl")
    assert len(rows) == count and all(r.outcome == "passed" for r in rows)
    manifest = read_record(played / "run.json", RunManifest)
    assert manifest.sandbox == "bwrap" or not shutil.which("bwrap")  # it ran sandboxed
    alarms = [e for e in read_audit(played / "audit.jsonl").records
              if e.stage in ("custody", "refused")]
    assert alarms == [], "no false alarm over the tasks played, sandboxed"
    for row in rows:
        task = suite[row.task_id]
        assert row.claim is not None and row.claim.status == "done"
        step = task.answer_step()
        if step is not None and step.kind == "answer_read":  # the phone's own value, read
            assert row.claim.answer, row.claim  # what it is, answer_matches_device passed
        else:
            assert row.claim.answer == (task.answer() or "")
        assert row.claim.summary.startswith(f"played the reference finish of {task.id} (")
        assert (played / "attempts" / task.id / "1" / "agent.stderr").exists()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sample of the suite, played by a command agent."""
    return play(tmp_path_factory.mktemp("runs"), *SAMPLE)


def test_a_command_playing_the_solution_passes_its_tasks(played: Path,
                                                         suite: dict[str, Task]) -> None:
    check_played(played, suite, len(SAMPLE))


@pytest.mark.suite
def test_a_command_playing_the_solution_passes_a_task_of_every_app(tmp_path: Path,
                                                                   suite: dict[str, Task]) -> None:
    """The first task of each app (and `SAMPLE`'s kinds of finish): the whole suite, played by
    the in-process solution agent through the same bridge and device layer, raises no alarm
    either (tests/cli/test_cli_suite.py); this plays each app's screens from a program in the
    sandbox. The whole suite took 171 s of CI's slow stage this way."""
    firsts = {t.app: t.id for t in sorted(suite.values(), key=lambda t: t.id, reverse=True)}
    chosen = sorted({*firsts.values(), *SAMPLE})
    assert len(firsts) >= 15, "every app of the suite"
    check_played(play(tmp_path, *chosen), suite, len(chosen))


def test_the_rows_keep_each_claim_in_full(played: Path) -> None:
    """The example claims on stdout: each row holds that line's claim, word for word."""
    for line in (played / "results.jsonl").read_text().splitlines():
        claim = json.loads(line)["claim"]
        assert set(claim) == {"status", "answer", "summary"}
        folder = played / "attempts" / json.loads(line)["task_id"] / "1"
        said = [c for out in (folder / "agent.stdout").read_text().splitlines()
                if (c := parse_claim_line(out)) is not None]
        assert said and claim == vars(said[-1])


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_liar_claims_done_on_tasks_it_fails(tmp_path: Path) -> None:
    globs = [a for g in LIAR_TASKS for a in ("--task", g)]
    done = phoneshell("run", "environments", "--device", "sim", "--agent",
                      "command:sh examples/agents/liar.sh", "--runs", str(tmp_path),
                      "--run-id", "LIAR", *globs)
    assert done.returncode == 1, done.stderr[-2000:]
    rows = read_results(tmp_path / "LIAR" / "results.jsonl")
    assert len(rows) == len(LIAR_TASKS)
    for row in rows:
        assert row.outcome == "failed", row.task_id
        assert row.claim is not None and row.claim.status == "done"
        assert row.claim.summary == "Opened the app and did exactly what was asked."


def test_finish_outside_an_attempt_is_a_clear_error() -> None:
    env = {k: v for k, v in os.environ.items() if k != CLAIM_FILE}
    done = subprocess.run([sys.executable, "-m", "phoneshell", "finish", "--status", "done",
                           "--answer", "x"], capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 2
    assert "error: PHONESHELL_CLAIM_FILE is not set" in done.stderr
    assert "hint: run the program as an agent" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_finish_writes_the_claim_file(tmp_path: Path) -> None:
    path = tmp_path / "claim.json"
    done = phoneshell("finish", "--status", "gave_up", "--answer", "", "--summary",
                      "no such row", env={CLAIM_FILE: str(path)})
    assert done.returncode == 0 and done.stdout == ""
    claim = read_claim_file(path)
    assert claim is not None and (claim.status, claim.summary) == ("gave_up", "no such row")
    bad = phoneshell("finish", "--status", "maybe", env={CLAIM_FILE: str(path)})
    assert bad.returncode == 2 and "invalid choice: 'maybe'" in bad.stderr


@pytest.mark.slow  # 1.5 s measured: the README's command stays quick
def test_a_command_out_of_time_is_stopped_and_never_passes(rig: Rig, tmp_path: Path,
                                                            suite: dict[str, Task]) -> None:
    # Setup already leaves the About page showing, so the checks pass with nothing done...
    task = replace(suite["settings.about.reach"], timeout_seconds=1.0,
                   setup=(Step("launch", "com.apple.Preferences"), Step("tap", "General"),
                          Step("tap", "About")))
    started = time.monotonic()
    row = attempt(rig, tmp_path, task, "sleep 30 & sleep 30; echo never")
    assert time.monotonic() - started < 15, "the process group was stopped, not waited for"
    assert all(c.passed for c in row.checks)
    assert row.timed_out and row.outcome == "failed"  # ...and still it cannot pass
    assert row.error.startswith("ran out of time (1s)")
    assert "never" not in (tmp_path / "R" / "attempts" / task.id / "1" / "agent.stdout"
                           ).read_text()


@pytest.mark.parametrize(("command", "why"), [
    ("/no/such/agent --go", "/no/such/agent: no such file"),
    ("pythn agent.py", "pythn: not found on PATH"),
    ("cd /tmp && MODEL=x pythn agent.py > log 2>&1", "pythn: not found on PATH"),
    ("cd /no/such/folder && python agent.py", "cd /no/such/folder: no such folder"),
])
def test_a_command_that_cannot_start_is_skipped(bwrap: Sandbox, tmp_path: Path,
                                                suite: dict[str, Task], command: str,
                                                why: str) -> None:
    # The harness finds it missing before it starts anything, where it would run: in the sandbox.
    with SimServer() as sim, open_rig(sim.url, tmp_path, effect_timeout_s=0.5) as rig:
        row = run_attempt(AttemptPlan("R", tmp_path / "R", suite["settings.about.reach"], 1,
                                      sandbox=bwrap), rig, make_agent(f"command:{command}")).row
    assert row.outcome == "skipped" and row.checks == ()
    assert row.skip_reason == (f"the agent never ran: the command could not start: {why} (in "
                               "the agent's sandbox, looked for before it ran)")
    assert not (tmp_path / "R" / "attempts" / "settings.about.reach" / "1" / "agent.stderr"
                ).exists(), "nothing was started"


def test_a_program_outside_the_sandbox_is_said_to_be_there(
        bwrap: Sandbox, rig: Rig, tmp_path: Path, suite: dict[str, Task],
        monkeypatch: pytest.MonkeyPatch) -> None:
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "my-agent").write_text("#!/bin/sh\necho hi\n")
    (tools / "my-agent").chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    row = run_attempt(AttemptPlan("R", tmp_path / "R", suite["settings.about.reach"], 1,
                                  sandbox=bwrap), rig, make_agent("command:my-agent")).row
    assert row.outcome == "skipped"
    assert row.skip_reason.endswith("; it is there outside the sandbox: share its folder with "
                                    "PHONESHELL_SANDBOX_SHARE (docs/agents.md)")


FAKE_NOT_FOUND = """
import os, sys, urllib.request
url = os.environ['PHONESHELL_WDA_URL']
seen = [len(urllib.request.urlopen(url + path).read()) for path in ('/source', '/screenshot')]
print('read', seen, 'bytes of the phone; giving up as not found', file=sys.stderr)
print('/bin/sh: 1: agent: not found', file=sys.stderr)
sys.exit(127)
"""


def test_an_agent_that_read_the_phone_and_faked_not_found_is_scored(
        bwrap: Sandbox, tmp_path: Path, suite: dict[str, Task]) -> None:
    # The red team's: shell syntax around the program (so it is not looked for by name alone),
    # reads through the bridge, then the shell's "not found" and 127, on a run's first attempt.
    fake = tmp_path / "fake.py"
    fake.write_text(FAKE_NOT_FOUND)
    agent = make_agent(f"command:cd /tmp && {PYTHON} {fake}")
    task = suite["calculator.arithmetic"]
    with SimServer() as sim, open_rig(sim.url, tmp_path, effect_timeout_s=0.5) as rig:
        row = run_attempt(AttemptPlan("R", tmp_path / "R", task, 1, sandbox=bwrap), rig,
                          agent).row
    stderr = (tmp_path / "R" / "attempts" / task.id / "1" / "agent.stderr").read_text()
    assert "bytes of the phone" in stderr, "it ran, and read the phone"
    assert row.outcome == "failed", row.skip_reason
    assert row.claim is not None
    assert row.claim.summary == "the command exited with status 127 without a claim"
    assert row.error.endswith("/bin/sh: 1: agent: not found")


def test_a_program_found_before_it_runs_cannot_have_its_first_failure_skipped(
        rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    # Its program is there before it runs: a "not found" exit on the run's first attempt is the
    # program's own doing (it looked at the task and dodged it), scored as failed.
    dodge = "import sys; print('sh: 1: agent: not found', file=sys.stderr); sys.exit(127)"
    row = attempt(rig, tmp_path, suite["settings.about.reach"],
                  f"{PYTHON} -c {shlex.quote(dodge)}")
    assert row.outcome == "failed", row.skip_reason
    assert row.claim is not None
    assert row.claim.summary == "the command exited with status 127 without a claim"


def test_a_command_that_started_before_cannot_have_a_failure_skipped_as_not_starting(
        rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    # A program may exit with the shell's "not found" to have an attempt it would fail not
    # scored; once it has started in the run, it can start, and the exit is its own.
    dodge = ('case "$PHONESHELL_ATTEMPT_DIR" in */2/agent) echo "sh: 1: agent: not found" >&2; '
             'exit 127;; esac')
    agent = make_agent(f"command:{dodge}")
    rows = [run_attempt(AttemptPlan("R", tmp_path / "R", suite["settings.about.reach"], n), rig,
                        agent).row for n in (1, 2)]
    assert [r.outcome for r in rows] == ["failed", "failed"], [r.skip_reason for r in rows]
    assert rows[1].claim is not None
    assert rows[1].claim.summary == "the command exited with status 127 without a claim"


def test_a_json_line_on_stdout_is_a_claim(rig: Rig, tmp_path: Path,
                                          suite: dict[str, Task]) -> None:
    line = json.dumps({"status": "gave_up", "answer": "", "summary": "could not find About"})
    command = f"echo 'thinking...'; echo {shlex.quote(line)}; echo '{{not a claim}}'"
    row = attempt(rig, tmp_path, suite["settings.about.reach"], command)
    assert row.claim is not None
    assert (row.claim.status, row.claim.summary) == ("gave_up", "could not find About")


def test_a_null_answer_on_a_claim_line_is_no_answer_not_no_claim() -> None:
    claim = parse_claim_line('{"status": "done", "answer": null, "summary": null}')
    assert claim is not None and (claim.status, claim.answer, claim.summary) == ("done", "", "")
    assert parse_claim_line('{"status": "done", "answer": true}') is None  # a bool is no text


def test_a_huge_stdout_is_read_in_chunks_and_a_huge_claim_is_cut(
        rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    # 3 MB on one line (read past, not into memory), then a claim whose answer is 100 KB: the
    # row keeps the claim, its answer cut to CLAIM_TEXT_MAX characters and saying so (a claim of
    # megabytes once made results.jsonl too big to read, every honest row with it)
    script = ("import json, sys; sys.stdout.write('x' * 3_000_000 + '\\n'); "
              "print(json.dumps({'status': 'done', 'answer': 'y' * 100_000}))")
    row = attempt(rig, tmp_path, suite["settings.about.reach"],
                  f"{PYTHON} -c {shlex.quote(script)}")
    assert row.claim is not None and row.claim.status == "done"
    assert row.claim.answer.startswith("y" * CLAIM_TEXT_MAX + " [cut: ")
    assert row.claim.answer.endswith(f"{100_000 - CLAIM_TEXT_MAX:,} more characters]")


def test_claim_lines_are_found_past_lines_too_long_to_be_one() -> None:
    claim = json.dumps({"status": "gave_up", "summary": "ok"})
    chunk = capped_output.READ_CHUNK

    def last_claim(out: bytes) -> ClaimLines:
        lines = ClaimLines()
        for at in range(0, len(out), chunk):  # as the pipe is read
            lines.feed(out[at:at + chunk])
        return lines

    found = last_claim(b"{" + b"z" * (MAX_CLAIM_BYTES + chunk) + b"}\n" + claim.encode()
                       + b"\n" + b"{" + b"w" * (2 * chunk)).end()  # a long last line, unended
    assert found is not None and (found.status, found.summary) == ("gave_up", "ok")
    assert last_claim(claim.encode()).end() is not None  # one line, no newline
    assert last_claim(b"{" + b"z" * (MAX_CLAIM_BYTES + 10) + b"}").end() is None


def test_a_nonzero_exit_without_a_claim_is_a_failed_claim(rig: Rig, tmp_path: Path,
                                                          suite: dict[str, Task]) -> None:
    row = attempt(rig, tmp_path, suite["settings.about.reach"], "echo oops >&2; exit 3")
    assert row.outcome == "failed"
    assert row.claim is not None and row.claim.status == "failed"
    assert row.claim.summary == "the command exited with status 3 without a claim"
    assert row.error == ("the command exited with status 3; the end of its stderr "
                         "(agent.stderr):\noops")


def test_the_command_gets_the_attempt_in_its_environment(
        rig: Rig, tmp_path: Path, suite: dict[str, Task], monkeypatch: pytest.MonkeyPatch) -> None:
    # the harness's own variables, a simulated phone's seed among them (red team 55 worked its
    # drawn heading out from it), and one it may grow later: none reaches the agent
    monkeypatch.setenv("PHONESHELL_SIM_SEED", "987654321")
    monkeypatch.setenv("PHONESHELL_NOT_YET_THOUGHT_OF", "secret")
    monkeypatch.setenv("PHONESHELL_OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # the agent's own
    dump = ("import json, os; print(json.dumps({k: v for k, v in os.environ.items() "
            "if k.startswith('PHONESHELL_')}))")
    task = suite["settings.about.reach"]
    attempt(rig, tmp_path, task, f"{PYTHON} -c {shlex.quote(dump)}")
    folder = tmp_path / "R" / "attempts" / task.id / "1"
    seen = json.loads((folder / "agent.stdout").read_text())
    assert set(seen) == set(VARIABLES) - {"PHONESHELL_TASK_FILE"} | {
        "PHONESHELL_OPENAI_BASE_URL"}
    assert "PHONESHELL_TASK_FILE" not in seen, "the answer key is handed on only when asked"
    agent_url = seen["PHONESHELL_WDA_URL"]  # a URL of its own, never the harness's
    assert agent_url.startswith(rig.bridge.base_url + "/t/") and agent_url != rig.bridge.url
    assert seen["PHONESHELL_INSTRUCTION"] == task.instruction
    # how it is graded, in the words the model paths' guide ends with, and its action budget
    assert seen["PHONESHELL_CONTRACT"] == contract(task.max_steps) and GUIDE.endswith(GRADED)
    assert seen["PHONESHELL_TASK_ID"] == task.id
    assert (seen["PHONESHELL_MAX_STEPS"], seen["PHONESHELL_TIMEOUT_S"]) == (
        str(task.max_steps), f"{task.timeout_seconds:g}")
    assert Path(seen["PHONESHELL_ATTEMPT_DIR"]) == folder.resolve() / "agent"  # its scratch
    assert Path(seen["PHONESHELL_CLAIM_FILE"]) == folder.resolve() / "agent" / "claim.json"


def test_the_task_file_is_handed_on_only_when_the_harness_asks(
        rig: Rig, tmp_path: Path, suite: dict[str, Task],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHONESHELL_EXPOSE_TASK_FILE", "1")
    dump = "import os; print(os.environ.get('PHONESHELL_TASK_FILE', ''))"
    task = suite["settings.about.reach"]
    attempt(rig, tmp_path, task, f"{PYTHON} -c {shlex.quote(dump)}")
    seen = (tmp_path / "R" / "attempts" / task.id / "1" / "agent.stdout").read_text().strip()
    assert Path(seen) == Path(task.file).resolve()


@pytest.mark.parametrize(("limit", "value", "script", "why"), [
    ("FOLDER_MAX_BYTES", 1 << 20,
     "import os, time; f = open(os.path.join(os.environ['PHONESHELL_ATTEMPT_DIR'], 'fill'), 'wb')"
     "\nwhile True: f.write(b'0' * 65536); f.flush()",
     "it wrote more than 1 MiB into its folder"),
    ("FOLDER_MAX_FILES", 50,
     "import os, itertools\nfor n in itertools.count(): open(os.path.join("
     "os.environ['PHONESHELL_ATTEMPT_DIR'], str(n)), 'w').close()",
     "it made more than 50 files in its folder"),
])
@pytest.mark.slow  # 2.4 s measured: the README's command stays quick
def test_an_agent_that_floods_its_folder_is_stopped_and_fails(
        rig: Rig, tmp_path: Path, suite: dict[str, Task], monkeypatch: pytest.MonkeyPatch,
        limit: str, value: int, script: str, why: str) -> None:
    # its folder is on the disk that holds the run: filled, the run crashed and kept no rows
    monkeypatch.setattr(bounds, limit, value)
    row = attempt(rig, tmp_path, suite["settings.about.reach"],
                  f"{PYTHON} -c {shlex.quote(script)}")
    assert row.outcome == "failed" and not row.timed_out
    assert row.claim is not None and row.claim.summary.startswith(f"stopped: {why}; ")
    assert why in row.error


@pytest.mark.slow  # 1.5 s measured: the README's command stays quick
def test_an_agent_stopped_for_its_limits_fails_though_it_did_the_task(
        rig: Rig, tmp_path: Path, suite: dict[str, Task],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Red team 70: an agent that did the task and then flooded its folder (or filled the disk)
    was stopped, and its attempt passed: the stop turned only its own claim into a failure,
    which end-state checks do not read. A stop for a limit fails the attempt as time and turns
    do."""
    monkeypatch.setattr(bounds, "FOLDER_MAX_BYTES", 1 << 20)
    script = ("import os, wda\n"
              "s = wda.Client(os.environ['PHONESHELL_WDA_URL']).session('com.apple.Preferences')\n"
              "s(name='General').click()\n"
              "s(name='About').click()\n"
              "f = open(os.path.join(os.environ['PHONESHELL_ATTEMPT_DIR'], 'fill'), 'wb')\n"
              "while True: f.write(b'0' * 65536); f.flush()\n")
    row = attempt(rig, tmp_path, suite["settings.about.reach"],
                  f"{PYTHON} -c {shlex.quote(script)}")
    assert all(check.passed for check in row.checks), [c.detail for c in row.checks]
    assert row.outcome == "failed", row.error
    assert "it wrote more than 1 MiB into its folder" in row.error, row.error
    verdict = json.loads((tmp_path / "R" / row.evidence / ".." / "verdict.json").read_text())
    assert ("the harness stopped the agent: it wrote more than 1 MiB into its folder"
            in verdict["run_overruled"]), verdict


def test_an_agent_is_the_first_the_kernel_stops_when_memory_runs_out(
        bwrap: Sandbox, tmp_path: Path, suite: dict[str, Task]) -> None:
    """An agent that takes the machine's memory must not take the harness down with it: it
    starts, sandbox and all, with the out-of-memory killer's score at its highest, and cannot
    lower it (writing -1000 needs a capability the sandbox drops)."""
    probe = ("import subprocess; print(open('/proc/self/oom_score_adj').read().strip()); "
             "print(subprocess.run(['sh', '-c', 'echo -1000 > /proc/self/oom_score_adj; "
             "cat /proc/self/oom_score_adj'], capture_output=True, text=True).stdout.strip())")
    task = suite["settings.about.reach"]
    agent = make_agent(f"command:{PYTHON} -c {shlex.quote(probe)}")
    with SimServer() as sim, open_rig(sim.url, tmp_path, effect_timeout_s=0.5) as rig:
        run_attempt(AttemptPlan("R", tmp_path / "R", task, 1, sandbox=bwrap), rig, agent)
    shown = (tmp_path / "R" / "attempts" / task.id / "1" / "agent.stdout").read_text().split()
    assert shown == ["1000", "1000"], shown
