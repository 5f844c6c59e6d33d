"""Whether a phone that failed a request answers again, asked for a bounded time that depends
on how it failed.

A phone whose WDA refuses the connection, or closes it before answering, has nothing listening
for WDA (it was stopped, crashed on the request, or the phone left USB): it is asked again for
a few seconds only, which a USB reconnect fits in, and is down after. One that did not answer in
time may be busy finishing something long, or hung: having waited the request's own timeout,
it is asked `/status` for a while more, each ask bounded, and is down after. A real phone answers
`/status` in about 40 ms, a page source in 200 ms and a launch in 1.5 s (docs/simulator.md#latency),
so neither wait ends a slow phone's turn.
"""

from __future__ import annotations

import time

from phoneshell.device.phone import Phone
from phoneshell.errors import DeviceError, DeviceUnreachable

REFUSED_AGAIN_S = 3.0
"""How long a phone with nothing listening for WDA is asked again before it is down."""
ANSWER_AGAIN_S = 30.0
"""How long a phone that did not answer in time (or answered with an error) is asked again."""
STATUS_TIMEOUT_S = 10.0
"""How long one ask (`/status`) may take: WDA answers it without XCTest, but only after the
request it is busy with."""
ASK_EVERY_S = 0.5
"""The pause between asks."""


def answers_again(phone: Phone, failure: DeviceError) -> bool:
    """Whether WDA answers `/status` again after `failure`, asked until a deadline: 3 s from
    now when nothing listens there (`DeviceUnreachable.refused`), 30 s otherwise; an ask that
    finds nothing listening after the first 3 s ends it too. Each ask waits at most 10 s and
    none starts past the deadline, so this returns within 31 s."""
    start = time.monotonic()
    gone = isinstance(failure, DeviceUnreachable) and failure.refused
    while True:
        left = start + (REFUSED_AGAIN_S if gone else ANSWER_AGAIN_S) - time.monotonic()
        if left <= 0:
            return False
        try:
            phone.status(timeout_s=min(STATUS_TIMEOUT_S, max(left, 1.0)))
        except DeviceError as exc:  # the rig-down kinds are DeviceErrors too
            gone = isinstance(exc, DeviceUnreachable) and exc.refused
        else:
            return True
        time.sleep(min(ASK_EVERY_S, max(left, 0.0)))
