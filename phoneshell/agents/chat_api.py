"""The wire to an OpenAI-compatible chat completions endpoint (stdlib HTTP only), shared by the
`openai:` agent loop and the baseline judge: settings from the environment, one completion with
retries of 429 and 5xx, each request's whole exchange (connecting, sending, the status line,
headers and body) held to one deadline (`deadline_http`), and a reply read up to a size cap.
What the caller does with a failure is its own: `ModelUnreachable` (no model saw the request),
`ModelTimeout`, or any other `ModelError`.
"""

from __future__ import annotations

import http.client
import json
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, cast

from phoneshell.agents.deadline_http import open_by
from phoneshell.errors import RunError
from phoneshell.untrusted import storable

DEFAULT_BASE_URL = "https://api.openai.com/v1"
REQUEST_TIMEOUT_S = 120.0
"""The longest a judge waits for one reply (the loop waits as long as the attempt's clock)."""
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
UNSEEN_STATUSES = frozenset({401, 403, 404})
"""Answers that mean no model saw the request: a wrong key, account or model name."""
MAX_RETRY_WAIT_S = 20.0
Message = dict[str, object]


@dataclass(frozen=True)
class OpenAISettings:
    """Where the model is and how it is talked to (from the environment)."""

    base_url: str
    api_key: str
    vision: bool = False
    keep_images: int = 3
    retries: int = 2

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> OpenAISettings:
        """Read the settings; a missing key for the default endpoint is an error up front."""
        env = dict(os.environ) if environ is None else environ
        base = (env.get("PHONESHELL_OPENAI_BASE_URL") or env.get("OPENAI_BASE_URL")
                or DEFAULT_BASE_URL).rstrip("/")
        key = env.get("PHONESHELL_OPENAI_API_KEY") or env.get("OPENAI_API_KEY") or ""
        if not key and base == DEFAULT_BASE_URL:
            raise RunError(f"no API key for {base}",
                           hint="set OPENAI_API_KEY (or PHONESHELL_OPENAI_API_KEY), or point "
                                "OPENAI_BASE_URL at an OpenAI-compatible server")
        return cls(base, key, env.get("PHONESHELL_VISION", "") not in ("", "0"),
                   _count(env, "PHONESHELL_VISION_KEEP", 3),
                   _count(env, "PHONESHELL_OPENAI_RETRIES", 2))


def _count(env: dict[str, str], name: str, default: int) -> int:
    raw = env.get(name, "")
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit()):
        raise RunError(f"{name}={raw!r} is not a whole number", hint=f"e.g. {name}={default}")
    return int(raw)


class ModelError(Exception):
    """The endpoint failed to answer (HTTP error, unreachable, not an OpenAI-shaped reply).

    Its message holds what the endpoint sent (an error body, a reason phrase, a bad reply), so
    it is made storable here, once, for every place it goes (a transcript, a row, a claim): an
    endpoint that echoes a model's lone surrogate in an error must not break the writing of it.
    """

    def __init__(self, message: str) -> None:
        super().__init__(storable(message))


class ModelTimeout(ModelError):
    """The request was sent, and its reply outlived the timeout."""


class ModelUnreachable(ModelError):
    """The request never reached a model: no connection could be made (refused, DNS, no route,
    TLS, none within the timeout), or the endpoint refused it unseen (`UNSEEN_STATUSES`)."""


class ChatClient:
    """POST /chat/completions on an OpenAI-compatible endpoint, with retries of 429 and 5xx."""

    def __init__(self, settings: OpenAISettings) -> None:
        self.settings = settings

    def complete(self, body: Message, timeout_s: float, deadline: float) -> Message:
        """One completion; returns the parsed reply (`choices`, `usage`...).

        Args:
            timeout_s: the longest one request may take, whole, its retry too.
            deadline: when every request must have ended, whole (a `time.monotonic()` time).
        """
        for attempt in range(self.settings.retries + 1):
            try:
                return self._post(body, min(time.monotonic() + timeout_s, deadline))
            except urllib.error.HTTPError as exc:
                detail = _error_text(exc)
                if exc.code in UNSEEN_STATUSES:
                    raise ModelUnreachable(f"HTTP {exc.code}: {detail}") from exc
                if exc.code not in RETRY_STATUSES or attempt == self.settings.retries:
                    raise ModelError(f"HTTP {exc.code}: {detail}") from exc
                # The endpoint asked us to come back later: honour Retry-After, within budget.
                wait = min(_retry_after(exc, attempt), MAX_RETRY_WAIT_S)
                if time.monotonic() + wait >= deadline:
                    raise ModelError(f"HTTP {exc.code}: {detail} (no time left to retry)"
                                     ) from exc
                time.sleep(wait)
        raise AssertionError("unreachable")

    def _post(self, body: Message, deadline: float) -> Message:
        """POST `body`, the whole exchange ending by `deadline`, however the endpoint trickles
        its status line, headers or body (red team 112: headers a byte every 2 s held a 20 s
        attempt for 150 s)."""
        url = f"{self.settings.base_url}/chat/completions"
        headers = {"Content-Type": "application/json"}
        if self.settings.api_key:
            headers["Authorization"] = f"Bearer {self.settings.api_key}"
        request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
        timeout_s = max(deadline - time.monotonic(), 0.0)
        try:
            with open_by(request, deadline) as reply:
                data = storable_json(json.loads(_read_whole(reply, url)))
        except urllib.error.HTTPError:
            raise
        except urllib.error.URLError as exc:
            # urllib raises URLError only while connecting and sending: nothing reached a model
            why = (f"no connection within {timeout_s:.0f}s"
                   if isinstance(exc.reason, TimeoutError) else exc.reason)
            raise ModelUnreachable(f"cannot reach {url}: {why}") from exc
        except TimeoutError as exc:  # sent, and no whole reply in time
            raise ModelTimeout(f"no whole reply from {url} within {timeout_s:.0f}s") from exc
        except (ValueError, OSError, RecursionError, http.client.HTTPException) as exc:
            # cut off, a bad status line, endless headers: a reply, just not a good one
            raise ModelError(f"bad reply from {url}: {type(exc).__name__} {exc}") from exc
        choices = data.get("choices") if isinstance(data, dict) else None
        first = choices[0] if isinstance(choices, list) and choices else None
        if not isinstance(first, dict) or not isinstance(first.get("message") or {}, dict):
            raise ModelError(f"{url} answered without choices: {str(data)[:300]}")
        return cast(Message, data)


MAX_REPLY_BYTES = 16 << 20
"""The largest reply read from the endpoint: a completion is text, and one of gigabytes would
take the harness's memory (an in-process agent shares it)."""


def _read_whole(reply: Any, url: str) -> str:
    """A reply's body, up to `MAX_REPLY_BYTES` (read by the request's deadline: `open_by`).

    Raises:
        ModelError: it is larger than `MAX_REPLY_BYTES`, or shorter than it said.
        TimeoutError: the whole body did not come by the deadline.
    """
    data, over = _read_capped(reply, MAX_REPLY_BYTES)
    if over:
        raise ModelError(f"bad reply from {url}: over {MAX_REPLY_BYTES >> 20} MiB")
    missing = getattr(reply, "length", None)  # what its Content-Length promised and never came
    if missing:
        raise ModelError(f"bad reply from {url}: cut off, {missing} bytes short")
    return data.decode("utf-8")


def _read_capped(reply: Any, limit: int) -> tuple[bytes, bool]:
    """Up to `limit` bytes of a body, and whether there was more."""
    chunks: list[bytes] = []
    size = 0
    while chunk := reply.read1(1 << 16):
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            return b"".join(chunks)[:limit], True
    return b"".join(chunks), False


def storable_json(value: object) -> object:
    """A JSON value with every string storable (a lone surrogate escaped): a parsed reply, a
    transcript line."""
    if isinstance(value, str):
        return storable(value)
    if isinstance(value, list):
        return [storable_json(v) for v in value]
    if isinstance(value, dict):
        return {storable(str(k)): storable_json(v) for k, v in value.items()}
    return value


MAX_ERROR_BYTES = 64 << 10
"""The most of an error body read: 300 characters of it are kept."""


def _error_text(exc: urllib.error.HTTPError) -> str:
    """What an error answer says (its `error.message`, else its body), from at most
    `MAX_ERROR_BYTES` of it, read by the request's deadline as a reply is (`open_by`): an
    endless or trickled error body must not hold the attempt past its clock, nor take the
    harness's memory. Made storable with the rest of the message (`ModelError`)."""
    if exc.fp is None:
        return str(exc.reason)
    try:
        data, _ = _read_capped(exc.fp, MAX_ERROR_BYTES)
    except (OSError, http.client.HTTPException):  # stalled, reset or cut off: no body
        return str(exc.reason)
    body = data.decode("utf-8", "replace")
    try:
        error = json.loads(body).get("error")
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])[:300]
    except (ValueError, AttributeError):
        pass
    return body[:300] or str(exc.reason)


def _retry_after(exc: urllib.error.HTTPError, attempt: int) -> float:
    raw = exc.headers.get("Retry-After", "") if exc.headers else ""
    try:
        return max(0.0, float(raw))
    except ValueError:
        return float(2 ** attempt)
