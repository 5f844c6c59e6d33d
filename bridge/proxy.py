"""The bridge server: a WDA-protocol HTTP proxy in front of one phone that logs every action.

Every request is admitted once (`gate.py`: one canonical form, or refused), classified
(`actions.py`), and forwarded in that canonical form: reads unlogged (but observed for custody),
actions through the recorder, which writes the intent before forwarding and the outcome after.
What is not a WDA route, cannot be read one way only, or would end WDA is refused and, when a
known client sent it, logged as `refused`. The bridge's own routes live under
`/phoneshell/bridge/` and need the control token, which only the runner holds; any other
`/phoneshell/` route (a simulator's control routes) is refused, never forwarded. Binds loopback
unless told otherwise; with a token (`access.py`) every request needs it or the current agent's
grant, and a revoked grant is refused. A grant also ends when its agent has used up its share of
the audit log (`shares.py`): what it sends after is refused and counted, not
logged, so no agent can make the log too big to read.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
from pathlib import Path
from types import TracebackType

from bridge.access import TOKEN_PATH, Access, Admitted, is_loopback
from bridge.actions import classify_request
from bridge.audit_log import AuditWriteError, AuditWriter, shared_writer
from bridge.context import UNSCOPED, RunContext, make_context
from bridge.control_routes import CONTROL_PREFIX, serve_control
from bridge.custody import Custody
from bridge.gate import Canonical, Refused, admit
from bridge.http_server import BridgeHTTPServer, wda_error
from bridge.looks import Looks, ScreenMark
from bridge.observe import from_read
from bridge.recorder import Recorder
from bridge.shares import AGENT_LOG_BYTES, ShareSpent
from bridge.trajectory import SCREENSHOT_ROUTE, Trajectory
from bridge.upstream import ForwardError, Reply, Upstream, as_a_phone_answers
from phoneshell.errors import NOTHING_LISTENS, BridgeError

log = logging.getLogger("bridge")

FOREIGN_PREFIX = "/phoneshell/"
"""Control routes of whatever is behind the bridge (a simulator's faults, reset, save): never
forwarded, whoever asks."""
FORWARDED_HEADERS = frozenset({"accept", "user-agent"})
"""The client headers passed on (the bridge sets Content-Type and Content-Length itself, for
the body it re-serialised); anything else could make WDA read the request otherwise."""


STATUS_ROUTE = "/status"


DEFAULT_SETTLE_S = 2.0
"""How long after an action a real phone may still be finishing it (an app opening)."""
AGENT_READS_AT_ONCE = 2
"""How many of an agent's reads the bridge sends the phone at once; more wait in the bridge. WDA
answers one request at a time, so a hundred reads sent at once queue at the phone, 20 s of them
at a real phone's 200 ms a source, and an agent that sends them just before it finishes would
keep the harness's reads after its turn waiting past their timeout (the phone taken for down,
the attempt not scored). Those still waiting in the bridge when its grant ends are refused. Two
let an agent read the screen and its picture together."""


class BridgeServer:
    """A logging WDA proxy for one phone; start it, point any WDA client at `.url`.

    Args:
        wda_url: the phone's WDA (`http://...` or `http+usbmux://UDID:8100`).
        host: address to bind; anything but loopback needs `allow_remote` and a `token`.
        port: port to bind (0: any free port).
        runs_dir: where run folders (and their audit.jsonl) go.
        resolve_targets: find the element under every tap (keys are always resolved).
        token: when set, every request must carry it (`/t/TOKEN/...` or X-Phoneshell-Token),
            or the grant of the current agent (`grant_agent`).
        control_token: the token the bridge's own routes need (header
            X-Phoneshell-Control-Token); keep it from the agent. Without one, those routes are
            refused over HTTP and the context is set in-process only (`set_context`).
        allow_remote: permit a non-loopback `host`.
        fsync: fsync every audit line (power-loss durability; kill -9 needs no fsync).
        writer: the audit writer to use (default: the process's writer for `runs_dir`).
        custody: how changes between actions are judged (default: a real phone's, with a
            2-second settle window and front-app comparisons only).
        trajectory: when given, a screenshot at the start of each agent turn and after each
            agent action goes to it (bridge/trajectory.py); share one among a run's bridges.
        agent_log_bytes: how much of the audit log each agent's turn may write
            (`grant_agent`); past it the grant ends.

    Raises:
        BridgeError: a remote bind without `allow_remote` and a token, a control token equal to
            the token, or a bad WDA URL.
    """

    def __init__(self, wda_url: str, host: str = "127.0.0.1", port: int = 0,
                 runs_dir: Path = Path("runs"), resolve_targets: bool = True,
                 token: str | None = None, allow_remote: bool = False, fsync: bool = False,
                 writer: AuditWriter | None = None, control_token: str | None = None,
                 custody: Custody | None = None, trajectory: Trajectory | None = None,
                 agent_log_bytes: int = AGENT_LOG_BYTES) -> None:
        if not is_loopback(host) and not (allow_remote and token):
            raise BridgeError(f"refusing to bind the bridge to {host}: it would let anyone on "
                              f"the network drive the phone",
                              hint="bind 127.0.0.1, or pass --allow-remote with --token")
        if control_token and control_token == token:
            raise BridgeError("the control token is the same as the token: whoever drives the "
                              "phone could then change the run its actions are logged under",
                              hint="use a separate control token, and keep it from the agent")
        self.host, self.port = host, port
        self.access = Access(token)
        self.control_token = control_token or None
        self.upstream = Upstream(wda_url)
        self.writer = writer or shared_writer(runs_dir, fsync)
        self.recorder = Recorder(self.upstream, self.writer, resolve_targets,
                                 custody or Custody(settle_s=DEFAULT_SETTLE_S))
        self.trajectory = trajectory
        if trajectory is not None:
            self.recorder.after_action = functools.partial(trajectory.after,
                                                           self.recorder.own_read)
        self.looks = Looks(self.recorder.custody)
        self._agent_reads = threading.BoundedSemaphore(AGENT_READS_AT_ONCE)
        self.agent_log_bytes = agent_log_bytes
        self._granted_for = UNSCOPED
        """The context the last grant was made in (its attempt's share of the log)."""
        self.confined = False
        """Nothing but this bridge can reach the phone now (the runner says so per attempt):
        what the last action left needs no read before the next."""
        self._context = UNSCOPED
        self._server: BridgeHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def token(self) -> str | None:
        """The bridge's own token (None: none)."""
        return self.access.token

    @property
    def base_url(self) -> str:
        """http://HOST:PORT, with no secret in it."""
        if self._server is None:
            raise BridgeError("the bridge is not started", hint="call start() first")
        host, port = self._server.socket.getsockname()[:2]
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}"

    @property
    def url(self) -> str:
        """The base URL the token's holder uses (with the token path prefix when there is one).
        Never hand it to an agent: `grant_agent` makes the agent's."""
        return f"{self.base_url}{TOKEN_PATH}{self.token}" if self.token else self.base_url

    def grant_agent(self, confined: bool = False, max_steps: int | None = None) -> str:
        """A URL for the agent of one attempt, with a secret of its own (any earlier grant ends).

        Args:
            confined: the agent cannot reach the phone but through this bridge (it runs
                sandboxed, or in-process without a shell), so custody needs no reads before
                its actions; otherwise every action is preceded by one.
            max_steps: its task's budget, which bounds the frames its turn keeps (trajectory
                capture: `Trajectory.allow`); None: the default bound.

        Raises:
            BridgeError: the bridge has no token of its own.
        """
        if not confined:
            # An agent that can reach the phone around the bridge must not find an after
            # pending: what it did first would be taken for the last logged action's doing.
            self.recorder.settle()
        secret = self.access.grant(for_=self._context)
        self._granted_for = self._context
        self.writer.open_share(self._context, self.agent_log_bytes)
        if self.trajectory is not None and max_steps is not None:
            self.trajectory.allow(self._context, max_steps)
        self.confined = confined
        return f"{self.base_url}{TOKEN_PATH}{secret}"

    def agent_cut_off(self) -> str:
        """Why the agent's grant ended before its attempt did (its share of the log was used
        up); "" while it stands. Its runner stops it then: nothing it sends can reach the
        phone any more."""
        return self.access.cut_off()

    def revoke_agent(self) -> None:
        """End the agent's grant: its URL stops working at once (later requests are refused and
        logged as the agent's). An action of the agent's on its way to the phone ends first;
        those waiting their turn behind it are refused, so none reaches the phone after this.
        When its share of the log ran out, how many of its lines were refused since is logged
        (one line)."""
        self.access.revoke()
        with self.recorder.exclusive():
            pass  # what was on its way when the grant ended has reached the phone
        try:
            self.writer.close_share(self._granted_for)
        except AuditWriteError as exc:
            log.error("could not log the count of an agent's refused lines: %s", exc.message)

    @property
    def context(self) -> RunContext:
        """The context stamped on the next action."""
        return self._context

    @property
    def last_foreground(self) -> str:
        """The foreground app read around the last action ("" before any)."""
        return self.recorder.last_foreground

    def screen_mark(self) -> ScreenMark | None:
        """The front app and screen digest a whole read made since the last action showed
        (`Looks.mark`). Take it before reading again: `shows` then says whether a later source
        shows the same screen, which held still in between."""
        with self.recorder.exclusive():
            return self.looks.mark()

    shows = staticmethod(Looks.shows)

    def screen_look(self) -> bytes | None:
        """The last screenshot a client took after the last action (`Looks.picture`). Capture
        compares its own screenshot with it: the same picture means the screen held still from
        that look to now."""
        return self.looks.picture()

    def set_context(self, run_id: str, task_id: str, attempt: int, phase: str) -> RunContext:
        """Log the next actions under this run, task, attempt and phase.

        Raises:
            BridgeError: a run id that is not a plain folder name, or an unknown phase.
        """
        return self.enter(make_context(run_id, task_id, attempt, phase))

    def enter(self, context: RunContext) -> RunContext:
        """Log what comes next under `context`. With trajectory capture on, an agent's turn
        starts with a frame of the screen it is handed, read like an action's (holding the
        action lock)."""
        now = self._context
        if (context.run_id, context.task_id, context.attempt) != (now.run_id, now.task_id,
                                                                 now.attempt):
            # An attempt's log is whole when the next one starts, but for a harness step's
            # after (most often teardown's terminate): the next setup's first whole read is
            # that, and the step's outcome line still comes before any next intent.
            self.recorder.settle(agents_only=True)
        self._context = context
        if self.trajectory is not None:
            with self.recorder.exclusive():
                self.trajectory.start(self.recorder.own_read, self._context,
                                      self.recorder.last_seq)
        return context

    def clear_context(self) -> None:
        """Log the next actions under the unscoped run (the last agent action's outcome
        written; a harness step's may wait for the next whole read, as at an attempt change)."""
        self.recorder.settle(agents_only=True)
        self._context = UNSCOPED

    def health(self) -> dict[str, object]:
        """What `GET /phoneshell/bridge/health` shows (never the phone's own URL: whoever reads
        it could drive the phone around the bridge)."""
        return {"ready": True,
                "last_foreground": self.recorder.last_foreground,
                "actions_logged": self.recorder.actions_logged,
                "own_reads": self.recorder.own_reads,
                "last_seq": self.recorder.last_seq,
                "outcomes_lost": self.recorder.outcomes_lost,
                "resolve_targets": self.recorder.resolve_targets,
                "agent_granted": self.access.granted, "confined": self.confined,
                "agent_log": self._share_health(),
                "context": self._context.to_json(),
                "audit_file": str(self.writer.path_for(self._context.run_id))}

    def _share_health(self) -> dict[str, object] | None:
        """The last grant's share of the log, as the health route shows it (None: no grant)."""
        share = self.writer.shares.of(self._granted_for) if self._granted_for.scoped else None
        if share is None:
            return None
        return {"limit": share.limit, "bytes": share.used, "lines": share.lines,
                "spent": share.spent, "dropped": share.dropped}

    def start(self) -> BridgeServer:
        """Bind and serve in a background thread; return self."""
        if self._server is not None:
            return self
        server = BridgeHTTPServer((self.host.strip("[]"), self.port), self)
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, kwargs={
            "poll_interval": 0.05}, name=f"bridge:{server.server_address[1]}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and release the port (the shared writer stays open for other bridges)."""
        server, self._server = self._server, None
        if server is not None:
            self.recorder.settle()  # no outcome line left unwritten
            server.shutdown()
            server.server_close()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def __enter__(self) -> BridgeServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    def handle(self, method: str, admitted: Admitted, body: bytes, headers: dict[str, str],
               control_token: str | None = None) -> Reply:
        """Answer one authorised request: a control route, a read, or a logged action.

        Args:
            admitted: who sent it, and its path with any secret taken off (`Access.admit`).
                An agent's request is refused once its grant ends, however late its body or
                its turn at the phone comes; it is logged under the attempt it belonged to.
            headers: the client's headers (tokens already removed).
            control_token: the X-Phoneshell-Control-Token header, if sent.
        """
        path, actor = admitted.path, admitted.actor
        attempt = admitted.grant if isinstance(admitted.grant, RunContext) else None
        if path.startswith(CONTROL_PREFIX) and actor != "revoked":
            return serve_control(self, method, path, body, control_token)
        try:
            self.access.require(admitted)
            if path.startswith(FOREIGN_PREFIX):
                raise Refused("control routes of the phone behind the bridge are not "
                              "forwarded", 403, "unsupported operation")
            request = admit(method, path, headers, body)
            action = classify_request(request)
        except Refused as exc:
            return self._refuse(method, path, exc, attempt if actor != "harness" else None,
                                admitted)
        try:
            if action is None:
                with self._agent_reads if actor == "agent" else contextlib.nullcontext():
                    self.access.require(admitted)  # its turn may come after its grant ended
                    reply = self._read(request, headers)
                    if actor != "harness" and request.route.pattern == STATUS_ROUTE:
                        return as_a_phone_answers(reply)
                    return reply
            return self.recorder.perform(self._context, action,
                                         lambda: self._forward(request, headers),
                                         request.describe(), request.body, self.confined,
                                         still_allowed=lambda: self.access.require(admitted))
        except Refused as exc:  # the agent's grant ended while its request waited its turn
            return self._refuse(method, path, exc, attempt, admitted)
        except ShareSpent as exc:  # nothing was forwarded: the agent's turn ends here
            self.access.end(admitted, exc.message)
            return wda_error(401, "unauthorized", f"phoneshell bridge refused "
                                                  f"{request.describe()}: {exc.message}")
        except ForwardError as exc:
            # 502 is what a gateway says when the server behind it is gone; facebook-wda raises
            # WDABadGateway for it, which no caller mistakes for the agent's own WDA error.
            hint = f" ({exc.hint})" if exc.hint else ""
            return self._failed(502, actor, f"{exc.message}{hint}", exc.shown, exc.refused)
        except AuditWriteError as exc:
            refused = f"refused {request.describe()}: "
            not_sent = "; the action was NOT sent to the phone"
            return self._failed(500, actor, refused + exc.message + not_sent,
                                refused + "the audit log could not be written" + not_sent)

    @staticmethod
    def _failed(status: int, actor: str, whole: str, shown: str,
                nothing_listens: bool = False) -> Reply:
        """The answer to a request the bridge could not carry through: the harness (and anyone
        on a bridge without a token, which grants no agent anything) gets the whole story; an
        agent the request and what went wrong, never the phone's host or a file of the
        harness's. Where nothing listens for WDA (`ForwardError.refused`), the error says so
        in `nothing_listens`, for a client to tell a phone gone from one slow to answer."""
        told = whole if actor in ("harness", "open") else shown
        return wda_error(status, "unknown error", f"phoneshell bridge: {told}",
                         {NOTHING_LISTENS: True} if nothing_listens else None)

    def _forward(self, request: Canonical, headers: dict[str, str]) -> Reply:
        """Send the canonical request: its rebuilt target, its re-serialised body."""
        kept = {k: v for k, v in headers.items() if k.lower() in FORWARDED_HEADERS}
        data = request.data
        if data is not None:
            kept["Content-Type"] = "application/json"
        return self.upstream.send(request.method, request.target, data, kept)

    def _read(self, request: Canonical, headers: dict[str, str]) -> Reply:
        """Forward a read, and note what it showed of the phone (a client's screenshot taken
        after the last action, racing none, is kept: `screen_look`)."""
        token = self.recorder.custody.read_token()
        reply = self._forward(request, headers)
        if (request.method, request.route.pattern) == ("GET", SCREENSHOT_ROUTE):
            self.looks.keep(token, reply)
        seen = from_read(request.method, request.route.pattern, request.query, reply.status,
                         reply.body)
        self.recorder.observe(self._context, seen, f"{request.method} {request.route.pattern}",
                              token)
        return reply

    def _refuse(self, method: str, path: str, exc: Refused, context: RunContext | None = None,
                admitted: Admitted | None = None) -> Reply:
        """Log a refused request (under `context`, else the current one) and answer WDA's
        error; when its sender's share of the log is used up, end its grant (`admitted`)
        instead, and write nothing."""
        shown = path.split("?", 1)[0][:200]
        try:
            self.writer.write_refusal(context or self._context, "other", {"route": shown,
                                                              "method": method[:16]},
                                      exc.reason)
        except ShareSpent as spent:  # counted, never written: the agent has filled its share
            if admitted is not None:
                self.access.end(admitted, spent.message)
            return wda_error(401, "unauthorized", f"phoneshell bridge refused {method} "
                                                  f"{shown}: {spent.message}")
        except AuditWriteError as error:  # refused either way: a full disk is no 500 for it
            log.error("refused %s %s but could not log it: %s", method, shown, error.message)
        return wda_error(exc.status, exc.error,
                         f"phoneshell bridge refused {method} {shown}: {exc.reason}")
