"""The simulated iPhone's control routes, under /phoneshell/sim/ (listed in `server`'s docstring):
state, reset, faults, save, clock, notify, and what it served (requests, the input ledger)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from phoneshell.errors import PhoneshellError
from phoneshell.sim.store import JSON
from phoneshell.sim.wire import Reply, WdaError, json_object

if TYPE_CHECKING:
    from phoneshell.sim.server import SimServer

CONTROL_PREFIX = "/phoneshell/sim/"
NOTIFY_EXAMPLE = 'e.g. {"app": "com.apple.mobiletimer", "title": "Timer", "body": "Done"}'


def control(sim: SimServer, method: str, action: str, query: dict[str, str], raw: bytes,
            ) -> Reply:
    """Answer one control route (`action` is the path after `CONTROL_PREFIX`); a bad request
    gets a 400 with the error and a hint, an unknown route a 404."""
    if method == "POST" and not sim.control_open:
        return plain({"error": f"{CONTROL_PREFIX}{action} changes the phone, and this simulator "
                               "serves no such route: a run may be using it",
                      "hint": "start it with --open-control (or --secret-path, and use its "
                              "URL) to switch faults, reset, save or move the clock"}, 403)
    try:
        body = json_object(raw)
        if (method, action) == ("GET", "requests"):
            return plain(dict[str, JSON](sim.request_counts()))
        if (method, action) == ("GET", "ledger"):
            since = query.get("since", "0")
            if not (since.isascii() and since.isdigit()):
                raise PhoneshellError("?since= must be a count of inputs", hint="?since=12")
            total, inputs = sim.ledger(int(since))
            return plain({"total": total, "inputs": list[JSON](inputs)})
        if (method, action) == ("GET", "state"):
            return plain(sim.state())
        if (method, action) == ("POST", "reset"):
            sim.reset()
            return plain(sim.state())
        if (method, action) == ("GET", "faults"):
            return plain({"faults": list[JSON](sim.faults.specs())})
        if (method, action) == ("POST", "faults"):
            _change_faults(sim, body)
            return plain({"faults": list[JSON](sim.faults.specs())})
        if (method, action) == ("POST", "save"):
            if "path" in body:
                raise PhoneshellError("the save route writes only the simulator's own state "
                                      "file; it takes no path",
                                      hint="start the simulator with --state FILE")
            return plain({"saved": str(sim.save())})
        if (method, action) == ("POST", "clock"):
            advance = body.get("advance", 0)
            if not isinstance(advance, (int, float)) or isinstance(advance, bool):
                raise PhoneshellError('"advance" must be a number of seconds',
                                      hint='e.g. {"advance": 1.5}')
            return plain({"clock_s": sim.advance_clock(float(advance))})
        if (method, action) == ("POST", "notify"):
            texts = [body.get(k, "") for k in ("app", "title", "body")]
            if not all(isinstance(t, str) for t in texts):
                raise PhoneshellError('"app", "title" and "body" must be strings',
                                      hint=NOTIFY_EXAMPLE)
            sim.notify(*(str(t) for t in texts))
            return plain({"notified": texts[0]})
    except (PhoneshellError, WdaError) as exc:
        return plain({"error": str(exc), "hint": getattr(exc, "hint", "")}, 400)
    return plain({"error": f"unknown control route {method} {CONTROL_PREFIX}{action}"}, 404)


def _change_faults(sim: SimServer, body: dict[str, JSON]) -> None:
    def names(key: str) -> list[str]:
        value = body.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise PhoneshellError(f'"{key}" must be a list of fault names',
                                  hint='e.g. {"on": ["slow=0.5"]}')
        return [v for v in value if isinstance(v, str)]

    if "faults" in body:
        sim.set_faults(names("faults"))
    for spec in names("on"):
        sim.fault_on(spec)
    for name in names("off"):
        sim.fault_off(name)


def plain(value: JSON, status: int = 200) -> Reply:
    """A control route's answer: plain JSON, no WDA envelope."""
    return Reply(status, json.dumps(value, indent=2).encode())
