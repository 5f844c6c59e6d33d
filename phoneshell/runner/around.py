"""A rig fault found after the turn of an agent that could reach the phone around the bridge:
the agent's failure, never a skip or the rig down. Pure: says why, never touches the phone.

On a private rig (a simulator behind a secret path, a USB phone through usbmuxd) only the bridge
reaches the phone, so a lock, a refused session or sources cut off everywhere that the bridge's
log does not explain are the rig's. On any other (a `--device` URL on loopback: a standalone
simulator, a phone behind iproxy) a program the sandbox confines can still open a connection to
WDA and lock the phone, end its session, or switch a simulator's fault, where the bridge never
sees it. Taken for the rig's, that would have the attempt not scored and the run stopped, and
every `--resume` replay it. So there, a fault first seen once the agent's turn began, where the
bridge drove the phone through the setup just before and forwarded nothing that explains it, is
the agent's. A WDA that stops answering at all is still the rig's (a phone unplugged, a
simulator stopped): nothing says who did it.
"""

from __future__ import annotations

from phoneshell.agents import Agent
from phoneshell.agents.command import CommandAgent
from phoneshell.errors import DeviceError, DeviceUnreachable, shown_url
from phoneshell.runner.rig import Rig, RigDown


def reaches_around(rig: Rig, agent: Agent) -> bool:
    """Whether `agent` could reach the phone without the bridge: a program (sandboxed or not)
    on a rig that is not private. An agent in this process acts through its client only."""
    return isinstance(agent, CommandAgent) and not rig.private


def around_bridge(rig: Rig, agent: Agent, fault: RigDown | DeviceError | str) -> str:
    """Why the attempt fails for `fault`, found after the turn of an agent that could reach the
    phone around the bridge ("" when it could not, or when WDA no longer answers at all)."""
    if not reaches_around(rig, agent) or isinstance(fault, DeviceUnreachable):
        return ""
    return (f"{fault}, found after the agent's turn began, where the bridge had driven the "
            "phone through the setup just before and forwarded nothing that did it; this rig "
            f"lets the agent reach the phone at {shown_url(rig.bridge.upstream.url)} around the "
            "bridge (a "
            "--device URL, not private): a fault there is the agent's failure")
