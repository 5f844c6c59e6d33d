"""Apple's other stock apps (Phone, Messages, Music, Fitness, Watch...): icons that open.

A real iPhone's home screen and dock hold these apps, and an agent tuned on a home screen
without them meets a different one on a phone. None of them is modelled beyond its launch: each
opens to an empty screen under its large title, so tapping its icon, `apps/launch` and
Spotlight behave as for any installed app. Nothing in the suite asks more of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from phoneshell.sim import layout
from phoneshell.sim.apps import AppModel, Host, register
from phoneshell.sim.ui import Node

STOCK_APPS = (
    ("com.apple.mobilephone", "Phone"), ("com.apple.MobileSMS", "Messages"),
    ("com.apple.Music", "Music"), ("com.apple.facetime", "FaceTime"),
    ("com.apple.mobilemail", "Mail"), ("com.apple.mobileslideshow", "Photos"),
    ("com.apple.camera", "Camera"), ("com.apple.tv", "TV"), ("com.apple.podcasts", "Podcasts"),
    ("com.apple.stocks", "Stocks"), ("com.apple.Health", "Health"), ("com.apple.Home", "Home"),
    ("com.apple.Passbook", "Wallet"), ("com.apple.Fitness", "Fitness"),
    ("com.apple.Bridge", "Watch"), ("com.apple.Preview", "Preview"),
    ("com.apple.shortcuts", "Shortcuts"), ("com.apple.findmy", "Find My"),
    ("com.apple.Translate", "Translate"), ("com.apple.VoiceMemos", "Voice Memos"),
    ("com.apple.tips", "Tips"),
)
"""(bundle id, home-screen name) of every stock app that only opens."""


@dataclass
class StockState:
    """Nothing changes in an app that only opens."""


def _renderer(name: str) -> Callable[[StockState, Host], Node]:
    def render(state: StockState, host: Host) -> Node:
        f = host.facts
        return layout.screen(f, [layout.nav_bar(f, name, large=True)], key=f"stock:{name}")
    return render


APPS = tuple(register(AppModel(bundle, name, StockState, _renderer(name)))
             for bundle, name in STOCK_APPS)
