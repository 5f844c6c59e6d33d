"""The simulator's `--state` file: what of a simulated iPhone survives a restart, and reading it
back strictly (a file this version does not understand is refused, never half-read)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from phoneshell.errors import PhoneshellError
from phoneshell.sim.store import JSON, Store

if TYPE_CHECKING:
    from phoneshell.sim.phone import Phone

STATE_VERSION = 1
"""Version of the `--state` file format: {"version": 1, "stores": {...}, "facts": {...},
"clock_s": 12.5} (facts and clock_s optional)."""


def save_state(phone: Phone) -> dict[str, JSON]:
    """What survives a restart (the `--state` file's content): every app's store, the running
    clock (stores hold readings of it: when a timer ends), and the device facts that differ
    from the defaults (only when some do)."""
    # A deep copy through JSON: the caller may serialise it after the lock is released.
    stores: dict[str, JSON] = {b: json.loads(json.dumps(s.data))
                               for b, s in sorted(phone.stores.items()) if s.data}
    state: dict[str, JSON] = {"version": STATE_VERSION, "stores": stores,
                              "clock_s": phone.clock_s}
    facts = phone.own_facts.overrides()
    if facts:
        state["facts"] = facts
    return state


def load_state(phone: Phone, data: JSON) -> None:
    """Boot `phone` afresh with the stores (and optionally device facts) of a saved state.

    Raises:
        PhoneshellError: the data is not a state this version understands.
    """
    if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
        raise PhoneshellError("not a simulator state (expected a JSON object with "
                              f'"version": {STATE_VERSION})',
                              hint="delete the file to start from a fresh phone")
    stores, facts = data.get("stores", {}), data.get("facts", {})
    if not isinstance(stores, dict) or not isinstance(facts, dict):
        raise PhoneshellError('"stores" and "facts" must be JSON objects',
                              hint="delete the file to start from a fresh phone")
    clock_s = data.get("clock_s", 0.0)
    if not (isinstance(clock_s, (int, float)) and not isinstance(clock_s, bool) and clock_s > 0):
        clock_s = 0.0
    # a timer kept in a store ends when it would have: the clock goes on from where it was
    phone.restart(phone.own_facts.updated(facts),
                  {b: Store(v) for b, v in stores.items() if isinstance(v, dict)},
                  float(clock_s))
