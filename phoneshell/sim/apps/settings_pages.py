"""The pages of the Settings app, as data: titles, sections, rows, and the page each row opens.

A row's `detail` may name device facts or derived values in braces ("{model_number}",
"{wifi_status}"), or a switch ("{switch:voiceover}" reads "On" or "Off", so Accessibility's
VoiceOver row follows the VoiceOver page's switch, as on a phone); `settings.py` fills them in.
Titles are written in US English and shown in the phone's spelling. A row with `switch` shows a
switch backed by a boolean in Settings' store (`SWITCH_DEFAULTS` gives each one's factory value).
To add a page: add a `Page` to `PAGES` and a `link(...)` row to it from its parent. Every link
opens a page with rows, as on a phone (a test walks them), so a deeper item without a page of
its own is an `info` row. The root list, General > About and Accessibility > Motion follow the
iOS 26 dumps in ../shared/reference/ios-sources/ (rows, order, identifiers); the other pages are
a real phone's rows (iOS 26, or iOS 18 where 26 did not change them), named by their titles,
only the top of a long page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

RowKind = Literal["link", "info", "switch", "slider", "note", "button"]


@dataclass(frozen=True)
class PageRow:
    """One row of a Settings page."""

    kind: RowKind
    title: str
    target: str | None = None
    """For links: the id of the page the row opens."""
    detail: str | None = None
    """Right-hand text; braces name values filled in at render ("{ios_version}")."""
    key: str | None = None
    """For switches and sliders: the Settings store key holding the value."""
    ident: str | None = None
    """The cell's accessibility identifier (name), when the real one differs from the title."""
    subtitle: str | None = None


@dataclass(frozen=True)
class PageSection:
    """Rows under an optional header and footer, shown only while switch `when` is on."""

    rows: tuple[PageRow, ...]
    header: str | None = None
    footer: str | None = None
    when: str | None = None


@dataclass(frozen=True)
class Page:
    """One Settings page; `keywords` are extra words Settings search matches it by."""

    id: str
    title: str
    sections: tuple[PageSection, ...]
    keywords: tuple[str, ...] = ()


def link(title: str, target: str, detail: str | None = None, ident: str | None = None) -> PageRow:
    """A row that opens another page."""
    return PageRow("link", title, target=target, detail=detail, ident=ident)


def info(title: str, detail: str = "", ident: str | None = None) -> PageRow:
    """A row that shows a value ("Model Number, MQ163LL/A"), or only its title."""
    return PageRow("info", title, detail=detail, ident=ident)


def choices(*titles: str, selected: str) -> tuple[PageRow, ...]:
    """A list of options with a checkmark on one, shown as Display & Brightness shows "Light":
    the checked row's detail is "Selected"."""
    return tuple(info(t, "Selected" if t == selected else "") for t in titles)


def switch(title: str, key: str, ident: str | None = None) -> PageRow:
    """A row with a switch backed by the store key `key`."""
    return PageRow("switch", title, key=key, ident=ident)


def slider(title: str, key: str) -> PageRow:
    """A row holding a slider backed by the store key `key` (0.0-1.0)."""
    return PageRow("slider", title, key=key)


def note(text: str) -> PageRow:
    """A paragraph of explanatory text."""
    return PageRow("note", text)


def action(title: str) -> PageRow:
    """A button row (e.g. Shut Down) that does nothing in the simulator."""
    return PageRow("button", title)


def sec(*rows: PageRow, header: str | None = None, footer: str | None = None,
        when: str | None = None) -> PageSection:
    """A section of rows (shown only while the switch `when`, if given, is on)."""
    return PageSection(rows, header, footer, when)


def _ident(short: str) -> str:
    return f"com.apple.settings.{short}"


SWITCH_DEFAULTS: dict[str, bool] = {
    "airplane": False, "wifi": True, "bluetooth": True, "cellular_data": True,
    "battery_percentage": True, "low_power": False, "ask_to_join": True, "auto_join": True,
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
        info("Model Number", "{model_number}", "ProductModel"),
        info("Serial Number", "{serial}", "SerialNumber")),
    sec(info("Songs", "0", "SONGS"), info("Videos", "0", "VIDEOS"),
        info("Photos", "0", "PHOTOS"), info("Applications", "{app_count}", "APPLICATIONS"),
        info("Capacity", "{capacity}", "User Data Capacity"),
        info("Available", "{available}", "User Data Available")),
    sec(info("Wi-Fi Address", "F0:99:B6:4C:21:7A"), info("Bluetooth", "F0:99:B6:4C:21:7B"),
        info("Modem Firmware", "1.20.03")),
    sec(link("Certificate Trust Settings", "certificates", None, "CERT_TRUST_SETTINGS")),
), keywords=("model", "serial", "version", "capacity"))
"""Rows and identifiers of the iOS 26.2 dump; a phone adds the radio rows (Wi-Fi Address...)."""

_WIFI = Page("wifi", "Wi-Fi", (
    sec(switch("Wi-Fi", "wifi"), footer="Wi-Fi networks appear here when Wi-Fi is on."),
    sec(info("{wifi_network}", "Connected"), header="My Networks", when="wifi"),
    sec(info("Cafe Guest", "Open"), info("Neighbor-5G", "Secure"),
        info("Library Wi-Fi", "Open"), header="Other Networks", when="wifi"),
    sec(switch("Ask to Join Networks", "ask_to_join"), switch("Auto-Join Hotspot", "auto_join"),
        when="wifi"),
), keywords=("wireless", "network", "wlan"))

_BLUETOOTH = Page("bluetooth", "Bluetooth", (
    sec(switch("Bluetooth", "bluetooth"),
        footer='This iPhone is discoverable as "{name}" while Bluetooth Settings is open.'),
    sec(info("AirPods Pro", "Not Connected"), info("Car Audio", "Not Connected"),
        header="My Devices", when="bluetooth"),
))

_BATTERY = Page("battery", "Battery", (
    sec(info("Battery Level", "{battery_percent}"),
        switch("Battery Percentage", "battery_percentage"),
        switch("Low Power Mode", "low_power"),
        footer="Low Power Mode temporarily reduces background activity."),
    sec(link("Battery Health", "battery_health", "Normal"), link("Charging", "charging")),
    sec(info("Last Charged to 100%", "8:12 AM"), header="Last 24 Hours"),
), keywords=("power", "charge", "percentage"))

_DISPLAY = Page("display", "Display & Brightness", (
    sec(info("Light", "Selected"), info("Dark", ""), switch("Automatic", "dark_auto"),
        header="Appearance"),
    sec(link("Text Size", "text_size"), switch("Bold Text", "bold_text")),
    sec(slider("Brightness", "brightness"), switch("True Tone", "true_tone"),
        header="Brightness"),
    sec(link("Night Shift", "night_shift", "Off"), link("Auto-Lock", "auto_lock", "30 seconds"),
        switch("Raise to Wake", "raise_to_wake")),
    sec(link("Display Zoom", "display_zoom", "Default"), header="Display"),
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
        link("Keyboards", "a11y_keyboards"), header="Physical and Motor"),
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
    sec(link("Automatic Updates", "auto_updates", "On"), link("Beta Updates", "beta", "Off")),
    sec(note("iOS {ios_version}"), note("iOS is up to date")),
), keywords=("update", "ios"))

_STORAGE = Page("storage", "iPhone Storage", (
    sec(info("iPhone", "54.65 GB of {capacity} Used")),
    sec(info("Offload Unused Apps", "Off"), header="Recommendations"),
    sec(info("Photos", "21.3 GB"), info("Messages", "8.1 GB"), info("Music", "6.4 GB"),
        info("Safari", "412 MB"), info("Notes", "96 MB"), info("Calculator", "3.1 MB")),
), keywords=("storage", "space", "disk"))

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


def _simple(id: str, title: str, *rows: PageRow, footer: str | None = None,
            keywords: tuple[str, ...] = ()) -> Page:
    return Page(id, title, (sec(*rows, footer=footer),), keywords)


def _feature(id: str, title: str, key: str, explanation: str, *below: PageSection,
             keywords: tuple[str, ...] = ()) -> Page:
    """A feature's page as Accessibility's are: its switch, named like the page, with the
    phone's explanation under it, then what the page lists below."""
    return Page(id, title, (sec(switch(title, key), footer=explanation), *below), keywords)


_ACCESSIBILITY_PAGES = (
    _feature("voiceover", "VoiceOver", "voiceover",
             "VoiceOver speaks items on screen:\n• Tap once to select an item.\n"
             "• Double-tap to activate the selected item.",
             sec(action("VoiceOver Tutorial")),
             sec(slider("Speaking Rate", "voiceover_rate"), header="Speaking Rate"),
             sec(info("Speech"), info("Braille"), info("VoiceOver Recognition"),
                 info("Verbosity"), info("Audio")), keywords=("screen reader",)),
    _feature("zoom", "Zoom", "zoom",
             "Zoom magnifies the entire screen:\n• Double-tap three fingers to zoom\n"
             "• Drag three fingers to move around the screen\n"
             "• Double-tap three fingers and drag to change zoom",
             sec(switch("Follow Focus", "zoom_follow_focus"),
                 switch("Smart Typing", "zoom_smart_typing")),
             sec(info("Keyboard Shortcuts", "On"), info("Zoom Controller", "Off"),
                 info("Zoom Region", "Full Screen Zoom"), info("Zoom Filter", "None")),
             keywords=("magnify",)),
    Page("spoken", "Spoken Content", (
        sec(switch("Speak Selection", "speak_selection"),
            footer="A Speak button will appear when you select text."),
        sec(switch("Speak Screen", "speak_screen"),
            footer="Swipe down with two fingers from the top of the screen to hear the content "
                   "of the screen."),
    ), keywords=("speak screen", "speak selection")),
    _feature("audio_desc", "Audio Descriptions", "audio_descriptions",
             "Automatically play audio descriptions when available."),
    Page("touch", "Touch", (
        sec(info("AssistiveTouch", "Off"),
            footer="AssistiveTouch allows you to use your iPhone if you have difficulty touching "
                   "the screen or if you require an adaptive accessory."),
        sec(switch("Reachability", "reachability"),
            footer="Swipe down on the bottom edge of the screen to bring the top into reach."),
        sec(info("Haptic Touch"), info("Touch Accommodations", "Off")),
    ), keywords=("reachability", "assistivetouch")),
    Page("faceid_attention", "Face ID & Attention", (
        sec(switch("Require Attention for Face ID", "attention_for_face_id"),
            footer="TrueDepth camera will provide an additional level of security by verifying "
                   "that you are looking at iPhone before unlocking. Some sunglasses may block "
                   "attention detection."),
        sec(switch("Attention Aware Features", "attention_aware"),
            footer="iPhone will check for attention before dimming the display, expanding a "
                   "notification when locked, or lowering the volume of some alerts."),
    )),
    _feature("switch_control", "Switch Control", "switch_control",
             "Switch Control allows you to use your iPhone by sequentially highlighting items "
             "on the screen that can be activated through an adaptive accessory."),
    _feature("voice_control", "Voice Control", "voice_control",
             "Voice Control allows you to use your voice to control iPhone."),
    _simple("side_button", "Side Button",
            *choices("Default", "Slow", "Slowest", selected="Default"),
            footer="Adjust the speed required to double or triple-click the side button."),
    Page("a11y_keyboards", "Keyboards", (
        sec(info("Full Keyboard Access", "Off"), header="Hardware Keyboards",
            footer="Use an external keyboard to control your iPhone."),
        sec(info("Key Repeat", "On"), info("Sticky Keys", "Off"), info("Slow Keys", "Off"),
            footer="Customize the typing experience when using an external keyboard."),
    )),
    Page("hearing", "Hearing Devices", (
        sec(info("Searching…"), header="MFi Hearing Devices"),
        sec(switch("Hearing Aid Compatibility", "hearing_aid_compat"),
            footer="Hearing Aid Compatibility improves audio quality with some hearing aids."),
    )),
    _feature("sound_recog", "Sound Recognition", "sound_recognition",
             "iPhone will continuously listen for certain sounds, and using on-device "
             "intelligence, will notify you when sounds may be recognized.\n\nSound "
             "Recognition should not be relied upon in circumstances where you may be harmed "
             "or injured, in high-risk or emergency situations, or for navigation."),
    Page("subtitles", "Subtitles & Captioning", (
        sec(switch("Closed Captions + SDH", "closed_captions"),
            footer="When available, prefer closed captioning or subtitles for the deaf and hard "
                   "of hearing."),
        sec(info("Style", "Transparent Background")),
    ), keywords=("closed captions",)),
    _feature("guided_access", "Guided Access", "guided_access",
             "Guided Access keeps the iPhone in a single app, and allows you to control which "
             "features are available. To start Guided Access, triple-click the side button in "
             "the app you want to use."),
    Page("a11y_shortcut", "Accessibility Shortcut", (
        sec(info("AssistiveTouch"), info("Background Sounds"), info("Classic Invert"),
            info("Color Filters"), header="Triple-click the side button for:"),
    ), keywords=("triple-click",)),
    Page("per_app", "Per-App Settings", (
        sec(note("Customize display and text size settings for the apps below.")),
        sec(action("Add App")),
    )),
)
"""The pages Accessibility's rows open, in its order."""

_GENERAL_PAGES = (
    Page("airplay", "AirPlay & Continuity", (
        sec(info("Automatically AirPlay", "Automatic")),
        sec(switch("Transfer to HomePod", "transfer_homepod"),
            footer="When playing media, bring iPhone close to the top of HomePod to transfer "
                   "what’s playing."),
    ), keywords=("handoff", "homepod")),
    _simple("pip", "Picture in Picture", switch("Start PiP Automatically", "pip_auto"),
            footer="When you swipe up to go Home or use other apps, videos and FaceTime calls "
                   "will automatically continue in Picture in Picture.", keywords=("pip",)),
    Page("carplay", "CarPlay", (
        sec(note("If your car supports wireless CarPlay, press and hold the voice command "
                 "button on your steering wheel to set up CarPlay."), header="Available Cars"),
    )),
    _simple("background_refresh", "Background App Refresh",
            info("Background App Refresh", "Wi-Fi & Cellular Data"),
            footer="Allow apps to refresh their content when on Wi-Fi or cellular in the "
                   "background. Turning off apps may help preserve battery life."),
    _simple("dictionary", "Dictionary", info("Apple Dictionary", "Selected"),
            info("New Oxford American Dictionary", "Selected"),
            info("Oxford American Writer’s Thesaurus", "Selected")),
    Page("legal", "Legal & Regulatory", (
        sec(info("Legal Notices"), info("License"), info("Warranty"), info("RF Exposure")),
        sec(info("Regulatory")),
    ), keywords=("license", "warranty")),
    Page("keyboards", "Keyboards", (
        sec(info("English (US)"), info("Emoji")),
        sec(action("Add New Keyboard…")),
    ), keywords=("emoji",)),
    Page("text_replacement", "Text Replacement", (
        sec(info("On my way!", "omw"), header="O"),
    ), keywords=("shortcut",)),
    _simple("system_fonts", "System Fonts", info("Academy Engraved LET"), info("Al Nile"),
            info("American Typewriter"), info("Apple Color Emoji")),
    _simple("certificates", "Certificate Trust Settings",
            info("Trust Store Version", "2023071300"), info("Trust Asset Version", "1002"),
            footer="Learn more about trusted certificates"),
    _simple("ios_version", "iOS Version", note("iOS {ios_version}")),
    Page("auto_updates", "Automatic Updates", (
        sec(switch("iOS Updates", "install_ios_updates"),
            switch("Security Responses & System Files", "security_responses"),
            header="Automatically Install",
            footer="Automatically install iOS software updates when this iPhone is connected "
                   "to Wi-Fi, charging, and locked."),
    )),
    _simple("beta", "Beta Updates", *choices("Off", selected="Off"),
            footer="Receive beta updates on this iPhone to test-drive pre-release versions of "
                   "iOS and provide feedback to help make Apple software even better."),
)
"""General's pages and the pages below them (Keyboard, Fonts, About, Software Update)."""

_OTHER_PAGES = (
    _simple("action_button", "Action Button",
            *choices("Silent Mode", "Focus", "Camera", "Flashlight", selected="Silent Mode"),
            footer="Switch between Silent and Ring for calls and alerts."),
    Page("sos", "Emergency SOS", (
        sec(switch("Call with Hold and Release", "sos_hold_release")),
        sec(switch("Call with 5 Button Presses", "sos_five_presses")),
    ), keywords=("crash detection",)),
    _simple("game_center", "Game Center", switch("Game Center", "game_center")),
    _simple("icloud", "iCloud", note("Sign in to access your iCloud data, the App Store, Apple "
                                     "services, and more."), action("Sign in Manually")),
    _simple("cellular_options", "Cellular Data Options", info("Voice & Data", "5G Auto"),
            info("Data Mode", "Standard"), switch("Data Roaming", "data_roaming"),
            keywords=("roaming",)),
    _simple("hotspot", "Personal Hotspot", switch("Allow Others to Join", "hotspot"),
            info("Wi-Fi Password", "pc5ahgq1hk4g9"),
            footer="Allow other users or devices not signed into iCloud to look for your "
                   "shared network “{name}” when you are in Personal Hotspot settings or when "
                   "you turn it on in Control Center.", keywords=("tethering",)),
    _simple("charging", "Charging", switch("Optimized Battery Charging", "optimized_charging"),
            footer="To reduce battery aging, iPhone learns from your daily charging routine so "
                   "it can wait to finish charging past 80% until you need to use it."),
    _simple("auto_lock", "Auto-Lock",
            *choices("30 seconds", "1 minute", "2 minutes", "3 minutes", "4 minutes",
                     "5 minutes", "Never", selected="30 seconds"),
            keywords=("screen timeout",)),
    Page("night_shift", "Night Shift", (
        sec(note("Night Shift automatically shifts the colors of your display to the warmer end "
                 "of the color spectrum after dark. This may help you get a better night’s "
                 "sleep.")),
        sec(switch("Scheduled", "night_shift_scheduled")),
        sec(switch("Manually Enable Until Tomorrow", "night_shift_manual")),
        sec(slider("Color Temperature", "night_shift_warmth"), header="Color Temperature"),
    ), keywords=("blue light",)),
    _simple("display_zoom", "Display Zoom", *choices("Default", "Larger Text", selected="Default"),
            footer="Choose a view for iPhone. Larger Text shows larger controls. Default shows "
                   "more content."),
    Page("location", "Location Services", (
        sec(switch("Location Services", "location"), info("Location Alerts"),
            footer="Location Services uses GPS, Bluetooth, and crowd-sourced Wi-Fi hotspot and "
                   "cell tower locations to determine your approximate location."),
    ), keywords=("gps",)),
    _simple("tracking", "Tracking", switch("Allow Apps to Request to Track", "allow_tracking"),
            footer="Allow apps to ask to track your activity across other companies’ apps and "
                   "websites. When this is off, all new app tracking requests are automatically "
                   "denied.", keywords=("advertising",)),
    _simple("activity", "App & Website Activity", action("Turn On App & Website Activity")),
    Page("dnd", "Do Not Disturb", (
        sec(info("People"), info("Apps"), header="Allow Notifications"),
        sec(info("Add Schedule"), header="Set a Schedule"),
    )),
    Page("sleep", "Sleep", (
        sec(info("People"), info("Apps"), header="Allow Notifications"),
    )),
    _simple("previews", "Show Previews",
            *choices("Always", "When Unlocked", "Never", selected="Always")),
    _simple("screen_sharing", "Screen Sharing",
            switch("Allow Notifications", "screen_sharing_notifications")),
    Page("ringtone", "Ringtone", (
        sec(info("Haptics", "Synchronized")),
        sec(*choices("Reflection (Default)", "Apex", "Beacon", "Bulletin", "By The Seaside",
                     "Chimes", selected="Reflection (Default)"), header="Ringtones"),
    )),
    Page("formats", "Formats", (
        sec(*choices("High Efficiency", "Most Compatible", selected="High Efficiency"),
            header="Camera Capture",
            footer="To reduce file size, capture photos and videos in the high efficiency "
                   "HEIF/HEVC format. Most Compatible will always use JPEG/H.264."),
    ), keywords=("heif", "jpeg")),
    _simple("record_video", "Record Video",
            *choices("720p HD at 30 fps", "1080p HD at 30 fps", "1080p HD at 60 fps",
                     "4K at 24 fps", "4K at 25 fps", "4K at 30 fps", "4K at 60 fps",
                     selected="1080p HD at 30 fps"), keywords=("4k",)),
    _simple("talk_to_siri", "Talk to Siri",
            *choices("“Siri” or “Hey Siri”", "“Hey Siri”", "Off", selected="Off"),
            keywords=("hey siri",)),
)
"""The pages below the root's other rows, by parent: root, Cellular, Battery, Display &
Brightness, Privacy & Security, Screen Time, Focus, Notifications, Sounds, Camera, Siri."""

PAGES: dict[str, Page] = {p.id: p for p in (
    _ROOT, _GENERAL, _ABOUT, _WIFI, _BLUETOOTH, _BATTERY, _DISPLAY, _TEXT_SIZE, _LARGER_TEXT,
    _ACCESSIBILITY, _DISPLAY_TEXT, _MOTION, _SOFTWARE_UPDATE, _STORAGE, _DATETIME, _FONTS,
    _KEYBOARD, *_ACCESSIBILITY_PAGES, *_GENERAL_PAGES, *_OTHER_PAGES,
    _simple("account", "Apple Account", note("Sign in to your iPhone"),
            action("Sign in Manually")),
    _simple("cellular", "Cellular", switch("Cellular Data", "cellular_data"),
            link("Cellular Data Options", "cellular_options", "Roaming {switch:data_roaming}"),
            link("Personal Hotspot", "hotspot", "{switch:hotspot}"), keywords=("mobile data",)),
    _simple("battery_health", "Battery Health", info("Maximum Capacity", "100%"),
            switch("Optimized Battery Charging", "optimized_charging")),
    _simple("camera", "Camera", link("Formats", "formats"),
            link("Record Video", "record_video", "1080p at 30 fps"), switch("Grid", "grid")),
    _simple("home_screen", "Home Screen & App Library", info("Newly Downloaded Apps",
                                                             "Add to Home Screen")),
    _simple("search", "Search", switch("Show Recent Searches", "show_recent")),
    _simple("siri", "Apple Intelligence & Siri", link("Talk to Siri", "talk_to_siri", "Off"),
            switch("Press Side Button for Siri", "siri_side")),
    _simple("standby", "StandBy", switch("StandBy", "standby")),
    _simple("wallpaper", "Wallpaper", action("Add New Wallpaper")),
    _simple("notifications", "Notifications", link("Show Previews", "previews", "Always"),
            link("Screen Sharing", "screen_sharing",
                 "Notifications {switch:screen_sharing_notifications}")),
    _simple("sounds", "Sounds & Haptics", switch("Silent Mode", "silent"),
            link("Ringtone", "ringtone", "Reflection")),
    _simple("focus", "Focus", link("Do Not Disturb", "dnd"), link("Sleep", "sleep")),
    _simple("screen_time", "Screen Time", link("App & Website Activity", "activity")),
    _simple("privacy", "Privacy & Security",
            link("Location Services", "location", "{switch:location}"),
            link("Tracking", "tracking")),
    _simple("app_store", "App Store", switch("App Updates", "auto_update")),
    _simple("control_center", "Control Center", switch("Access Within Apps", "cc_in_apps")),
    _simple("passcode", "Face ID & Passcode", action("Turn Passcode On")),
    _simple("wallet", "Wallet & Apple Pay", action("Add Card")),
    _simple("apps", "Apps", link("App Store", "app_store"), note("{app_list}")),
    _simple("developer", "Developer", switch("Dark Appearance", "dev_dark"),
            switch("Enable UI Automation", "ui_automation")),
    _simple("airdrop", "AirDrop", switch("Bringing Devices Together", "airdrop_nearby"),
            info("Receiving", "Contacts Only")),
    _simple("applecare", "AppleCare & Warranty",
            info("Limited Warranty", "Expires {warranty_expiry}")),
    _simple("language", "Language & Region", info("iPhone Language", "English"),
            info("Region", "{region}")),
    _simple("vpn", "VPN & Device Management", info("VPN", "Not Connected")),
    _simple("transfer_reset", "Transfer or Reset iPhone", action("Prepare for New iPhone"),
            action("Reset"), action("Erase All Content and Settings")),
)}
"""Every page: each link row's target is here, with rows, as every row on a phone opens a page
with content."""
