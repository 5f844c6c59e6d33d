"""The sandbox of command agents: what a program in it can and cannot reach, on this machine."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from agents.openai_standin import API_KEY, StandIn

from phoneshell.agents import make_agent
from phoneshell.agents.sandbox import (
    PACKAGE_HIDDEN,
    Sandbox,
    environment,
    named_files,
    sandbox_profile,
)
from phoneshell.agents.sandbox_choice import choose
from phoneshell.audit import actions, read_audit
from phoneshell.errors import RunError
from phoneshell.runner import AttemptPlan, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

ROOT = Path(__file__).resolve().parents[2]


def inside(sandbox: Sandbox, script: str, scratch: Path) -> subprocess.CompletedProcess[str]:
    """Run a shell script in the sandbox as a command agent would be run (one whose command
    line names no file: a file it named would be shared with it)."""
    argv = sandbox.wrap(["/bin/sh", "-c", script], "sh", scratch, ROOT)
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env=environment(dict(os.environ), scratch, True))


def test_the_project_the_runs_and_usbmuxd_are_out_of_sight(bwrap: Sandbox,
                                                           tmp_path: Path) -> None:
    scratch = tmp_path / "runs" / "R" / "attempts" / "t" / "1" / "agent"
    scratch.mkdir(parents=True)
    (tmp_path / "runs" / "R" / "run.json").write_text("{}")
    checks = {
        "project": f"ls {ROOT / 'environments'}", "run folder": f"cat {tmp_path}/runs/R/run.json",
        "usbmuxd": "ls /var/run/usbmuxd", "key": f"cat {os.environ['PHONESHELL_KEY_FILE']}",
        "home": f"ls {Path.home()}/.config", "shadow": "cat /etc/shadow",
        "write the system": "touch /usr/x",
    }
    for what, command in checks.items():
        assert inside(bwrap, command, scratch).returncode != 0, what
    processes = inside(bwrap, "ls /proc | grep -c '^[0-9]'", scratch)
    assert int(processes.stdout) <= 4, "it sees its own processes only"
    wrote = inside(bwrap, "echo hi > $HOME/note && cat $HOME/note", scratch)
    assert wrote.stdout == "hi\n" and (scratch / "note").read_text() == "hi\n"
    python = inside(bwrap, f"{shlex.quote(sys.executable)} -m phoneshell finish --help",
                    scratch)
    assert python.returncode == 0, python.stderr  # its Python, and phoneshell's own code


def test_another_phoneshell_the_agent_could_import_is_hidden_alike(
        bwrap: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An older phoneshell on the Python's path, in a folder the agent is shown: its task files
    # and simulator are hidden as this one's are, the rest of it is not.
    lib = tmp_path / "lib"
    for part in ("suite", "sim"):
        (lib / "phoneshell" / part).mkdir(parents=True)
    (lib / "phoneshell" / "suite" / "t.yaml").write_text("checks: []\n")
    (lib / "phoneshell" / "sim" / "pages.py").write_text("WORDS = ['MERIDIAN']\n")
    (lib / "phoneshell" / "finish.py").write_text("")
    monkeypatch.syspath_prepend(str(lib))
    box = Sandbox("bwrap", program=bwrap.program, shares=(lib,))
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    for hidden in ("suite/t.yaml", "sim/pages.py"):
        assert inside(box, f"cat {lib}/phoneshell/{hidden}", scratch).returncode != 0, hidden
    assert inside(box, f"cat {lib}/phoneshell/finish.py", scratch).returncode == 0


def test_the_harness_keeps_its_own_variables(tmp_path: Path) -> None:
    env = environment({"PHONESHELL_BRIDGE_CONTROL_TOKEN": "x", "PHONESHELL_KEY_FILE": "k",
                       "PHONESHELL_EXPOSE_TASK_FILE": "1", "OPENAI_API_KEY": "sk", "PATH": "/b",
                       "PHONESHELL_USBMUXD": "127.0.0.1:27015", "PHONESHELL_BRIDGE_TOKEN": "t",
                       "PHONESHELL_SIM_SEED": "7", "PHONESHELL_ANY_LATER_ONE": "s",
                       "PHONESHELL_OPENAI_API_KEY": "sk2", "PHONESHELL_VISION": "1"},
                      tmp_path, True)
    assert env == {"OPENAI_API_KEY": "sk", "PATH": "/b", "HOME": str(tmp_path), "TMPDIR": "/tmp",
                   "PHONESHELL_OPENAI_API_KEY": "sk2", "PHONESHELL_VISION": "1"}


def test_a_sandbox_asked_for_by_name_must_exist() -> None:
    assert choose("none") == Sandbox("none", "--sandbox none was given")
    with pytest.raises(RunError, match="--sandbox 'maybe'"):
        choose("maybe")
    if sys.platform != "darwin":
        with pytest.raises(RunError, match="sandbox-exec exists only on macOS"):
            choose("sandbox-exec")


def test_the_macos_profile_reads_the_system_and_writes_only_the_scratch() -> None:
    # sandbox-exec cannot run here; its profile is checked as text.
    profile = sandbox_profile(Path("/runs/R/attempts/t/1/agent"), [Path("/opt/py")])
    assert profile.startswith("(version 1)\n(deny default)")
    assert '(allow file-read* file-write* (subpath "/runs/R/attempts/t/1/agent"))' in profile
    assert '(allow file-read* (subpath "/opt/py"))' in profile
    assert '(remote unix-socket (path-literal "/var/run/usbmuxd"))' in profile
    assert "/runs/R/run.json" not in profile and '(subpath "/runs")' not in profile


def test_the_macos_profile_keeps_the_answer_key_out(tmp_path: Path) -> None:
    # The package is readable for `phoneshell finish`, less its task files (in this checkout a
    # link to environments/), the simulator and the attack families; the run's task folder too,
    # even named on the command line. The agent's own file, named, stays readable.
    agent = tmp_path / "agent.py"
    agent.write_text("")
    task_file = ROOT / "environments" / "probe.image.one.yaml"
    model = ROOT / "phoneshell" / "sim" / "apps" / "safari_pages.py"
    scratch = tmp_path / "runs" / "R" / "attempts" / "t" / "1" / "agent"
    box = Sandbox("sandbox-exec", program="/usr/bin/sandbox-exec").hiding([ROOT / "environments"])
    argv = box.wrap(["python", str(agent)], f"python {agent} {task_file} {model}", scratch, ROOT)
    assert argv[:2] == ["/usr/bin/sandbox-exec", "-p"] and argv[3:] == ["python", str(agent)]
    lines = argv[2].splitlines()
    package = lines.index(f'(allow file-read* (subpath "{ROOT / "phoneshell"}"))')
    denied = [lines.index(f'(deny file-read* file-write* (subpath "{place}"))')
              for place in (ROOT / "environments", ROOT / "phoneshell" / "sim",
                            ROOT / "phoneshell" / "attack")]
    assert package < min(denied), "a later rule wins: each denial follows the package's allow"
    assert lines.index(f'(allow file-read* (literal "{agent}"))') > max(denied)
    assert lines.index(f'(allow file-read* file-write* (subpath "{scratch}"))') > max(denied)
    assert str(task_file) not in argv[2] and str(model) not in argv[2]
    assert sorted(PACKAGE_HIDDEN) == ["attack", "sim", "suite"]


@pytest.fixture
def model(monkeypatch: pytest.MonkeyPatch) -> Iterator[StandIn]:
    with StandIn() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
        yield server


def test_a_sandboxed_agent_reaches_its_model_over_the_network(
        model: StandIn, bwrap: Sandbox, tmp_path: Path, suite: dict[str, Task]) -> None:
    task = suite["settings.about.reach"]
    agent = make_agent(f"command:{shlex.quote(sys.executable)} tests/agents/ask_model.py")
    with SimServer(secret=SimServer.new_secret()) as sim, \
            open_rig(sim.url, tmp_path, private=True, effect_timeout_s=0.5) as rig:
        row = run_attempt(AttemptPlan("R", tmp_path / "R", task, 1, sandbox=bwrap), rig,
                          agent).row
    assert [r["model"] for r in model.requests] == ["stand-in-talk"]
    launched = [a for a in actions(read_audit(tmp_path / "R" / "audit.jsonl").records)
                if a.phase == "agent"]
    assert [(a.kind, a.params.get("bundle_id"), a.ok) for a in launched] == [
        ("launch", "com.apple.Preferences", True)]  # and it acted through the bridge
    assert row.claim is not None and row.claim.summary == "I believe the task is complete."


def test_a_word_too_long_for_a_file_name_is_no_file_it_needs(tmp_path: Path) -> None:
    # A script given inline (`python -c '...'`) is one word longer than a name may be: it was
    # "cannot start", the attempt skipped as never run.
    assert named_files(f"python -c '{'x = 1; ' * 60}'", tmp_path) == []
    assert named_files("python -c 'a\x00b'", tmp_path) == []
