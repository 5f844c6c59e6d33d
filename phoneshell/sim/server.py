"""The simulated iPhone's HTTP server: WDA's routes, the control routes, faults, state files.

`SimServer` runs its listener (`sim.listener`) on a background thread; one lock serialises every
request's work on the phone, as a real phone serialises WDA commands. It is what `phoneshell
sim` runs (`sim.command` holds the CLI's hooks) and what tests and the in-process default device
start on port 0. It must never import harness code: the harness reaches the
simulator over HTTP only, exactly as it reaches a phone.

Control routes (`sim.control`) live outside WDA's namespace, under /phoneshell/sim/:

    GET  /phoneshell/sim/state    foreground app, running apps, lock, faults, stores, facts, seed
    POST /phoneshell/sim/reset    a freshly booted phone with empty stores (faults stay)
    GET  /phoneshell/sim/faults   {"faults": ["slow=0.25", ...]}
    POST /phoneshell/sim/faults   {"faults": [...]} replaces the set; {"on": [...]}, {"off": [...]}
    POST /phoneshell/sim/save     write the state file (only the one it was started with)
    POST /phoneshell/sim/clock    {"advance": SECONDS}: move the running clock forward
    POST /phoneshell/sim/notify   {"app": BUNDLE_ID, "title": ..., "body": ...}: post a notification
    GET  /phoneshell/sim/requests {"total": N, "GET /source": n, ...}: every WDA request it
                                  received, by route (`wda_routes.route_name`), reads too
    GET  /phoneshell/sim/ledger   {"total": N, "inputs": [...]}: every input it received
                                  (`?since=N`: only those after the Nth)

The POST routes change the phone (its faults, its state, its clock): with `control_open=False`
(how `phoneshell sim` serves them unless started with `--open-control` or `--secret-path`) they
answer 403, so a program that finds the port cannot switch a fault or reset the phone while a
run uses it; the GET routes only read, as WDA's own routes do.

With a secret (`SimServer(secret=...)`, `phoneshell sim --secret-path`), every route, WDA's and
the control routes, is served only under `/<secret>/`; anything else answers a bare 404, so a
process that finds the port finds nothing it can use. The harness starts its simulators so, and
never hands the secret to an agent: an agent reaches the phone only through the bridge.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
import time
from collections import Counter, deque
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from phoneshell.awake import until
from phoneshell.errors import PhoneshellError
from phoneshell.sim.apps import AppModel
from phoneshell.sim.control import CONTROL_PREFIX, NOTIFY_EXAMPLE, control
from phoneshell.sim.endpoints import Endpoints
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.faults import Faults
from phoneshell.sim.latency import Latency
from phoneshell.sim.listener import SimHTTPServer
from phoneshell.sim.phone import Phone
from phoneshell.sim.state_file import load_state, save_state
from phoneshell.sim.store import JSON
from phoneshell.sim.wire import Reply, WdaError, json_object
from phoneshell.wda_routes import find_route, is_input, route_name

LEDGER_MAX = 100_000
"""Inputs the ledger keeps (the oldest go first; its total still counts them)."""
HEALTH_PAGE = ("<!DOCTYPE html><html><title>Health Check</title><body><p>I-AM-ALIVE</p></body>"
               "</html>")
"""What current WDA answers on /health (tidevice's keeper looks for I-AM-ALIVE)."""


class SimServer:
    """A simulated iPhone speaking WDA over HTTP. Use as a context manager, or start/stop.

    Args:
        host: address to bind (loopback by default).
        port: port to bind; 0 picks a free one (see `url` after `start`).
        state_file: JSON state loaded at start if it exists and written on stop.
        faults: faults switched on from the start, e.g. ["locked", "slow=0.5"].
        facts: device facts (default: the phone of `seed`).
        seed: which phone (`DeviceFacts.drawn`): 0, the reference phone (iPhone 17 Pro, iOS
            26.2, the reference dumps' values); another, a phone whose model and serial
            numbers, battery, heading and temperature are drawn from it. Not with `facts`.
        apps: installed app models (default: every built-in app).
        locale: the region format every screen follows (en_US, en_GB); overrides `facts`.
        secret: serve every route only under `/<secret>/` (see the module docstring).
        control_open: serve the control routes that change the phone (POST); False: they
            answer 403 (see the module docstring).
        latency: "iphone" delays each WDA route as a real iPhone takes to answer it
            (`sim/latency.py`); "none" delays nothing. Both count requests in `latency.tally`.
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0,
                 state_file: str | Path | None = None, faults: Iterable[str] = (), *,
                 facts: DeviceFacts | None = None,
                 apps: Sequence[AppModel[Any]] | None = None,
                 locale: str | None = None, secret: str | None = None,
                 latency: str = "none", seed: int = 0, control_open: bool = True) -> None:
        if facts is not None and seed:
            raise PhoneshellError("a simulated iPhone takes device facts or a seed, not both",
                                  hint="leave out seed, or facts")
        if secret is not None and (not secret.isalnum() or len(secret) < 16):
            raise PhoneshellError("a simulator secret must be 16 or more letters and digits",
                                  hint="SimServer.new_secret() makes one")
        self.host, self.port = host, port
        self.secret = secret
        self.control_open = control_open
        """The control routes that change the phone are served (False: they answer 403)."""
        self.latency = Latency(latency)
        self.state_file = Path(state_file) if state_file is not None else None
        self.seed = seed
        """The seed the phone's facts were drawn from (0: the reference phone, or `facts`)."""
        facts = facts or DeviceFacts.drawn(seed)
        if locale is not None:
            facts = facts.updated({"locale": locale})
        self.phone = Phone(facts, apps)
        self.lock = threading.RLock()
        """Held while any request works on the phone; hold it to touch `phone` directly."""
        self._faults = Faults()
        self.endpoints = Endpoints(self.phone, lambda: self._faults)
        self._counts: Counter[str] = Counter()
        self._ledger: deque[dict[str, JSON]] = deque(maxlen=LEDGER_MAX)
        self._ledger_total = 0
        self._books = threading.Lock()
        """Guards the request counts and the ledger (requests are served on many threads)."""
        self._httpd: SimHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._stop_asked = False
        """`request_stop` was called: a plain flag, which a signal handler may set (see there)."""
        self.set_faults(faults)

    @staticmethod
    def new_secret() -> str:
        """A fresh random secret for `secret=` (128 bits, hex)."""
        return secrets.token_hex(16)

    @property
    def url(self) -> str:
        """The base URL to give facebook-wda, e.g. http://127.0.0.1:8100 (with the secret path
        when there is one)."""
        base = f"http://{self.host}:{self.port}"
        return f"{base}/{self.secret}" if self.secret else base

    @property
    def instance_id(self) -> str:
        """This simulator's id, as `/status` reports it."""
        return self.endpoints.instance_id

    def inside_secret(self, path: str) -> str | None:
        """The path with the secret prefix taken off (None: not under the secret)."""
        if self.secret is None:
            return path
        first, _, rest = path.lstrip("/").partition("/")
        if not hmac.compare_digest(first.encode(), self.secret.encode()):
            return None
        return "/" + rest

    def request_counts(self) -> dict[str, int]:
        """How many WDA requests each route got ("GET /source": n), and "total": each counted
        as it arrives, before it waits for the phone (one still working counts), never the
        control routes. Read without the phone's lock, so a busy phone still answers it."""
        with self._books:
            return {"total": sum(self._counts.values()), **self._counts}

    def ledger(self, since: int = 0) -> tuple[int, list[dict[str, JSON]]]:
        """Every input received (each `n`, `t`, `method`, `path`, `route`), after the `since`th;
        and how many were received in all."""
        with self._books:
            return self._ledger_total, [e for e in self._ledger
                                        if isinstance(e["n"], int) and e["n"] > since]

    def arrived(self, method: str, path: str) -> None:
        """Count a WDA request (a control route is none) and, when it is an input, write it in
        the ledger: called by the listener as each request's head arrives, in the order heads
        arrive, before it waits for a thread or the phone, so whatever was sent before a read
        of the counts is in them, and a request the phone never gets to still counts."""
        if path.startswith(CONTROL_PREFIX):
            return
        found = find_route(method, tuple(p for p in path.split("/") if p))
        route = route_name(method, found)
        with self._books:
            self._counts[route] += 1
            if found is not None and is_input(method, found.pattern):
                self._ledger_total += 1
                self._ledger.append({"n": self._ledger_total, "t": time.time(),
                                     "method": method, "path": path, "route": route})

    @property
    def faults(self) -> Faults:
        """The faults switched on."""
        return self._faults

    def __enter__(self) -> SimServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> SimServer:
        """Load the state file (if any), then start listening (unless the gone fault is on).

        Raises:
            PhoneshellError: the state file is unreadable, or the port cannot be bound.
        """
        if self.state_file is not None and self.state_file.exists():
            try:
                data = json.loads(self.state_file.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise PhoneshellError(f"cannot read simulator state {self.state_file}: {exc}",
                                      hint="fix or delete the file") from exc
            with self.lock:
                load_state(self.phone, data)
        self._stopping.clear()
        self._stop_asked = False
        if not self._faults.on("gone"):
            self._listen()
        return self

    def stop(self) -> None:
        """Stop listening and write the state file (if one was given)."""
        self._stopping.set()
        self._close()
        if self.state_file is not None:
            self.save()

    def serve_forever(self) -> None:
        """Block until `request_stop` (or Ctrl-C), then stop; for `phoneshell sim`."""
        try:
            # in slices: a signal one of the phone's threads took is handled only then
            until(lambda: self._stop_asked or self._stopping.is_set())
        except KeyboardInterrupt:
            pass
        finally:
            self.stop()

    def request_stop(self) -> None:
        """Make `serve_forever` return within a fifth of a second, from another thread or a
        signal handler: it takes no lock. A handler runs on the main thread between two of its
        instructions, maybe while that holds the lock of the very event it would set
        (`threading.Event.set` there never returns: `phoneshell sim` hung on a SIGTERM that
        came as its wait's slice ended)."""
        self._stop_asked = True

    def _listen(self) -> None:
        if self._httpd is not None:
            return
        try:
            httpd = SimHTTPServer((self.host, self.port), self)
        except OSError as exc:
            raise PhoneshellError(f"cannot listen on {self.host}:{self.port}: {exc}",
                                  hint="pick another --port, or stop what is using it") from exc
        self.port = httpd.server_address[1]
        self._httpd = httpd
        # shutdown() waits up to one poll interval: keep it short, tests start and stop a lot.
        self._thread = threading.Thread(target=httpd.serve_forever,
                                        kwargs={"poll_interval": 0.01},
                                        name=f"phoneshell-sim-{self.port}", daemon=True)
        self._thread.start()

    def _close(self) -> None:
        httpd, thread = self._httpd, self._thread
        self._httpd = self._thread = None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    # -- faults, reset, save ----------------------------------------------------------------

    def power_on(self) -> None:
        """Turn on a phone an agent turned off (the power-off slider): it boots locked, with no
        app running, and answers again on its port."""
        with self.lock:
            self.phone.power_on()
        if not self._faults.on("gone") and not self._stopping.is_set():
            self._listen()

    def start_wda(self) -> None:
        """Start WDA again after an agent stopped it (its App Switcher card swiped up): the
        phone is as it was, and answers again on its port."""
        with self.lock:
            self.phone.start_wda()
        if not self._faults.on("gone") and not self._stopping.is_set():
            self._listen()

    def set_faults(self, specs: Iterable[str]) -> None:
        """Switch exactly these faults on (all others off).

        Raises:
            PhoneshellError: an unknown fault name.
        """
        new = Faults.parse(specs)
        with self.lock:
            old, self._faults = self._faults, new
            if new.on("locked") and not old.on("locked"):
                self.phone.lock()
            elif old.on("locked") and not new.on("locked"):
                self.phone.unlock()
        if new.on("gone") and not old.on("gone"):
            self._close()
        elif old.on("gone") and not new.on("gone") and not self._stopping.is_set():
            self._listen()

    def fault_on(self, spec: str) -> None:
        """Switch one fault on, e.g. "drop-writes" or "slow=0.5"."""
        name = spec.partition("=")[0]
        self.set_faults([*(s for s in self._faults.specs() if s.partition("=")[0] != name),
                         spec])

    def fault_off(self, name: str) -> None:
        """Switch one fault off."""
        self.set_faults(s for s in self._faults.specs() if s.partition("=")[0] != name)

    def reset(self) -> None:
        """A freshly booted phone with empty stores; faults and the session stay."""
        with self.lock:
            self.phone.reset()
            if self._faults.on("locked"):
                self.phone.lock()

    def save(self, path: str | Path | None = None) -> Path:
        """Write the persistent state (app stores, fact overrides) as JSON; return where.

        Args:
            path: where to write (in-process callers only: the control route saves only to the
                state file the simulator was started with, so a request cannot write a file
                anywhere the simulator's user can).

        Raises:
            PhoneshellError: no path given and no state file configured, or the write failed.
        """
        target = Path(path) if path is not None else self.state_file
        if target is None:
            raise PhoneshellError("no state file to save to",
                                  hint="start the simulator with --state FILE, or pass a path")
        with self.lock:
            data = save_state(self.phone)
        try:
            target.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n",
                              encoding="utf-8")
        except OSError as exc:
            raise PhoneshellError(f"cannot write simulator state to {target}: {exc}",
                                  hint="check the directory exists and is writable") from exc
        return target

    def state(self) -> dict[str, JSON]:
        """A snapshot for tests and the state route: front app, running apps, lock, stores."""
        with self.lock:
            phone = self.phone
            return {"foreground": phone.active()[0], "running": list[JSON](sorted(phone.running)),
                    "installed": list[JSON](sorted(app.bundle_id for app in phone.apps())),
                    "locked": phone.locked, "powered_off": phone.powered_off,
                    "wda_stopped": phone.wda_stopped,
                    "faults": list[JSON](self._faults.specs()),
                    "session": self.endpoints.session_id, "volume": phone.volume,
                    "clock_s": phone.clock_s, "seed": self.seed,
                    "stores": save_state(phone)["stores"], "facts": phone.facts.to_json()}

    def advance_clock(self, seconds: float) -> float:
        """Move the phone's running clock forward (stopwatches, timers); return its reading.

        Raises:
            PhoneshellError: `seconds` is negative.
        """
        with self.lock:
            try:
                self.phone.advance_clock(seconds)
            except ValueError as exc:
                raise PhoneshellError(str(exc), hint='e.g. {"advance": 1.5}') from exc
            return self.phone.clock_s

    def notify(self, app: str, title: str, body: str = "") -> None:
        """Post a notification from an installed app (its banner comes up over any screen).

        Raises:
            PhoneshellError: the app is not installed, or title and body are both empty.
        """
        with self.lock:
            try:
                self.phone.post_notification(app, title, body)
            except ValueError as exc:
                raise PhoneshellError(str(exc), hint=NOTIFY_EXAMPLE) from exc

    # -- requests -----------------------------------------------------------------------------

    def dispatch(self, method: str, path: str, query: dict[str, str], raw: bytes) -> Reply:
        """Answer one HTTP request (called on the server's handler threads)."""
        if path.startswith(CONTROL_PREFIX):
            return control(self, method, path[len(CONTROL_PREFIX):], query, raw)
        faults = self._faults
        if faults.on("slow"):
            time.sleep(faults.slow_s)  # outside the lock: a slow phone still takes requests
        if path == "/health":
            return Reply(200, HEALTH_PAGE.encode(), "text/html;charset=UTF-8")
        with self.lock:
            try:
                body = json_object(raw)
            except WdaError as exc:
                return Reply.error(exc, self.endpoints.reported_session())
            # Inside the lock: a phone answers WDA commands one at a time.
            time.sleep(self.latency.charge(method, path, query, body))
            with self.phone.one_request():
                reply = self.endpoints.handle(method, path, query, body)
            self.latency.tally.answered(reply.body)
            if (self.phone.powered_off or self.phone.wda_stopped) and self._httpd is not None:
                # the answer still goes out; then the phone is off (or WDA stopped), and
                # nothing listens
                threading.Thread(target=self._close, name="phoneshell-sim-off",
                                 daemon=True).start()
            return reply
