"""The WebDriverAgent bridge: a logging proxy that writes every action of a run to audit.jsonl.

Imports from phoneshell only the shared contract (`phoneshell.records`, `phoneshell.errors`,
`phoneshell.xcui`, `phoneshell.wda_routes`, `phoneshell.frames` for how trajectory frames
are scaled, and `phoneshell.behalf`, where what it writes because of an agent's turn is charged
to the turn); everything else it knows, it learns over HTTP. Modules:

* `proxy`: the bridge (`BridgeServer`): control routes, refusals, reads, forwarding;
* `http_server`: reading requests and writing replies; `access`: tokens and per-agent grants;
* `gate`: one canonical form of each request, or a refusal (pure);
* `actions`: which requests are actions, with which kind and params (pure), as a `Classified`
  (`classified`); `sessions`: a new session's capabilities and WDA's settings (pure);
* `limits`: how long a request may keep the phone busy, how much it may type, and where on the
  screen it may touch (pure);
* `finds`: element queries whose cost nothing bounds (an XPath walking the page per element,
  a regex that backtracks without end), refused before they reach the phone (pure);
* `pointer`: touch chains (W3C actions, TouchAction) summarised finger by finger, refused when
  they hold several gestures or a touch the log could not name (pure); `w3c_chain`: a W3C
  actions body read into one (pure); `chains`: the one action a chain is logged as (pure);
* `targets`: the focused field or the element under a point in a JSON source (pure);
* `recorder`: intent, forward, outcome for one action, with foreground and target; `reads`:
  its own reads of the phone, counted; `aiming`: each action's target (each finger's, for
  several); `answers`: whether WDA took an action, and the session it made (pure);
* `custody`: what the phone showed after each action, and changes nothing logged explains;
* `looks`: what a client last looked at since the last action, for capture to compare with;
* `observe`: what a read shows (front app, tree, screen digest) (pure);
* `audit_log`: the append-only writer of `<runs>/<run_id>/audit.jsonl`; `shares`: how much of
  it each agent's turn may write;
* `trajectory`: screenshots of the agent's turn, one per action (`--trajectory`);
* `upstream`: the connection to WDA; `context`: run/task/attempt/phase;
* `serve`: the standalone process behind `phoneshell bridge`.
"""

from bridge.actions import classify
from bridge.audit_log import AuditWriter, shared_writer
from bridge.classified import Classified
from bridge.context import RunContext
from bridge.proxy import BridgeServer
from bridge.serve import serve
from bridge.trajectory import Trajectory

__all__ = ["AuditWriter", "BridgeServer", "Classified", "RunContext", "Trajectory", "classify",
           "serve", "shared_writer"]
