"""The pages of the Settings app, as data: titles, sections, rows, and the page each row opens.

A row's `detail` may name device facts or derived values in braces ("{model_number}",
"{wifi_status}"), or a switch ("{switch:voiceover}" reads "On" or "Off", so Accessibility's
VoiceOver row follows the VoiceOver page's switch, as on a phone); `settings.py` fills them in.
Titles are written in US English and shown in the phone's spelling. A row with `switch` shows a
switch backed by a boolean in Settings' store (`SWITCH_DEFAULTS` gives each one's factory value).
To add a page: add a `Page` to `PAGES` (the pages below Accessibility, General and the root's
other rows are in `settings_below.py`) and a `link(...)` row to it from its parent. Every link
opens a page with rows, as on a phone (a test walks them): a row a phone navigates from whose
page is not modelled is an `opens` row, with a chevron, opening a stub titled by it. The root
list, General > About and Accessibility > Motion follow the iOS 26 dumps in
../shared/reference/ios-sources/ (rows, order, identifiers); the other pages are a real phone's
rows (iOS 26, or iOS 18 where 26 did not change them), named by their titles, only the top of a
long page.
"""

from __future__ import annotations

from phoneshell.sim.apps.settings_battery import PAGES as BATTERY_PAGES
from phoneshell.sim.apps.settings_below import ACCESSIBILITY_PAGES, GENERAL_PAGES, OTHER_PAGES
from phoneshell.sim.apps.settings_rows import (
    Page,
    PageRow,
    PageSection,
    action,
    buttons,
    connected,
    info,
    joins,
    link,
    note,
    sec,
    simple,
    slider,
    switch,
)

__all__ = ["APPEARANCE", "APPS", "APP_STORE_PAGE", "CHOICE_DEFAULTS", "PAGES", "SLIDER_DEFAULTS",
           "SWITCH_DEFAULTS", "Page", "PageRow", "PageSection"]


def _ident(short: str) -> str:
    return f"com.apple.settings.{short}"


SWITCH_DEFAULTS: dict[str, bool] = {
    "airplane": False, "wifi": True, "bluetooth": True, "cellular_data": True,
    "battery_percentage": True, "low_power": False, "adaptive_power": True, "ask_to_join": True,
    "auto_join": True,
    "dark_auto": False, "bold_text": False, "true_tone": True, "raise_to_wake": True,
    "larger_sizes": False, "reduce_motion": False, "autoplay_images": True,
    "autoplay_video": True, "autoplay_effects": True, "steady_cursor": False,
    "limit_frame_rate": False,
    "button_shapes": False, "auto_update": True, "time_24h": False, "time_auto": True,
    "auto_caps": True, "auto_correct": True, "spelling": True, "caps_lock": True,
    "predictive": True, "smart_punct": True, "char_preview": True, "period_shortcut": True,
    "grid": False, "standby": True, "silent": False, "show_recent": True, "siri_side": True,
    "location": True, "dev_dark": False, "ui_automation": True, "hotspot": False,
    "airdrop_nearby": True, "voiceover": False, "zoom": False, "optimized_charging": True,
    "cc_in_apps": True,
    "zoom_follow_focus": True, "zoom_smart_typing": False, "speak_selection": False,
    "speak_screen": False, "audio_descriptions": False, "reachability": False,
    "attention_for_face_id": True, "attention_aware": True, "switch_control": False,
    "voice_control": False, "hearing_aid_compat": False, "sound_recognition": False,
    "closed_captions": False, "guided_access": False, "sos_hold_release": True,
    "sos_five_presses": False, "game_center": False, "transfer_homepod": True,
    "pip_auto": True, "install_ios_updates": True, "security_responses": True,
    "data_roaming": False, "night_shift_scheduled": False, "night_shift_manual": False,
    "allow_tracking": True, "screen_sharing_notifications": False,
}
JOINED_NETWORK = "wifi_joined"
CONNECTED_DEVICE = "bluetooth_connected"
"""Store keys of the Wi-Fi network the phone joined and the Bluetooth device it connected to
from their rows (`joins`): what a tap on such a row leaves, which no set-back undoes."""
APPEARANCE = "appearance"
"""The store key of Display & Brightness's Light or Dark ("light", "dark"): the phone's
appearance, which `/wda/device/appearance` sets too."""
APPS = "apps"
APP_STORE_PAGE = "app_store"
"""The ids of Apps' page (its rows, one per app, are the phone's: `settings._app_rows`) and of
the App Store's page there."""
SLIDER_DEFAULTS: dict[str, float] = {"text_size": 0.5, "brightness": 0.7, "larger_size": 0.5,
                                     "voiceover_rate": 0.5, "night_shift_warmth": 0.5}

_ROOT = Page("root", "Settings", (
    sec(PageRow("link", "Apple Account", target="account", ident=_ident("primaryAppleAccount"),
                subtitle="Sign in to access your iCloud data, the App Store, Apple services, "
                         "and more.")),
    sec(switch("Airplane Mode", "airplane", _ident("airplaneMode")),
        link("Wi-Fi", "wifi", "{wifi_status}", _ident("wifi")),
        link("Bluetooth", "bluetooth", "{switch:bluetooth}", _ident("bluetooth")),
        link("Cellular", "cellular", None, _ident("cellular")),
        link("Battery", "battery", None, _ident("battery"))),
    sec(link("General", "general", None, _ident("general")),
        link("Accessibility", "accessibility", None, _ident("accessibility")),
        link("Action Button", "action_button", None, _ident("actionButton")),
        link("Apple Intelligence & Siri", "siri", None, _ident("siri")),
        link("Camera", "camera", None, _ident("camera")),
        link("Control Center", "control_center", None, _ident("controlCenter")),
        link("Display & Brightness", "display", None, _ident("display")),
        link("Home Screen & App Library", "home_screen", None, _ident("homeScreen")),
        link("Search", "search", None, _ident("search")),
        link("StandBy", "standby", None, _ident("standBy")),
        link("Wallpaper", "wallpaper", None, _ident("wallpaper"))),
    sec(link("Notifications", "notifications", None, _ident("notifications")),
        link("Sounds & Haptics", "sounds", None, _ident("sounds")),
        link("Focus", "focus", None, _ident("focus")),
        link("Screen Time", "screen_time", None, _ident("screenTime"))),
    sec(link("Face ID & Passcode", "passcode", None, _ident("passcode")),
        link("Emergency SOS", "sos", None, _ident("sos")),
        link("Privacy & Security", "privacy", None, _ident("privacy"))),
    sec(link("Game Center", "game_center", None, _ident("gameCenter")),
        link("iCloud", "icloud", None, _ident("iCloud")),
        link("Wallet & Apple Pay", "wallet", None, _ident("wallet"))),
    sec(link("Apps", "apps", None, _ident("apps"))),
    sec(link("Developer", "developer", None, _ident("developer"))),
))
"""The iOS 26.2 root as a real phone lists it; the dump (a simulator) has the same order and
identifiers without the radio, battery and payment rows."""

_GENERAL = Page("general", "General", (
    sec(link("About", "about"), link("Software Update", "software_update")),
    sec(link("AppleCare & Warranty", "applecare")),
    sec(link("AirDrop", "airdrop"), link("AirPlay & Continuity", "airplay"),
        link("Picture in Picture", "pip"), link("CarPlay", "carplay")),
    sec(link("iPhone Storage", "storage"), link("Background App Refresh", "background_refresh")),
    sec(link("Date & Time", "datetime"), link("Dictionary", "dictionary"),
        link("Fonts", "fonts"), link("Keyboard", "keyboard"),
        link("Language & Region", "language")),
    sec(link("VPN & Device Management", "vpn")),
    sec(link("Legal & Regulatory", "legal")),
    sec(link("Transfer or Reset iPhone", "transfer_reset"), action("Shut Down")),
))

_ABOUT = Page("about", "About", (
    sec(info("Name", "{name}", "NAME_CELL_ID"),
        link("iOS Version", "ios_version", "{ios_version}", "SW_VERSION_SPECIFIER"),
        info("Model Name", "{model}", "ProductModelName"),
        info("Model Number", "{model_number}", "ProductModel", "{regulatory_model}"),
        info("Serial Number", "{serial}", "SerialNumber")),
    sec(info("Songs", "0", "SONGS"), info("Videos", "0", "VIDEOS"),
        info("Photos", "0", "PHOTOS"), info("Applications", "{app_count}", "APPLICATIONS"),
        info("Capacity", "{capacity}", "User Data Capacity"),
        info("Available", "{available}", "User Data Available")),
    sec(info("Wi-Fi Address", "F0:99:B6:4C:21:7A"), info("Bluetooth", "F0:99:B6:4C:21:7B"),
        info("Modem Firmware", "1.20.03")),
    sec(link("Certificate Trust Settings", "certificates", None, "CERT_TRUST_SETTINGS")),
), keywords=("model", "serial", "version", "capacity"))
"""Rows and identifiers of the iOS 26.2 dump; a phone adds the radio rows (Wi-Fi Address...).
A tap on Model Number shows the regulatory model number (A3256) instead of the part number,
as on a phone, until the page is left."""

WIFI_SWITCH_NAME = "Wi\u2011Fi"
"""The name (identifier) of the Wi-Fi page's switch: iOS spells it with U+2011 NON-BREAKING
HYPHEN where the page's texts have "-" (public Appium tests against iOS 17-26.3 iPhones find
`//XCUIElementTypeSwitch[@name="Wi\u2011Fi"]`, and the root's row and the page's header as
"Wi-Fi"). Its label stays "Wi-Fi" here: no source shows which hyphen the label has (inferred)."""


def _radio(title: str, key: str, ident: str | None, on: str | None,
           off: str | None) -> tuple[PageSection, PageSection]:
    """A radio's switch in a section of its own whose footer follows the switch, as iOS's does:
    `on` under it while it is on, `off` while it is off (a section with `when="!key"`)."""
    row = switch(title, key, ident)
    return sec(row, footer=on, when=key), sec(row, footer=off, when=f"!{key}")


_WIFI = Page("wifi", "Wi-Fi", (
    # With Wi-Fi off iOS says what still needs it (iOS 15-18 pages; iOS 26's not seen); on,
    # the networks follow the switch with no footer between.
    *_radio("Wi-Fi", "wifi", WIFI_SWITCH_NAME, None,
            "AirDrop, AirPlay, Notify When Left Behind, and improved location accuracy require "
            "Wi-Fi."),
    sec(connected("{wifi_network}", JOINED_NETWORK), header="My Networks", when="wifi"),
    sec(joins("Cafe Guest", "Open", JOINED_NETWORK), joins("Neighbor-5G", "Secure", JOINED_NETWORK),
        joins("Library Wi-Fi", "Open", JOINED_NETWORK), header="Other Networks", when="wifi"),
    sec(switch("Ask to Join Networks", "ask_to_join"), switch("Auto-Join Hotspot", "auto_join"),
        when="wifi"),
), keywords=("wireless", "network", "wlan"))

_BLUETOOTH = Page("bluetooth", "Bluetooth", (
    *_radio("Bluetooth", "bluetooth", None,
            'This iPhone is discoverable as "{name}" while Bluetooth Settings is open.',
            "AirDrop, AirPlay, Find My, and Location Services use Bluetooth."),
    sec(joins("AirPods Pro", "Not Connected", CONNECTED_DEVICE),
        joins("Car Audio", "Not Connected", CONNECTED_DEVICE), header="My Devices",
        when="bluetooth"),
))

_DISPLAY = Page("display", "Display & Brightness", (
    sec(buttons("Appearance", APPEARANCE, "Light", "Dark"), switch("Automatic", "dark_auto"),
        header="Appearance"),
    sec(link("Text Size", "text_size"), switch("Bold Text", "bold_text")),
    sec(slider("Brightness", "brightness"), switch("True Tone", "true_tone"),
        header="Brightness"),
    sec(link("Night Shift", "night_shift", "Off"),
        link("Auto-Lock", "auto_lock", "{choice:auto_lock}"),
        switch("Raise to Wake", "raise_to_wake")),
    sec(link("Display Zoom", "display_zoom", "{choice:display_zoom}"), header="Display"),
), keywords=("brightness", "dark mode", "appearance"))

_TEXT_SIZE = Page("text_size", "Text Size", (
    sec(note("Apps that support Dynamic Type will adjust to your preferred reading size "
             "below.")),
    sec(slider("Text Size", "text_size")),
    sec(link("Larger Text", "larger_text"),
        footer="Larger Accessibility Sizes are in Accessibility > Larger Text."),
), keywords=("font size", "larger text", "dynamic type"))

_LARGER_TEXT = Page("larger_text", "Larger Text", (
    sec(switch("Larger Accessibility Sizes", "larger_sizes")),
    sec(slider("Larger Text", "larger_size"),
        footer="Apps that support Dynamic Type will adjust to your preferred reading size."),
))

_ACCESSIBILITY = Page("accessibility", "Accessibility", (
    sec(link("VoiceOver", "voiceover", "{switch:voiceover}"),
        link("Zoom", "zoom", "{switch:zoom}"),
        link("Display & Text Size", "display_text"), link("Motion", "motion"),
        link("Spoken Content", "spoken"),
        link("Audio Descriptions", "audio_desc", "{switch:audio_descriptions}"),
        header="Vision"),
    sec(link("Touch", "touch"), link("Face ID & Attention", "faceid_attention"),
        link("Switch Control", "switch_control", "{switch:switch_control}"),
        link("Voice Control", "voice_control", "{switch:voice_control}"),
        link("Side Button", "side_button"),
        link("Keyboards & Typing", "a11y_keyboards"), header="Physical and Motor"),
    sec(link("Hearing Devices", "hearing"),
        link("Sound Recognition", "sound_recog", "{switch:sound_recognition}"),
        link("Subtitles & Captioning", "subtitles"), header="Hearing"),
    sec(link("Guided Access", "guided_access", "{switch:guided_access}"),
        link("Accessibility Shortcut", "a11y_shortcut", "Off"),
        link("Per-App Settings", "per_app"), header="General"),
))

_DISPLAY_TEXT = Page("display_text", "Display & Text Size", (
    sec(switch("Bold Text", "bold_text"),
        link("Larger Text", "larger_text", "{switch:larger_sizes}"),
        switch("Button Shapes", "button_shapes")),
))

_MOTION = Page("motion", "Motion", (
    sec(switch("Reduce Motion", "reduce_motion", "REDUCE_MOTION"),
        footer="Reduce the motion of the user interface, including the parallax effect of "
               "icons."),
    sec(switch("Auto-Play Animated Images", "autoplay_images",
               "REDUCE_MOTION_AUTOPLAY_ANIMATED_IMAGES"),
        switch("Auto-Play Video Previews", "autoplay_video",
               "REDUCE_MOTION_AUTOPLAY_VIDEO_PREVIEWS"),
        switch("Auto-Play Message Effects", "autoplay_effects",
               "ReduceMotionAutoplayMessagesEffects"),
        footer="Control if videos, animated images, and full screen effects in messages play "
               "automatically."),
    sec(switch("Prefer Non-Blinking Cursor", "steady_cursor", "PREFER_NONBLINKING_CURSOR"),
        footer="Prefer the cursor indicator in text does not blink."),
    sec(switch("Limit Frame Rate", "limit_frame_rate", "REFRESH_RATE"),
        footer="Sets the maximum frame rate of the display to 60 frames per second."),
))
"""The Accessibility > Motion dump's rows, identifiers, defaults and footers."""

_SOFTWARE_UPDATE = Page("software_update", "Software Update", (
    sec(link("Automatic Updates", "auto_updates", "On"),
        link("Beta Updates", "beta", "{choice:beta}")),
    sec(note("iOS {ios_version}"), note("iOS is up to date")),
), keywords=("update", "ios"))

_STORAGE = Page("storage", "iPhone Storage", (
    sec(info("iPhone", "54.65 GB of {capacity} Used")),
    sec(info("Offload Unused Apps", "Off"), header="Recommendations"),
), keywords=("storage", "space", "disk"))
"""iPhone Storage's own rows; the apps are listed below them by `settings_storage.py`."""

_DATETIME = Page("datetime", "Date & Time", (
    sec(switch("24-Hour Time", "time_24h")),
    sec(switch("Set Automatically", "time_auto"), info("Time Zone", "Cupertino")),
), keywords=("clock", "time zone"))

_FONTS = Page("fonts", "Fonts", (
    sec(link("System Fonts", "system_fonts")),
    sec(note("No fonts installed"), header="Installed Fonts"),
))

_KEYBOARD = Page("keyboard", "Keyboard", (
    sec(link("Keyboards", "keyboards", "2"), link("Text Replacement", "text_replacement")),
    sec(switch("Auto-Capitalization", "auto_caps"), switch("Auto-Correction", "auto_correct"),
        switch("Check Spelling", "spelling"), switch("Enable Caps Lock", "caps_lock"),
        switch("Predictive Text", "predictive"), switch("Smart Punctuation", "smart_punct"),
        switch("Character Preview", "char_preview"),
        switch('"." Shortcut', "period_shortcut"), header="All Keyboards"),
), keywords=("typing", "autocorrect"))


_PAGES: tuple[Page, ...] = (
    _ROOT, _GENERAL, _ABOUT, _WIFI, _BLUETOOTH, *BATTERY_PAGES, _DISPLAY, _TEXT_SIZE, _LARGER_TEXT,
    _ACCESSIBILITY, _DISPLAY_TEXT, _MOTION, _SOFTWARE_UPDATE, _STORAGE, _DATETIME, _FONTS,
    _KEYBOARD, *ACCESSIBILITY_PAGES, *GENERAL_PAGES, *OTHER_PAGES,
    simple("account", "Apple Account", note("Sign in to your iPhone"),
            action("Sign in Manually")),
    simple("cellular", "Cellular", switch("Cellular Data", "cellular_data"),
            link("Cellular Data Options", "cellular_options", "Roaming {switch:data_roaming}"),
            link("Personal Hotspot", "hotspot", "{switch:hotspot}"), keywords=("mobile data",)),
    simple("battery_health", "Battery Health", info("Maximum Capacity", "100%"),
            switch("Optimized Battery Charging", "optimized_charging")),
    simple("camera", "Camera", link("Formats", "formats"),
            link("Record Video", "record_video", "{choice:record_video}"), switch("Grid", "grid")),
    simple("home_screen", "Home Screen & App Library", info("Newly Downloaded Apps",
                                                             "Add to Home Screen")),
    simple("search", "Search", switch("Show Recent Searches", "show_recent")),
    simple("siri", "Apple Intelligence & Siri",
            link("Talk to Siri", "talk_to_siri", "{choice:talk_to_siri}"),
            switch("Press Side Button for Siri", "siri_side")),
    simple("standby", "StandBy", switch("StandBy", "standby")),
    simple("wallpaper", "Wallpaper", action("Add New Wallpaper")),
    simple("notifications", "Notifications",
            link("Show Previews", "previews", "{choice:previews}"),
            link("Screen Sharing", "screen_sharing",
                 "Notifications {switch:screen_sharing_notifications}")),
    simple("sounds", "Sounds & Haptics", switch("Silent Mode", "silent"),
            link("Ringtone", "ringtone", "{choice:ringtone}")),
    simple("focus", "Focus", link("Do Not Disturb", "dnd"), link("Sleep", "sleep")),
    simple("screen_time", "Screen Time", link("App & Website Activity", "activity")),
    simple("privacy", "Privacy & Security",
            link("Location Services", "location", "{switch:location}"),
            link("Tracking", "tracking")),
    simple(APP_STORE_PAGE, "App Store", switch("App Updates", "auto_update")),
    simple("control_center", "Control Center", switch("Access Within Apps", "cc_in_apps")),
    simple("passcode", "Face ID & Passcode", action("Turn Passcode On")),
    simple("wallet", "Wallet & Apple Pay", action("Add Card")),
    # one row per app on the phone below (`settings._app_rows`), as iOS 18 on lists them
    simple(APPS, "Apps", link("Default Apps", "default_apps")),
    simple("default_apps", "Default Apps", info("Browser App", "Safari"),
            info("Mail", "Mail")),
    simple("developer", "Developer", switch("Dark Appearance", "dev_dark"),
            switch("Enable UI Automation", "ui_automation")),
    simple("airdrop", "AirDrop", switch("Bringing Devices Together", "airdrop_nearby"),
            info("Receiving", "Contacts Only")),
    simple("applecare", "AppleCare & Warranty",
            info("Limited Warranty", "Expires {warranty_expiry}")),
    simple("language", "Language & Region", info("iPhone Language", "English"),
            info("Region", "{region}")),
    simple("vpn", "VPN & Device Management", info("VPN", "Not Connected")),
    simple("transfer_reset", "Transfer or Reset iPhone", action("Prepare for New iPhone"),
            action("Reset"), action("Erase All Content and Settings")),
)
PAGES: dict[str, Page] = {p.id: p for p in _PAGES}
"""Every page: each link row's target is here, with rows, as every row on a phone opens a page
with content, but a deeper page drawn as a stub (`settings_rows.opens`, `settings_rows.STUB`)."""

CHOICE_DEFAULTS: dict[str, str] = {row.key: row.title for page in PAGES.values()
                                   for section in page.sections for row in section.rows
                                   if row.kind == "choice" and row.key and row.chosen}
"""Each choice list's option as a new phone has it (Auto-Lock: as a phone set up for
phoneshell has it), by store key."""
