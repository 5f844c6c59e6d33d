"""On a rig the agent can reach around the bridge, a fault is judged by the phone's own witness;
an app the rig cannot read is not scored.

On a `--device` URL (here a simulator on loopback, as a standalone `phoneshell sim` or a phone
behind iproxy is) a program the sandbox confines can still reach WDA without the bridge. The
simulator's count of the WDA requests it received tells: any the bridge never sent, an input or
a read (red team 81: one find that held the phone for minutes), fails the attempt, with a fault
after it or none, and the run goes on (red team 75); a fault with none is the rig's, an owner's
switch (red team 76); where nothing witnesses the turn (the simulator stopped answering)
the fault is not scored, saying its cause cannot be told, and the run says at its start, in
run.json and in its report that its agents could reach the phone around the bridge. The counts
say what arrived, not who sent it (red team 101): on a simulator serving WDA to every local
process a neighbour's reads fail an honest attempt, and the reason says the agent *or any other
local process* sent them and how to stop that; under a secret path only holders of the URL are
counted, and there an agent given it is blamed. An app WDA cannot read from the attempt's start
fails no honest agent: not scored, naming the app; one the run read whole before stays the
agent's to leave readable.
"""

from __future__ import annotations

import contextlib
import json
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli
from standalone_sim import standalone_sim

from bridge.upstream import Upstream
from phoneshell.records import AuditEvent
from phoneshell.runner.around import AroundWatch, around_bridge
from phoneshell.runner.endstate import seen_whole, unread_from_start
from phoneshell.sim import SimServer

CALC = "com.apple.calculator"
TASKS = ("environments/calculator.arithmetic.yaml", "environments/calculator.percentage.yaml")
PLAY = ROOT / "examples" / "agents" / "play_solution.py"
AROUND = "around the bridge"


def _around(tmp_path: Path, url: str, route: str, body: str | None, then: str = "") -> Path:
    """A program that POSTs `body` to `url + route` (GETs it, for None), straight to WDA, then
    runs `then` (a program) or claims done."""
    agent = tmp_path / "around.py"
    data = "None" if body is None else f"{body!r}.encode()"
    agent.write_text(
        "import os, subprocess, sys, urllib.request\n"
        f"urllib.request.urlopen(urllib.request.Request({url + route!r}, data={data},"
        " headers={'Content-Type': 'application/json'}), timeout=10).read()\n"
        + _then(then))
    return agent


def _then(then: str) -> str:
    """The end of an agent's program: run `then` (a program), or claim done."""
    return (f"sys.exit(subprocess.call([sys.executable, {then!r}]))\n" if then else
            "os.system('phoneshell finish --status done --answer 423')\n")


def _waiting(tmp_path: Path, then: str = "") -> Path:
    """A program that says it began (a file), waits for the word to go on (another file),
    then runs `then` or claims done: an honest agent thinking while its phone's owner does
    something."""
    agent = tmp_path / "waiting.py"
    agent.write_text(
        "import os, pathlib, subprocess, sys, time\n"
        f"pathlib.Path({str(tmp_path / 'began')!r}).touch()\n"
        "deadline = time.monotonic() + 60\n"
        f"while not pathlib.Path({str(tmp_path / 'go')!r}).exists() and "
        "time.monotonic() < deadline:\n"
        "    time.sleep(0.05)\n"
        + _then(then))
    return agent


@contextmanager
def _owner(tmp_path: Path, act: Callable[[], None]) -> Iterator[None]:
    """Once the agent's turn began, `act` (the phone's owner), then the word to go on."""
    def watch() -> None:
        deadline = time.monotonic() + 120
        while not (tmp_path / "began").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        act()
        (tmp_path / "go").touch()

    owner = threading.Thread(target=watch, daemon=True)
    owner.start()
    yield
    owner.join(timeout=10)


def _run(tmp_path: Path, url: str, agent: Path, run_id: str, *tasks: str,
         ) -> tuple[int, str, list[dict[str, object]]]:
    done = run_cli("run", *(tasks or TASKS[:1]), "--device", url, "--agent",
                   f"command:{sys.executable} {agent}", "--sandbox", "none", "--runs",
                   str(tmp_path / "runs"), "--run-id", run_id,
                   env={"PHONESHELL_EXPOSE_TASK_FILE": "1"})
    return done.returncode, done.stdout + done.stderr, _rows(tmp_path / "runs", run_id)


def _rows(runs: Path, run_id: str) -> list[dict[str, object]]:
    lines = (runs / run_id / "results.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


@pytest.mark.slow  # 5 s of a whole run: the README's command stays quick
def test_a_lock_sent_around_the_bridge_fails_the_agent_and_the_run_goes_on(tmp_path: Path,
                                                                          ) -> None:
    with SimServer() as sim:
        agent = _around(tmp_path, sim.url, "/wda/lock", "{}")
        code, said, rows = _run(tmp_path, sim.url, agent, "L", *TASKS)
    assert code == 1, said  # done, not all passed; not stopped
    assert [r["outcome"] for r in rows] == ["failed", "failed"]
    assert all("1 WDA request(s) reached the phone that the bridge never sent" in str(r["error"])
               and "POST /wda/lock" in str(r["error"]) and "locked" in str(r["error"])
               for r in rows), rows
    assert f"phone-1: this phone is not private: a --device URL ({sim.url}); agents can reach " \
        f"it {AROUND}" in said


@pytest.mark.slow
@pytest.mark.parametrize(("route", "body"), [("/wda/unlock", "{}"), ("/status", None)])
def test_a_request_around_the_bridge_fails_the_agent_with_no_fault_after(
        tmp_path: Path, route: str, body: str | None) -> None:
    # an unlock of an unlocked phone changes nothing, a read of its status nothing either (the
    # red team's agent read the session there), and the reference finish through the bridge
    # passes: only the phone's count shows the agent went around it
    with SimServer() as sim:
        agent = _around(tmp_path, sim.url, route, body, then=str(PLAY))
        code, said, [row] = _run(tmp_path, sim.url, agent, "U")
    assert code == 1, said
    assert row["outcome"] == "failed", row
    method = "GET" if body is None else "POST"
    assert ("1 WDA request(s) reached the phone that the bridge never sent (the simulator's "
            f"count of the requests it received, in the agent's turn): {method} {route}") in str(
        row["error"]), row
    assert all(c["passed"] for c in row["checks"]), row  # type: ignore[attr-defined]


def test_a_find_around_the_bridge_still_holding_the_phone_at_the_turns_end_is_witnessed(
        ) -> None:
    # red team 81: one costly find sent straight to the phone held it for minutes, and the
    # harness's reads found no answer; here the phone's lock is held while the find waits
    with SimServer() as sim:
        upstream = Upstream(sim.url)
        watch = AroundWatch(True, "a --device URL", upstream)
        watch.begin()
        upstream.send("GET", "/source", None, {})  # the bridge's own read: explained
        with sim.lock:
            find = threading.Thread(target=_find_around, args=(sim.url,), daemon=True)
            find.start()
            deadline = time.monotonic() + 10
            while sim.request_counts().get("POST /elements", 0) < 1:
                assert time.monotonic() < deadline, sim.request_counts()
                time.sleep(0.01)
            watch.end()  # the phone still busy: its counts answer all the same
        find.join(timeout=10)
    assert watch.around == ("POST /elements",), watch.around
    said = around_bridge(watch, "rig down")
    assert ("1 WDA request(s) reached the phone that the bridge never sent (the simulator's "
            "count of the requests it received, in the agent's turn): POST /elements: sent "
            "around the bridge by the agent or by any other local process") in said, said
    assert said.endswith("; then rig down"), said


def _find_around(url: str) -> None:
    body = b'{"using": "xpath", "value": "//*[count(//*)>0]"}'
    with contextlib.suppress(urllib.error.HTTPError):  # no such session: WDA's answer,
        # after the phone counted the find
        urllib.request.urlopen(urllib.request.Request(url + "/session/s/elements", data=body),
                               timeout=10).read()


def _neighbour(url: str, reads: int = 3) -> Callable[[], None]:
    """Another local process, not the agent nor in its process tree (another run's agent that
    found the port in /proc/net/tcp, a monitor): `reads` reads of `url`'s /status."""
    def read() -> None:
        for _ in range(reads):
            try:
                urllib.request.urlopen(f"{url}/status", timeout=10).read()
            except urllib.error.HTTPError as exc:  # a secret's bare 404: read all the same
                exc.close()
    return read


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_a_neighbours_reads_of_an_open_simulator_are_not_blamed_on_the_agent_alone(
        tmp_path: Path) -> None:
    # red team 101: a standalone simulator serves WDA to any local process, so its counts
    # cannot tell who sent a request; the attempt still fails (an agent that went around the
    # bridge must not pass or go unscored), and every line says who else could have
    with standalone_sim() as (url, started), _owner(tmp_path, _neighbour(url)):
        code, said, [row] = _run(tmp_path, url, _waiting(tmp_path, then=str(PLAY)), "NB")
    assert any(line.startswith("WDA routes: open to any local process") and
               "any local process can fail its attempts" in line for line in started), started
    assert code == 1, said
    assert row["outcome"] == "failed", row
    assert all(c["passed"] for c in row["checks"]), row  # type: ignore[attr-defined]
    error = str(row["error"])
    assert ("3 WDA request(s) reached the phone that the bridge never sent (the simulator's "
            "count of the requests it received, in the agent's turn): GET /status (x3): sent "
            "around the bridge by the agent or by any other local process") in error, error
    assert "the agent acted" not in error and "start the simulator with --secret-path and " \
        "give the run the URL it prints" in error, error
    [banner] = [line for line in said.splitlines() if "this phone is not private" in line]
    assert (f"agents can reach it {AROUND}, and so can any other local process" in banner
            and "whoever sent them" in banner and "--secret-path" in banner), banner


@pytest.mark.slow  # 10 s of whole programs: the README's command stays quick
def test_under_a_secret_path_only_holders_of_the_url_are_counted_and_blamed(tmp_path: Path,
                                                                             ) -> None:
    with standalone_sim("--secret-path") as (url, started):
        origin, secret = url.rsplit("/", 1)
        with _owner(tmp_path, _neighbour(origin)):  # the port, without the secret
            code, said, [row] = _run(tmp_path, url, _waiting(tmp_path, then=str(PLAY)), "S")
        # an agent that learnt the URL (an unconfined one can read the harness's arguments)
        around = _around(tmp_path, url, "/status", None, then=str(PLAY))
        code_around, said_around, [blamed] = _run(tmp_path, url, around, "SA")
    assert any(line.startswith("WDA routes: served only under the secret path")
               for line in started), started
    assert (code, row["outcome"]) == (0, "passed"), (said, row)
    assert f"agents can reach it {AROUND} if they learn its URL" in said, said
    assert secret not in said + said_around
    assert code_around == 1, said_around
    assert blamed["outcome"] == "failed", blamed
    assert ("1 WDA request(s) reached the phone that the bridge never sent (the simulator's "
            "count of the requests it received, in the agent's turn): GET /status: the agent "
            "acted around the bridge (the simulator serves WDA only under the secret path of "
            "the run's --device URL") in str(blamed["error"]), blamed


@pytest.mark.slow
def test_a_lock_the_owner_switches_in_the_turn_is_the_rigs(tmp_path: Path) -> None:
    with SimServer() as sim, _owner(tmp_path, lambda: sim.fault_on("locked")):
        code, said, [row] = _run(tmp_path, sim.url, _waiting(tmp_path), "O")
    assert code == 2, said  # the rig down: the run stops, and --resume plays it again
    assert row["outcome"] == "skipped", row
    assert "locked" in str(row["skip_reason"]) and (
        "the simulator's count of the WDA requests it received shows none reached it around the "
        "bridge in the agent's turn: the rig's") in str(row["skip_reason"]), row


@pytest.mark.slow
def test_a_phone_that_stops_answering_in_the_turn_is_not_scored_and_the_run_says_why(
        tmp_path: Path) -> None:
    with SimServer() as sim, _owner(tmp_path, sim.stop):
        url = sim.url
        code, said, [row] = _run(tmp_path, url, _waiting(tmp_path), "N")
    assert code == 2, said
    assert row["outcome"] == "skipped", row
    assert (f"this rig is not private (a --device URL ({url}): the agent could reach the phone "
            "around the bridge) and the simulator did not answer for its count of the requests it "
            "received around the turn, so "
            "whether the agent or the rig caused it cannot be told") in str(
        row["skip_reason"]), row
    banner = f"phone-1: this phone is not private: a --device URL ({url}); agents can reach it"
    assert banner in said
    recorded = json.loads((tmp_path / "runs" / "N" / "run.json").read_text())
    assert any(banner in line for line in recorded["reached_around"]), recorded
    report = run_cli("report", str(tmp_path / "runs" / "N"))
    assert f"N: {banner}" in report.stdout + report.stderr, report.stdout


@pytest.mark.slow  # 5 s of a whole run: the README's command stays quick
def test_a_fault_switched_on_the_control_routes_is_the_rigs(tmp_path: Path) -> None:
    # an open simulator's control routes are no input: a fault switched there (an owner's, as
    # far as the phone can tell) is not scored
    with SimServer() as sim:
        agent = _around(tmp_path, sim.url, "/phoneshell/sim/faults",
                        '{"on": ["truncated-source"]}')
        code, said, [row] = _run(tmp_path, sim.url, agent, "T")
    assert row["outcome"] == "skipped", (row, said)
    assert "cut-off page sources" in str(row["skip_reason"]) and (
        "the simulator's count of the WDA requests it received shows none reached it around "
        "the bridge") in str(row["skip_reason"])


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_an_app_unreadable_from_the_start_is_not_scored(tmp_path: Path) -> None:
    with SimServer(faults=[f"unreadable={CALC}"]) as sim:
        done = run_cli("run", TASKS[0], "--device", sim.url, "--agent", "solution", "--runs",
                       str(tmp_path / "runs"), "--run-id", "U")
    assert done.returncode == 1, done.stdout + done.stderr
    [row] = _rows(tmp_path / "runs", "U")
    assert row["outcome"] == "skipped", row
    assert f"WDA could not read {CALC} on this phone from the attempt's start" in str(
        row["skip_reason"])


def _event(seq: int, phase: str, kind: str, stage: str, **fields: object) -> AuditEvent:
    return AuditEvent(run_id="R", task_id="t", attempt=1, phase=phase, seq=seq, t=0.0,  # type: ignore[arg-type]
                      kind=kind, stage=stage, **fields)  # type: ignore[arg-type]


OPENED_UNREAD = (
    _event(1, "agent", "launch", "intent", app_before="com.apple.springboard",
           screen_before="aa", params={"bundle_id": CALC}),
    _event(1, "agent", "launch", "outcome", params={"bundle_id": CALC}, ok=True),
)


def test_only_an_app_never_read_whole_and_unread_before_the_agent_acted_is_the_rigs() -> None:
    assert unread_from_start(CALC, OPENED_UNREAD, ())
    # read whole earlier in the run: the agent's to leave readable
    assert not unread_from_start(CALC, OPENED_UNREAD, (CALC,))
    # read whole in this attempt, before the agent made it unreadable
    whole = _event(2, "agent", "tap", "intent", app_before=CALC, screen_before="bb")
    assert not unread_from_start(CALC, (*OPENED_UNREAD, whole), ())
    # the agent typed (or acted in another app) before it opened the app
    typed = _event(0, "agent", "type", "intent", app_before="com.apple.springboard",
                   params={"text": "x"})
    assert not unread_from_start(CALC, (typed, *OPENED_UNREAD), ())
    # something changed the phone around the bridge
    custody = _event(3, "agent", "other", "custody", app_after=CALC)
    assert not unread_from_start(CALC, (*OPENED_UNREAD, custody), ())
    assert seen_whole((whole,)) == {CALC}
