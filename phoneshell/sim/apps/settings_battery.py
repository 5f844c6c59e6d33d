"""Settings > Battery as iOS 26 redesigned it, and the pages it opens.

The sources (MacRumors, "iOS 26 Features: Battery Settings Overhaul", 2025-06-09; AppleInsider's
and The Verge's write-ups of the same beta; PhoneArena 2025-06-15 on Power Mode) agree on the
order: a large readout of the current charge with the time the phone last charged at the top;
then Daily Usage, the week's usage against the average with the apps that used most and "View
All Battery Usage"; then Battery Health, Charging, a new Power Mode page (Low Power Mode moved
there, with Adaptive Power) and the Battery Percentage switch at the bottom. iOS 18's "Battery
Level" row, Low Power Mode switch and Last 24 Hours / Last 10 Days views are gone.

Inferred, as no iOS 26 dump of these pages is at hand: the readout's words ("Last Charged to
100%" and the time), its being one cell whose label starts with the level, the usage sentence,
the apps and their shares, the usage page's title and rows, Adaptive Power's factory value (on,
as reported for iPhone 17) and both footers' words.
"""

from __future__ import annotations

from phoneshell.sim.apps.settings_rows import (
    Page,
    info,
    link,
    note,
    readout,
    sec,
    switch,
)

TOP_APPS = (("Safari", "24%"), ("Messages", "15%"), ("Photos", "11%"), ("Maps", "8%"))
"""The apps Daily Usage lists first (invented shares, fixed)."""

BATTERY = Page("battery", "Battery", (
    sec(readout("{battery_percent}", "Last Charged to 100%, {last_charged}")),
    sec(note("Today's usage is about the same as your average."),
        *(info(app, share) for app, share in TOP_APPS),
        link("View All Battery Usage", "battery_usage"), header="Daily Usage"),
    sec(link("Battery Health", "battery_health", "Normal"), link("Charging", "charging"),
        link("Power Mode", "power_mode")),
    sec(switch("Battery Percentage", "battery_percentage")),
), keywords=("power", "charge", "percentage"))

POWER_MODE = Page("power_mode", "Power Mode", (
    sec(switch("Low Power Mode", "low_power"),
        footer="Low Power Mode temporarily reduces background activity like downloads and mail "
               "fetch until you can fully charge your iPhone."),
    sec(switch("Adaptive Power", "adaptive_power"),
        footer="When your usage is higher than usual, iPhone can make small performance "
               "adjustments, like slightly lowering display brightness, to extend battery "
               "life."),
), keywords=("low power", "adaptive power"))

BATTERY_USAGE = Page("battery_usage", "Battery Usage", (
    sec(info("Screen Active", "3h 12m"), info("Screen Idle", "48m"), header="Today"),
    sec(*(info(app, share) for app, share in TOP_APPS), header="Battery Usage by App"),
))

PAGES = (BATTERY, POWER_MODE, BATTERY_USAGE)
"""Battery's pages, in the order search lists them (Battery first)."""
