"""A local stand-in for an OpenAI-compatible chat completions endpoint (tests only).

It speaks the real `/v1/chat/completions` shapes (`tools`, `tool_calls`, `finish_reason`,
`usage`, OpenAI-style error bodies) and checks what it is sent the way a strict endpoint would
(tool messages answer the assistant's calls; the tools are function tools with schemas). It
plays the model from a script (screen_script.py): it reads the latest observation in the
conversation and picks the id whose text matches the next move.

The model name picks a behaviour:

    stand-in              follow the script for the task in the instruction
    stand-in-dawdle       follow the script, but observe once more before done
    stand-in-stale        observe, then tap an id from the first observation, then give up
    stand-in-talk         answer in prose, without a tool call
    stand-in-429          answer every request with 429 (a rate limit)
    stand-in-500-later    follow the script once, then answer 500
    stand-in-slow         follow the script once, then take SLOW_S to answer each request
    stand-in-think        take SLOW_S over every reply, the first one too
    stand-in-nested       a hostile model: its first call is one of HOSTILE (arguments nested
    stand-in-digits       5,000 deep; an id of 5,000 digits; a claim with a lone surrogate),
    stand-in-surrogate    then `done` failed, its summary what the tool answered
    stand-in-bloat        a hostile model: it types a thousand characters again and again,
                          whatever the tool answers, and never calls done
    stand-in-cut          follow the script once, then send replies cut off mid-body
    stand-in-garbled      follow the script once, then answer with a status line no HTTP has
    stand-in-trickle      follow the script once, then send each reply a byte every TRICKLE_S
    stand-in-huge         follow the script once, then send a reply of HUGE_BYTES
    stand-in-flood        a hostile model: every reply says FLOOD_CHARS of text and calls a
                          tool no one has FLOOD_CALLS times, and it never calls done
    stand-in-gestures     an honest model for tasks that need a hold, an edge swipe or one
                          wheel of several (gesture_scripts.py)
    stand-in-overdone     follow the script to its last move, then send OVERDONE malformed
                          dones in one reply, then a valid done
    stand-in-nulls        follow the script sending every argument of the tool's schema, those
                          it leaves out as null (OpenAI's strict mode): `done`'s answer too
    stand-in-talk-last    follow the script, but say its last move (done) in prose
    stand-in-400-surrogate  answer every request with 400, its message holding a lone surrogate
    stand-in-500-surrogate  (as servers echo a model's malformed output), or 500 after retries
    stand-in-error-trickle  answer with 400, its error body sent a byte every TRICKLE_S
    stand-in-head-trickle   answer every request with a header line sent a byte every
                            TRICKLE_S for HEAD_TRICKLE_S, then the rest of a `done` failed

`before_answer`, when set, runs before each answer (a test spoils the attempt folder there).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from agents.gesture_scripts import policy_for
from agents.screen_script import HEADER, Move, find_row, script_for

API_KEY = "test-key"
SLOW_S = 2.0
TRICKLE_S = 0.05
HEAD_TRICKLE_S = 10.0
HUGE_BYTES = 3 << 20
FLOOD_CHARS = 200_000
FLOOD_CALLS = 100
OVERDONE = 20
HOSTILE = {
    "stand-in-nested": ("tap", "[" * 5000),
    "stand-in-digits": ("tap", json.dumps({"id": "9" * 5000 + ".1"})),
    "stand-in-surrogate": ("done", json.dumps({"status": "done", "summary": "ok \ud800"})),
}
"""A hostile model's first tool call: its name and its arguments as sent."""


class BadRequest(Exception):
    """The request does not have the shape the real API requires."""


def _text_of(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if p.get("type") == "text")
    return content or ""


def check_shape(body: dict[str, Any]) -> None:
    """Refuse what the real endpoint would refuse."""
    if not isinstance(body.get("model"), str) or not isinstance(body.get("messages"), list):
        raise BadRequest("model and messages are required")
    for spec in body.get("tools", []):
        function = spec.get("function", {})
        if spec.get("type") != "function" or not function.get("name") or \
                function.get("parameters", {}).get("type") != "object":
            raise BadRequest(f"bad tool {spec!r}")
    pending: set[str] = set()
    for message in body["messages"]:
        role = message.get("role")
        if role not in ("system", "user", "assistant", "tool"):
            raise BadRequest(f"bad role {role!r}")
        if pending and role != "tool":
            raise BadRequest("each tool call must be answered by a tool message right after")
        if role == "assistant":
            for call in message.get("tool_calls") or []:
                json.loads(call["function"]["arguments"])
                pending.add(call["id"])
        if role == "tool":
            if message.get("tool_call_id") not in pending:
                raise BadRequest("a tool message answers no pending tool call")
            pending.discard(message["tool_call_id"])


class StandIn:
    """The stand-in server on a free loopback port; `requests` keeps every request body."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.before_answer: Callable[[], None] | None = None
        self.lock = threading.Lock()
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the http.server hook
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length))
                if body.get("model") == "stand-in-head-trickle":
                    with stand_in.lock:
                        stand_in.requests.append(body)
                    stand_in.trickle_head(self.wfile)
                    self.close_connection = True
                    return
                broken = stand_in.broken(body)
                if broken is not None:  # a reply no client can read as one
                    with stand_in.lock:
                        stand_in.requests.append(body)
                    if body.get("model") in ("stand-in-trickle", "stand-in-error-trickle"):
                        head, rest = broken.split(b"\r\n\r\n", 1)
                        self.wfile.write(head + b"\r\n\r\n")
                        for byte in rest:  # one at a time, as slowly as it likes
                            if stand_in.slow.wait(TRICKLE_S):
                                break
                            self.wfile.write(bytes([byte]))
                            self.wfile.flush()
                    else:
                        self.wfile.write(broken)
                    self.close_connection = True
                    return
                status, reply, headers = stand_in.answer(self.path, self.headers, body)
                data = json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True  # a slow answer in flight must not hold up shutdown
        self.slow = threading.Event()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> StandIn:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()

    def trickle_head(self, out: Any) -> None:
        """Send a status line, then a header a byte every TRICKLE_S (each read of the client
        within any socket timeout) for HEAD_TRICKLE_S or until `slow` is set, then the rest."""
        data = json.dumps(completion("stand-in-head-trickle", {
            "status": "failed", "summary": "headers trickled"}, tool="done")).encode()
        until = time.monotonic() + HEAD_TRICKLE_S
        try:
            out.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Slow: ")
            out.flush()
            while time.monotonic() < until and not self.slow.wait(TRICKLE_S):
                out.write(b"a")
                out.flush()
            out.write(b"\r\nContent-Length: " + str(len(data)).encode() + b"\r\n\r\n" + data)
        except OSError:  # the client stopped waiting, as it should
            pass

    def broken(self, body: dict[str, Any]) -> bytes | None:
        """The raw bytes of a broken reply, for the models that send one after their first."""
        model = body.get("model")
        if model not in ("stand-in-cut", "stand-in-garbled", "stand-in-trickle",
                         "stand-in-huge", "stand-in-error-trickle"):
            return None
        with self.lock:
            served = sum(1 for r in self.requests if r.get("model") == model)
        if model == "stand-in-error-trickle":  # from the first request
            data = json.dumps(error("x" * 2000, "invalid_request_error")).encode()
            return b"HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n\r\n" + data
        if served < 1:
            return None
        if model == "stand-in-cut":
            return (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    b"Content-Length: 5000\r\n\r\n{\"id\": \"chatcmpl-cut\", \"choi")
        if model in ("stand-in-trickle", "stand-in-huge"):
            text = "x" * (HUGE_BYTES if model == "stand-in-huge" else 200)
            data = json.dumps(completion(model, None, text=text)).encode()
            return (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                    + str(len(data)).encode() + b"\r\n\r\n" + data)
        return b"HTTP/1.1 2OO FINE\r\n\r\n{}"

    def answer(self, path: str, headers: Any, body: dict[str, Any]
               ) -> tuple[int, dict[str, Any], dict[str, str]]:
        with self.lock:
            self.requests.append(body)
            served = sum(1 for r in self.requests if r.get("model") == body.get("model"))
        if path != "/v1/chat/completions":
            return 404, error("unknown path", "invalid_request_error"), {}
        if headers.get("Authorization") != f"Bearer {API_KEY}":
            return 401, error("Incorrect API key provided", "invalid_request_error"), {}
        try:
            check_shape(body)
        except (BadRequest, KeyError, ValueError, RecursionError) as exc:
            return 400, error(str(exc), "invalid_request_error"), {}
        model = body["model"]
        if self.before_answer is not None:
            self.before_answer()
        if model in ("stand-in-400-surrogate", "stand-in-500-surrogate"):
            status = int(model[len("stand-in-"):][:3])
            return status, error("invalid tool call: \ud800 in the arguments",
                                 "invalid_request_error"), {"Retry-After": "0"}
        if model == "stand-in-429":
            return 429, error("Rate limit reached for requests", "rate_limit_error"), {
                "Retry-After": "0"}
        if model == "stand-in-think" or model == "stand-in-slow" and served > 1:
            self.slow.wait(SLOW_S)  # a model that takes its time (set() cuts it short)
        if model == "stand-in-500-later" and served > 1:
            return 500, error("The server had an error while processing your request",
                              "server_error"), {"Retry-After": "0"}
        return 200, self.reply(model, body["messages"], body.get("tools", [])), {}

    def reply(self, model: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]],
              ) -> dict[str, Any]:
        step = sum(1 for m in messages if m["role"] == "assistant")
        if model == "stand-in-talk":
            return completion(model, None, "I believe the task is complete.")
        if model in HOSTILE:
            if step == 0:
                tool, sent = HOSTILE[model]
                return completion(model, {}, tool=tool, raw_arguments=sent)
            return completion(model, {"status": "failed", "summary": _text_of(messages[-1])},
                              tool="done")
        if model == "stand-in-flood":
            flood = completion(model, {}, text="y" * FLOOD_CHARS, tool="nope")
            call = flood["choices"][0]["message"]["tool_calls"][0]
            flood["choices"][0]["message"]["tool_calls"] = [
                {**call, "id": f"{call['id']}_{n}"} for n in range(FLOOD_CALLS)]
            return flood
        observations = [_text_of(m) for m in messages if HEADER in _text_of(m)]
        if model == "stand-in-bloat":  # in a new note
            if step == 0:
                return completion(model, {"name": "Notes"}, tool="open_app")
            if step == 1:
                return completion(model, {"id": find_row(observations[-1], "New Note").id},
                                  tool="tap")
            return completion(model, {"text": "x" * 999 + " "}, tool="type")
        latest = observations[-1] if observations else ""
        if model == "stand-in-stale":
            if step == 0:
                return completion(model, {}, tool="observe")
            if step == 1:  # an id from the first observation, stale once observe has run
                return completion(model, {"id": find_row(observations[0], "Settings").id},
                                  tool="tap")
            said = _text_of(messages[-1])
            return completion(model, {"status": "gave_up", "summary": said}, tool="done")
        instruction = _text_of(next(m for m in messages if m["role"] == "user"))
        if model == "stand-in-gestures":
            tool, arguments = policy_for(instruction)(latest)
            return completion(model, arguments, tool=tool)
        script = list(script_for(instruction))
        if model == "stand-in-overdone" and step == len(script) - 1:
            malformed = completion(model, {"summary": "no status"}, tool="done")
            call = malformed["choices"][0]["message"]["tool_calls"][0]
            malformed["choices"][0]["message"]["tool_calls"] = [
                {**call, "id": f"{call['id']}_{n}"} for n in range(OVERDONE)]
            return malformed
        if model == "stand-in-dawdle":
            script.insert(len(script) - 1, Move("observe"))
        if step >= len(script):
            return completion(model, {"status": "failed", "summary": "script over"}, tool="done")
        move = script[step]
        if model == "stand-in-talk-last" and step == len(script) - 1:
            return completion(model, None, "I have finished the task.")
        arguments: dict[str, Any] = dict(move.arguments(latest))
        if model == "stand-in-nulls":
            schema = next(t["function"]["parameters"] for t in tools
                          if t["function"]["name"] == move.tool)
            arguments = {key: arguments.get(key) for key in schema["properties"]}
        return completion(model, arguments, tool=move.tool)


def error(message: str, kind: str) -> dict[str, Any]:
    """An OpenAI-style error body."""
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


_calls = 0


def completion(model: str, arguments: dict[str, Any] | None, text: str | None = None,
               tool: str = "", raw_arguments: str = "") -> dict[str, Any]:
    """A chat.completion with one tool call (or only text); `raw_arguments`, when given, are
    sent as they are instead of `arguments`."""
    global _calls
    _calls += 1
    message: dict[str, Any] = {"role": "assistant", "content": text, "refusal": None}
    if arguments is not None:
        sent = raw_arguments or json.dumps(arguments)
        message["tool_calls"] = [{"id": f"call_{_calls}", "type": "function",
                                  "function": {"name": tool, "arguments": sent}}]
    return {"id": f"chatcmpl-{_calls}", "object": "chat.completion", "created": int(time.time()),
            "model": model, "system_fingerprint": "fp_standin",
            "choices": [{"index": 0, "message": message, "logprobs": None,
                         "finish_reason": "tool_calls" if arguments is not None else "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}}
