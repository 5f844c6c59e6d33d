"""The simulated iPhone: a WebDriverAgent-protocol HTTP server in front of app models.

It is a *device*: the harness reaches it over HTTP only, exactly as it reaches a phone, and this
package imports nothing from the rest of phoneshell except `phoneshell.errors`. Rooms:

    server          SimServer: control routes, faults, state files, the CLI hooks
    listener        HTTP, bounded so no local process can wear it out
    endpoints       WDA routing, the one session, fault effects on routes
    device_routes   status, sessions, apps, buttons, gestures, source, screenshot...
    element_routes  element find, attributes and actions; alerts
    wire            the envelope, W3C errors and HTTP codes
    elements        element ids, find strategies, attributes;  predicates: NSPredicate
    class_chains    class chains and element type names, read as WDA reads them
    faults          the fault switches
    phone           device state: apps, front app, stores, lock, focus;  gestures: input
    in_view         where a touch by id lands, and the list scrolled to show its element
    facts, store    device facts and the locale;  JSON values and the per-app persistent store
    ui, layout      the node model and the helpers that build screens;  keyboard: the keyboard
    lists, windows  lists as iOS 26 shows them;  the windows of a tree and the status bar
    source, render  page sources (XML, JSON) and screenshots (PNG)
    apps/           app models and their interface (see `phoneshell.sim.apps`)

docs/simulator.md describes the apps, state, control routes, faults and how to add an app.

Quick start::

    with SimServer() as sim:
        client = wda.Client(sim.url)
        client.app_launch("com.apple.Preferences")
"""

from phoneshell.sim.command import run
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.faults import Faults
from phoneshell.sim.phone import Phone
from phoneshell.sim.server import SimServer

__all__ = ["DeviceFacts", "Faults", "Phone", "SimServer", "run"]
