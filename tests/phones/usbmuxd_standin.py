"""A usbmuxd stand-in for tests: the real usbmux plist protocol on a unix socket, fake phones.

There is no USB and no usbmuxd here, so tests reach "phones" through this: a server that speaks
what libimobiledevice's usbmuxd speaks, so tidevice and facebook-wda talk to it unmodified.

Wire format (usbmuxd-proto.h): every message is a 16-byte header of four little-endian uint32
(total length including the header, version 1 = plist, message 8 = plist, tag) and an XML plist.
A reply echoes the request's tag; notifications carry tag 0. Messages answered:

    ListDevices      {"DeviceList": [{"MessageType": "Attached", "DeviceID", "Properties"}]}
    ReadBUID         {"BUID": ...}
    ReadPairRecord   {"PairRecordData": <plist bytes>} for a paired phone; else Result 2
    Listen           Result 0, then an Attached message per phone (and on attach/detach)
    Connect          Result 0, then the socket carries raw bytes to the phone's port
                     (PortNumber in network byte order); Result 2: no such device,
                     Result 3: nothing listens on that port of the phone
    anything else    Result 1 (bad command)

Phone ports after Connect: 62078 is lockdown (each message a 4-byte big-endian length and an
XML plist; `QueryType` and `GetValue` are answered without a session, as a phone answers a
computer it does not trust; `StartSession` is refused, since there is no TLS here); the WDA port
(8100) is relayed byte for byte to a TCP address, e.g. a `SimServer`, so
`http+usbmux://UDID:8100` reaches the simulated iPhone.

    with UsbmuxdStandin([FakePhone("0000-1", wda=sim.url)]) as mux:
        mux.path   # the socket; give it as PHONESHELL_USBMUXD

`UsbmuxdStandin(..., tcp=True)` listens on loopback TCP instead (`address`: "127.0.0.1:PORT"),
as WSL's Apple Mobile Device Service does on 127.0.0.1:27015, and `UnixForwarder` plays socat's
part in `socat UNIX-LISTEN:/tmp/usbmuxd,fork TCP:host:port`: a unix socket that relays each
connection to that port.
"""

from __future__ import annotations

import contextlib
import os
import plistlib
import shutil
import socket
import socketserver
import struct
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

HEADER = struct.Struct("<IIII")
LENGTH = struct.Struct(">I")
PLIST_VERSION, PLIST_MESSAGE = 1, 8
RESULT_OK, RESULT_BAD_COMMAND, RESULT_BAD_DEVICE, RESULT_REFUSED = 0, 1, 2, 3
LOCKDOWN_PORT = 62078
BUID = "5A1B6C3D-0E2F-4A5B-8C7D-9E0F1A2B3C4D"
UDID = "00008150-001A24E11E78801C"
"""A udid in the format of iPhone XS and later (8 and 16 hex digits)."""
OLD_UDID = "5d4c8a1f0e2b3c9d7a6f5e4d3c2b1a0f9e8d7c6b"
"""A udid in the format of iPhone X and earlier (40 hex digits)."""


@dataclass
class FakePhone:
    """A phone the stand-in lists; `wda` is where its WDA port is relayed (None: not running)."""

    udid: str
    name: str = "Bench iPhone"
    product_type: str = "iPhone18,1"
    ios_version: str = "26.2"
    paired: bool = True
    connection: str = "USB"
    wda: str | None = None
    """`http://host:port` or `host:port` of the WDA behind the phone's port `wda_port`."""
    wda_port: int = 8100
    device_id: int = 0
    """Assigned by the stand-in when the phone is attached."""

    def lockdown_values(self) -> dict[str, str]:
        """What lockdown tells a computer without a session."""
        return {"DeviceName": self.name, "ProductType": self.product_type,
                "ProductVersion": self.ios_version, "UniqueDeviceID": self.udid,
                "DeviceClass": "iPhone"}

    def properties(self) -> dict[str, Any]:
        """The `Properties` of this phone in a device list."""
        serial = self.udid  # current usbmuxd keeps the dash of newer udids; old ones drop it
        props: dict[str, Any] = {"ConnectionType": self.connection, "DeviceID": self.device_id,
                                 "SerialNumber": serial, "UDID": self.udid}
        if self.connection == "USB":
            props.update(ConnectionSpeed=480000000, LocationID=0x14200000 + self.device_id,
                         ProductID=0x12A8, USBSerialNumber=serial)
        return props


class UsbmuxdStandin:
    """A usbmuxd on a unix socket in a fresh temporary folder. Use as a context manager.

    Args:
        phones: the phones attached from the start.
    """

    def __init__(self, phones: Sequence[FakePhone] = (), tcp: bool = False) -> None:
        # A short folder of its own: unix socket paths are limited to ~107 bytes.
        self._dir = tempfile.mkdtemp(prefix="psmux-")
        self.path = os.path.join(self._dir, "usbmuxd")
        self.tcp = tcp
        self.address = self.path
        """Where it listens: `path`, or "127.0.0.1:PORT" with `tcp` (once started)."""
        self.phones: dict[int, FakePhone] = {}
        self.requests: list[str] = []
        """Every usbmux message type received, in order (for assertions)."""
        self._next_id = 1
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._listeners: set[socket.socket] = set()
        self._server: _Server | _TcpServer | None = None
        self._thread: threading.Thread | None = None
        for phone in phones:
            self.attach(phone)

    def __enter__(self) -> UsbmuxdStandin:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> UsbmuxdStandin:
        """Listen on `path`."""
        if self.tcp:
            self._server = _TcpServer(self)
            self.address = f"127.0.0.1:{self._server.server_address[1]}"
        else:
            self._server = _Server(self.path, self)
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.01}, daemon=True,
                                        name="usbmuxd-standin")
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening, cut open connections and remove the socket's folder."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        with self._lock:
            for sock in list(self._open):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
        if self._thread is not None:
            self._thread.join()
        self._server = self._thread = None
        shutil.rmtree(self._dir, ignore_errors=True)

    def attach(self, phone: FakePhone) -> FakePhone:
        """Plug a phone in (listeners get an Attached message)."""
        with self._lock:
            phone.device_id = self._next_id
            self._next_id += 1
            self.phones[phone.device_id] = phone
            listeners = list(self._listeners)
        for sock in listeners:
            _send_quietly(sock, _attached(phone), 0)
        return phone

    def detach(self, udid: str) -> None:
        """Unplug a phone (listeners get a Detached message)."""
        with self._lock:
            gone = [p for p in self.phones.values() if p.udid == udid]
            for phone in gone:
                del self.phones[phone.device_id]
            listeners = list(self._listeners)
        for phone in gone:
            for sock in listeners:
                _send_quietly(sock, {"MessageType": "Detached", "DeviceID": phone.device_id}, 0)

    # -- one client connection ---------------------------------------------------------------

    def serve(self, sock: socket.socket) -> None:
        """Answer usbmux messages on one connection until it closes or turns into a tunnel."""
        with self._lock:
            self._open.add(sock)
        try:
            while True:
                message = _read_message(sock)
                if message is None:
                    return
                tag, request = message
                kind = str(request.get("MessageType", ""))
                self.requests.append(kind)
                if kind == "Connect":
                    self._connect(sock, tag, request)
                    return
                if kind == "Listen":
                    self._listen(sock, tag)
                    return
                _send(sock, self._answer(kind, request), tag)
        except OSError:
            return
        finally:
            with self._lock:
                self._open.discard(sock)

    def _answer(self, kind: str, request: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            phones = list(self.phones.values())
        if kind == "ListDevices":
            return {"DeviceList": [_attached(p) for p in phones]}
        if kind == "ReadBUID":
            return {"BUID": BUID}
        if kind == "ReadPairRecord":
            wanted = str(request.get("PairRecordID", "")).replace("-", "")
            phone = next((p for p in phones if p.udid.replace("-", "") == wanted), None)
            if phone is None or not phone.paired:
                return _result(RESULT_BAD_DEVICE)  # what usbmuxd sends for a missing record
            record = {"HostID": "8E0B6D4A-1C2F-4E3D-9A8B-7C6D5E4F3A2B", "SystemBUID": BUID,
                      "DeviceCertificate": b"-----BEGIN CERTIFICATE-----\n",
                      "WiFiMACAddress": "00:00:00:00:00:00"}
            return {"PairRecordData": plistlib.dumps(record)}
        return _result(RESULT_BAD_COMMAND)

    def _listen(self, sock: socket.socket, tag: int) -> None:
        with self._lock:
            self._listeners.add(sock)
            phones = list(self.phones.values())
        try:
            _send(sock, _result(RESULT_OK), tag)
            for phone in phones:
                _send(sock, _attached(phone), 0)
            while sock.recv(4096):  # a listener only ever closes
                pass
        finally:
            with self._lock:
                self._listeners.discard(sock)

    def _connect(self, sock: socket.socket, tag: int, request: dict[str, Any]) -> None:
        port = socket.ntohs(int(request.get("PortNumber", 0)))
        with self._lock:
            phone = self.phones.get(int(request.get("DeviceID", -1)))
        if phone is None:
            _send(sock, _result(RESULT_BAD_DEVICE), tag)
            return
        if port == LOCKDOWN_PORT:
            _send(sock, _result(RESULT_OK), tag)
            _lockdown(sock, phone)
            return
        upstream = _open_wda(phone) if port == phone.wda_port else None
        if upstream is None:
            _send(sock, _result(RESULT_REFUSED), tag)
            return
        _send(sock, _result(RESULT_OK), tag)
        with self._lock:
            self._open.add(upstream)
        try:
            _relay(sock, upstream)
        finally:
            with self._lock:
                self._open.discard(upstream)


class _Server(socketserver.ThreadingUnixStreamServer):
    daemon_threads = True

    def __init__(self, path: str, standin: UsbmuxdStandin) -> None:
        self.standin = standin
        super().__init__(path, _Handler)


class _TcpServer(socketserver.ThreadingTCPServer):
    daemon_threads = True

    def __init__(self, standin: UsbmuxdStandin) -> None:
        self.standin = standin
        super().__init__(("127.0.0.1", 0), _Handler)


class _Handler(socketserver.BaseRequestHandler):
    server: _Server | _TcpServer

    def handle(self) -> None:
        self.server.standin.serve(self.request)


class UnixForwarder:
    """socat's `UNIX-LISTEN:PATH,fork TCP:HOST:PORT`: a unix socket (`path`, in a fresh
    temporary folder) whose every connection is relayed to `target` ("host:port"). Use as a
    context manager."""

    def __init__(self, target: str) -> None:
        self._dir = tempfile.mkdtemp(prefix="psfwd-")
        self.path = os.path.join(self._dir, "usbmuxd")
        host, _, port = target.rpartition(":")
        self.target = (host, int(port))
        self._server: _Forwarding | None = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> UnixForwarder:
        self._server = _Forwarding(self.path, self.target)
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.01}, daemon=True,
                                        name="unix-forwarder")
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join()
        shutil.rmtree(self._dir, ignore_errors=True)


class _Forwarding(socketserver.ThreadingUnixStreamServer):
    daemon_threads = True

    def __init__(self, path: str, target: tuple[str, int]) -> None:
        self.target = target
        super().__init__(path, _Forward)


class _Forward(socketserver.BaseRequestHandler):
    server: _Forwarding

    def handle(self) -> None:
        try:
            upstream = socket.create_connection(self.server.target, timeout=5)
        except OSError:
            return
        _relay(self.request, upstream)


# -- the wire ---------------------------------------------------------------------------------


def _recv_exact(sock: socket.socket, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _read_message(sock: socket.socket) -> tuple[int, dict[str, Any]] | None:
    """One usbmux message: (tag, plist), or None when the client closed."""
    header = _recv_exact(sock, HEADER.size)
    if header is None:
        return None
    length, _version, _message, tag = HEADER.unpack(header)
    body = _recv_exact(sock, length - HEADER.size)
    if body is None:
        return None
    return tag, plistlib.loads(body)


def _send(sock: socket.socket, payload: dict[str, Any], tag: int) -> None:
    body = plistlib.dumps(payload)
    sock.sendall(HEADER.pack(HEADER.size + len(body), PLIST_VERSION, PLIST_MESSAGE, tag) + body)


def _send_quietly(sock: socket.socket, payload: dict[str, Any], tag: int) -> None:
    with contextlib.suppress(OSError):
        _send(sock, payload, tag)


def _result(number: int) -> dict[str, Any]:
    return {"MessageType": "Result", "Number": number}


def _attached(phone: FakePhone) -> dict[str, Any]:
    return {"MessageType": "Attached", "DeviceID": phone.device_id,
            "Properties": phone.properties()}


def _lockdown(sock: socket.socket, phone: FakePhone) -> None:
    """Answer lockdown requests (4-byte big-endian length + XML plist) until the client closes."""
    values = phone.lockdown_values()
    while True:
        head = _recv_exact(sock, LENGTH.size)
        if head is None:
            return
        body = _recv_exact(sock, LENGTH.unpack(head)[0])
        if body is None:
            return
        request = plistlib.loads(body)
        kind = str(request.get("Request", ""))
        reply: dict[str, Any] = {"Request": kind}
        if kind == "QueryType":
            reply["Type"] = "com.apple.mobile.lockdown"
        elif kind == "GetValue":
            key = request.get("Key")
            if key is None:
                reply["Value"] = values
            elif key in values:
                reply.update(Key=key, Value=values[key])
            else:
                reply.update(Key=key, Error="MissingValue")
        elif kind == "StartSession":
            reply["Error"] = "InvalidHostID" if not phone.paired else "SessionInactive"
        else:
            reply["Error"] = "InvalidRequest"
        data = plistlib.dumps(reply)
        sock.sendall(LENGTH.pack(len(data)) + data)


def _open_wda(phone: FakePhone) -> socket.socket | None:
    """A TCP connection to the WDA behind the phone, or None when nothing answers."""
    if not phone.wda:
        return None
    where = urlsplit(phone.wda if "//" in phone.wda else f"tcp://{phone.wda}")
    try:
        return socket.create_connection((where.hostname or "127.0.0.1", where.port or 8100),
                                        timeout=5)
    except OSError:
        return None


def _relay(client: socket.socket, upstream: socket.socket) -> None:
    """Copy bytes both ways until both sides have finished; half-closes are passed on."""
    upstream.settimeout(None)
    back = threading.Thread(target=_pump, args=(upstream, client), daemon=True)
    back.start()
    _pump(client, upstream)
    back.join()
    upstream.close()


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)
