"""Home-screen names of Apple's own apps and their bundle ids, for `open_app` steps.

A name not listed here is found by its icon on the home screen, as a person would; a bundle id
is used as it is.
"""

from __future__ import annotations

APPLE_APPS: dict[str, str] = {
    "App Store": "com.apple.AppStore",
    "Books": "com.apple.iBooks",
    "Calculator": "com.apple.calculator",
    "Calendar": "com.apple.mobilecal",
    "Camera": "com.apple.camera",
    "Clock": "com.apple.mobiletimer",
    "Compass": "com.apple.compass",
    "Contacts": "com.apple.MobileAddressBook",
    "FaceTime": "com.apple.facetime",
    "Files": "com.apple.DocumentsApp",
    "Find My": "com.apple.findmy",
    "Fitness": "com.apple.Fitness",
    "Health": "com.apple.Health",
    "Home": "com.apple.Home",
    "Mail": "com.apple.mobilemail",
    "Maps": "com.apple.Maps",
    "Measure": "com.apple.measure",
    "Messages": "com.apple.MobileSMS",
    "Music": "com.apple.Music",
    "Notes": "com.apple.mobilenotes",
    "Phone": "com.apple.mobilephone",
    "Photos": "com.apple.mobileslideshow",
    "Podcasts": "com.apple.podcasts",
    "Reminders": "com.apple.reminders",
    "Safari": "com.apple.mobilesafari",
    "Settings": "com.apple.Preferences",
    "Shortcuts": "com.apple.shortcuts",
    "Stocks": "com.apple.stocks",
    "Tips": "com.apple.tips",
    "Translate": "com.apple.Translate",
    "TV": "com.apple.tv",
    "Voice Memos": "com.apple.VoiceMemos",
    "Wallet": "com.apple.Passbook",
    "Weather": "com.apple.weather",
}


def bundle_for(name: str) -> str | None:
    """The bundle id for an app name (any case) or a bundle id; None when unknown."""
    if "." in name and " " not in name:
        return name
    wanted = name.strip().lower()
    return next((bundle for label, bundle in APPLE_APPS.items() if label.lower() == wanted), None)


def name_for(bundle_id: str) -> str:
    """The home-screen name of a known bundle id, or the bundle id itself."""
    return next((label for label, bundle in APPLE_APPS.items() if bundle == bundle_id), bundle_id)
