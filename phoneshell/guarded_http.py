"""An HTTP server that a client without a secret cannot exhaust: strict framing, deadlines, caps.

Both loopback listeners, the bridge and the simulated iPhone, take connections from any local
process, an agent's included, before they know who sent them. So nothing a client sends may
cost the server more than a bounded share of memory, threads and time:

* A connection costs no thread until its request head (request line and headers, at most
  `HEAD_MAX_BYTES`) has arrived whole: the server's own thread reads every head on its way
  without blocking. A head not whole `HEAD_TIMEOUT_S` after its connection was taken is
  dropped, and while `waiting_max` connections wait, each new one drops the one that waited
  longest: a flood of idle connections costs file descriptors up to a bound, never threads,
  and never shuts a later client out.
* A whole head is sorted into a pool by who sent it (`classify`: the harness's token, an agent's
  grant, nobody known). Each pool has threads of its own, so a flood of one kind never takes
  another's: the harness's reads are served while an agent has used all of its pool. A request
  that finds its pool's threads busy waits its turn, threadless, behind at most
  `QUEUED_PER_THREAD` per thread; past that it is answered 503 at once. The sorting is no
  authorisation (the handler checks the secret again on the parsed request): it only decides
  whose threads a request uses.
* The body must have arrived `REQUEST_TIMEOUT_S` after a thread took the request up (a sender
  of a byte a minute gets 408), and the client must take the answer within `WRITE_TIMEOUT_S`.
* The body's framing is read strictly (`read_body`), and every method and every malformed
  request is answered in WDA's JSON error shape (`GuardedHandler`): both in `http_request`,
  the request side, re-exported here.

One request per connection: each answer closes it, as both servers always did. facebook-wda
opens a connection per request, and a client that keeps one alive reconnects when it is closed,
so nothing idles between requests for the timeouts to cut.
"""

from __future__ import annotations

import contextlib
import errno
import re
import selectors
import socket
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, Literal

from phoneshell.http_request import (
    JSON_TYPE,
    Arrival,
    BadRequest,
    GuardedHandler,
    TooLarge,
    error_name,
    read_body,
    wda_error_body,
)

__all__ = ["Arrival", "BadRequest", "GuardedHTTPServer", "GuardedHandler", "TooLarge",
           "error_name", "read_body", "wda_error_body", "JSON_TYPE"]

HEAD_MAX_BYTES = 64 * 1024
"""The longest request head taken (the standard library's own line limit)."""
HEAD_TIMEOUT_S = 10.0
"""How long a connection may take to send its whole head (a client sends it at once)."""
REQUEST_TIMEOUT_S = 30.0
"""How long a request may take to arrive whole, body included, from when a thread took it up:
64 MiB on loopback takes well under a second."""
QUEUED_PER_THREAD = 4
"""Requests that may wait for a pool's thread, per thread (a burst of an agent's reads)."""
WRITE_TIMEOUT_S = 30.0
"""How long a client may take to take its answer (a screenshot is a few MiB)."""
ERRORS_SHOWN = 10
"""Caught errors reported with their tracebacks on stderr, per listener (then only counted)."""

_GONE_BEFORE_TAKEN = {errno.ECONNABORTED, errno.EPROTO, errno.ENETDOWN, errno.ENOPROTOOPT,
                      errno.EHOSTDOWN, errno.ENONET, errno.EHOSTUNREACH, errno.EOPNOTSUPP,
                      errno.ENETUNREACH, errno.EPERM}
"""accept(2) errors about one connection, not the listening socket (Linux passes its pending
network errors on to accept, and a firewall may refuse one: EPERM)."""
_OUT_OF_RESOURCES = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}

_HEAD_END = re.compile(rb"\r?\n\r?\n")


def _waiting_max() -> int:
    """How many connections may wait for their heads: a share of the process's descriptors."""
    try:
        import resource  # POSIX only
    except ImportError:  # pragma: no cover - Windows
        return 256
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return 512 if soft == resource.RLIM_INFINITY else max(16, min(512, soft // 8))


class _Pool:
    """The threads for one kind of request, and the requests waiting for one."""

    def __init__(self, threads: int) -> None:
        self.threads = threads
        self.busy = 0
        self.queue: deque[Arrival] = deque()
        self._lock = threading.Lock()

    def take(self, arrival: Arrival) -> Literal["serve", "queued", "full"]:
        """Give a request a thread (serve it now), a place in the queue, or neither."""
        with self._lock:
            if self.busy < self.threads:
                self.busy += 1
                return "serve"
            if len(self.queue) < QUEUED_PER_THREAD * self.threads:
                self.queue.append(arrival)
                return "queued"
            return "full"

    def next(self) -> Arrival | None:
        """The next request for a thread that is done with its last (None: it ends)."""
        with self._lock:
            if self.queue:
                return self.queue.popleft()
            self.busy -= 1
            return None

    def give_back(self) -> None:
        """A thread `take` counted never started: its place is free again."""
        with self._lock:
            self.busy -= 1


Classify = Callable[[str, str, Mapping[str, str]], str]
"""(method, target, headers with lower-case names) -> the pool a request's thread comes from."""


class GuardedHTTPServer(HTTPServer):
    """An HTTP server with the bounds the module docstring lists (each `*_timeout_s` can be set
    on an instance, before it serves).

    Args:
        pools: threads each pool may use at once, by name.
        classify: which pool a request's head belongs to (default: the first pool).
    """

    request_queue_size = 128  # a burst of new connections waits in the kernel, not refused
    head_timeout_s = HEAD_TIMEOUT_S
    request_timeout_s = REQUEST_TIMEOUT_S
    write_timeout_s = WRITE_TIMEOUT_S

    def __init__(self, address: tuple[str, int], handler: type[GuardedHandler],
                 pools: Mapping[str, int], classify: Classify | None = None) -> None:
        # set before the socket is bound: a bind that fails (the port taken) closes the server
        # from inside the base class's __init__, and `server_close` reads these
        self._waiting: dict[socket.socket, Arrival] = {}  # in the order taken
        super().__init__(address, handler)
        self.socket.setblocking(False)
        self.waiting_max = _waiting_max()
        self._pools = {name: _Pool(n) for name, n in pools.items()}
        self._classify = classify or (lambda method, target, headers: next(iter(pools)))
        self._selector: selectors.BaseSelector | None = None
        self._stop_asked = False
        self._stopped = threading.Event()
        self.errors = 0
        """Errors caught while serving one connection or between requests (each reported)."""
        self.failure = ""
        """Why serving ended on an error of the listening socket's own ("": it did not)."""

    def serve_forever(self, poll_interval: float = 0.5) -> None:
        """Take connections and read their heads until `shutdown`.

        Nothing a client does ends the loop: an arrival dropped earlier in a select round is
        skipped when its own event comes up, and an error while taking or reading one
        connection drops that connection alone (`report_error`). Only the listening socket's own
        failure ends it, and then the port is closed, so clients are refused instead of left
        waiting, and the failure is on stderr and in `failure`.
        """
        self._stopped.clear()
        try:
            with selectors.DefaultSelector() as selector:
                self._selector = selector
                selector.register(self.socket, selectors.EVENT_READ)
                for arrival in self._waiting.values():  # kept from an earlier serve_forever
                    selector.register(arrival.sock, selectors.EVENT_READ, arrival)
                self._loop(selector, poll_interval)
        except Exception as exc:  # noqa: BLE001 - the port is closed and it is said
            self._selector = None
            self._fail(exc)
        finally:
            self._selector = None  # closed with its `with`: nothing is registered any more
            self._stop_asked = False
            self._stopped.set()

    def _loop(self, selector: selectors.BaseSelector, poll_interval: float) -> None:
        serviced = time.monotonic()
        while not self._stop_asked:
            for key, _ in selector.select(poll_interval):
                if key.fileobj is self.socket:
                    self._take()
                elif self._is_waiting(key.data):  # not dropped earlier this round
                    try:
                        self._read_head(key.data)
                    except Exception:  # noqa: BLE001 - one connection's, reported
                        self._lose(key.data, "reading a request head")
            now = time.monotonic()
            while self._waiting:  # the oldest first, up to the first still in time
                oldest = next(iter(self._waiting.values()))
                if now - oldest.taken_at <= self.head_timeout_s:
                    break
                self._drop(oldest)
            if now - serviced >= poll_interval:
                serviced = now
                try:
                    self.service_actions()
                except Exception:  # noqa: BLE001 - a chore's failure, reported
                    self.report_error("the chores between requests")

    def shutdown(self) -> None:
        """Stop `serve_forever` and wait until it has (requests being served run on)."""
        self._stop_asked = True
        self._stopped.wait()

    def server_close(self) -> None:
        """Stop listening, then close the connections whose heads were on their way (in that
        order: a client that sees its connection closed finds the port closed too)."""
        super().server_close()  # closing a socket twice is no error: it may have failed
        for arrival in list(self._waiting.values()):
            self._drop(arrival)

    def threads_in_use(self) -> dict[str, int]:
        """Threads serving requests now, by pool (for tests and health)."""
        return {name: pool.busy for name, pool in self._pools.items()}

    def waiting(self) -> int:
        """Connections whose heads are still on their way."""
        return len(self._waiting)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went before its answer came, or took too long, is no error of the
        server's; anything else is reported as `report_error` does (the standard library's
        printer wrote a traceback at column 0 for every request: an agent whose request broke
        a handler could fill the run's output with them)."""
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        self.report_error("serving a request")

    def report_error(self, doing: str) -> None:
        """Say on stderr that an error was caught while `doing` something for one connection
        or between requests (the first `ERRORS_SHOWN` with their tracebacks; all are counted in
        `errors`): the loop goes on."""
        self.errors += 1
        if self.errors <= ERRORS_SHOWN:
            later = "; later ones are only counted" if self.errors == ERRORS_SHOWN else ""
            self._say(f"dropped an error while {doing}; it goes on serving{later}")

    def _lose(self, arrival: Arrival, doing: str) -> None:
        """Drop a connection whose handling failed, answering 500 when it still can."""
        self.report_error(doing)
        if self._is_waiting(arrival):
            self._answer_now(arrival, 500, "phoneshell: the server could not take this request")
        self._drop(arrival)

    def _fail(self, exc: Exception) -> None:
        """The loop ended on an error of its own: close the port, so clients are refused at
        once rather than left waiting on a deaf one, and say so."""
        with contextlib.suppress(OSError):
            self.socket.close()
        for arrival in list(self._waiting.values()):
            self._drop(arrival)
        self._say(f"stopped on {type(exc).__name__}: {exc}; its port is closed")
        self.failure = f"{type(exc).__name__}: {exc}"

    def _say(self, what: str) -> None:
        """One line and the traceback of the error being handled, indented under it, on stderr
        (if it is open): its lines may hold what a client sent, and never start a line."""
        with contextlib.suppress(OSError, ValueError):  # a closed stderr stops nothing
            told = traceback.format_exc().splitlines()
            print(f"phoneshell: the HTTP listener on port {self.server_address[1]} {what}:",
                  *(f"        {line}" for line in told), sep="\n", file=sys.stderr)

    def _take(self) -> None:
        # A burst of connections, without starving the heads on their way: a head whole when
        # its connection is taken is read before two bursts' worth of newer ones could push
        # it out of the waiting list.
        for _ in range(max(1, min(64, self.waiting_max // 4))):
            try:
                sock, address = self.socket.accept()
            except (BlockingIOError, InterruptedError):
                return  # none left
            except OSError as exc:
                if exc.errno in _GONE_BEFORE_TAKEN:
                    continue  # that client went; others may wait
                if exc.errno in _OUT_OF_RESOURCES:
                    self._make_room()
                    return
                raise  # the listening socket itself is broken: `serve_forever` ends loudly
            try:
                sock.setblocking(False)
                if len(self._waiting) >= self.waiting_max:
                    self._drop(next(iter(self._waiting.values())))
                arrival = Arrival(sock, address, time.monotonic())
                assert self._selector is not None
                self._selector.register(sock, selectors.EVENT_READ, arrival)
                self._waiting[sock] = arrival
            except Exception:  # noqa: BLE001 - one connection's, reported
                self.report_error("taking a connection")
                sock.close()

    def _make_room(self) -> None:
        """Out of descriptors (or memory): drop the connection that waited longest, so the next
        round can take one, or, with none waiting, let threads finish a little."""
        if self._waiting:
            self._drop(next(iter(self._waiting.values())))
        else:
            time.sleep(0.01)  # the listening socket stays readable: do not spin on it

    def _release(self, arrival: Arrival) -> bool:
        """Take an arrival off the waiting list and the selector (False: it was not on them: it
        was dropped or handed to a thread already, earlier in this select round maybe)."""
        if not self._is_waiting(arrival):
            return False
        del self._waiting[arrival.sock]
        if self._selector is not None:
            self._selector.unregister(arrival.sock)
        return True

    def _is_waiting(self, arrival: Arrival) -> bool:
        return self._waiting.get(arrival.sock) is arrival

    def _drop(self, arrival: Arrival) -> None:
        """Close a connection that is waiting for its head (closing one twice is no error)."""
        self._release(arrival)
        arrival.sock.close()

    def _read_head(self, arrival: Arrival) -> None:
        try:
            data = arrival.sock.recv(HEAD_MAX_BYTES + 1 - len(arrival.head))
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._drop(arrival)
            return
        arrival.head += data
        end = _HEAD_END.search(arrival.head)
        if end is None:
            if len(arrival.head) > HEAD_MAX_BYTES:
                self._answer_now(arrival, 431, f"a request head over {HEAD_MAX_BYTES:,} bytes")
            return
        method, target, headers = _sketch(bytes(arrival.head[:end.start()]))
        pool = self._pools[self._classify(method, target, headers)]
        taken = pool.take(arrival)
        if taken == "full":
            self._answer_now(arrival, 503, "phoneshell: too many requests of this kind are "
                                           "being served or waiting; try again")
            return
        self._release(arrival)
        if taken == "serve":
            try:
                threading.Thread(target=self._serve, args=(arrival, pool), daemon=True,
                                 name=f"http:{self.server_address[1]}").start()
            except RuntimeError:  # no thread to be had: this one is refused, not lost
                pool.give_back()
                self._answer_now(arrival, 503, "phoneshell: no thread free; try again")

    def _answer_now(self, arrival: Arrival, status: int, message: str) -> None:
        """Answer without a thread (a few hundred bytes fit any socket buffer), then close."""
        body = wda_error_body(error_name(status), message)
        head = (f"HTTP/1.1 {status} {BaseHTTPRequestHandler.responses[status][0]}\r\n"
                f"Content-Type: {JSON_TYPE}\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n").encode()
        with contextlib.suppress(OSError):  # it went, or will not read: it is closed now
            arrival.sock.send(head + body)
        self._drop(arrival)

    def _serve(self, first: Arrival, pool: _Pool) -> None:
        """Serve a request, then those queued for the pool, until none is left (each thread
        hands its place on, whatever happened to its request: the pool never loses one)."""
        arrival: Arrival | None = first
        while arrival is not None:
            arrival.deadline = time.monotonic() + self.request_timeout_s
            try:
                self.finish_request(arrival, arrival.address)  # type: ignore[arg-type]
            except Exception:  # noqa: BLE001 - reported by handle_error, as the stdlib does
                with contextlib.suppress(Exception):
                    self.handle_error(arrival.sock, arrival.address)
            finally:
                with contextlib.suppress(OSError):
                    self.shutdown_request(arrival.sock)
                arrival = pool.next()


def _sketch(head: bytes) -> tuple[str, str, dict[str, str]]:
    """A head's method, target and headers (lower-case names, first of each), to classify it."""
    lines = head.decode("latin-1").split("\n")
    words = lines[0].split()
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers.setdefault(name.strip().lower(), value.strip())
    return (words[0] if words else ""), (words[1] if len(words) > 1 else ""), headers
