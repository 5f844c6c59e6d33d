"""The Settings pages below Accessibility, General and the root's other rows, as a real phone
shows the top of each (iOS 26, or iOS 18 where 26 did not change it): every row of
`settings_pages.py` opens a page, as on a phone. Deeper pages are stubs (`opens`): the row has
its chevron, as a phone's, and the page shows its title.
"""

from __future__ import annotations

from phoneshell.sim.apps.settings_rows import (
    Page,
    action,
    choices,
    feature,
    info,
    note,
    opens,
    picks,
    sec,
    simple,
    slider,
    switch,
)

ACCESSIBILITY_PAGES: tuple[Page, ...] = (
    feature("voiceover", "VoiceOver", "voiceover",
             "VoiceOver speaks items on screen:\n• Tap once to select an item.\n"
             "• Double-tap to activate the selected item.",
             sec(action("VoiceOver Tutorial")),
             sec(slider("Speaking Rate", "voiceover_rate"), header="Speaking Rate"),
             sec(opens("Speech"), opens("Braille"), opens("VoiceOver Recognition"),
                 opens("Verbosity"), opens("Audio")), keywords=("screen reader",)),
    feature("zoom", "Zoom", "zoom",
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
    feature("audio_desc", "Audio Descriptions", "audio_descriptions",
             "Automatically play audio descriptions when available."),
    Page("touch", "Touch", (
        sec(opens("AssistiveTouch", "Off"),
            footer="AssistiveTouch allows you to use your iPhone if you have difficulty touching "
                   "the screen or if you require an adaptive accessory."),
        sec(switch("Reachability", "reachability"),
            footer="Swipe down on the bottom edge of the screen to bring the top into reach."),
        sec(opens("Haptic Touch"), opens("Touch Accommodations", "Off")),
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
    feature("switch_control", "Switch Control", "switch_control",
             "Switch Control allows you to use your iPhone by sequentially highlighting items "
             "on the screen that can be activated through an adaptive accessory."),
    feature("voice_control", "Voice Control", "voice_control",
             "Voice Control allows you to use your voice to control iPhone."),
    simple("side_button", "Side Button",
            *choices("side_button", "Default", "Slow", "Slowest", selected="Default"),
            footer="Adjust the speed required to double or triple-click the side button."),
    Page("a11y_keyboards", "Keyboards & Typing", (
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
    feature("sound_recog", "Sound Recognition", "sound_recognition",
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
    feature("guided_access", "Guided Access", "guided_access",
             "Guided Access keeps the iPhone in a single app, and allows you to control which "
             "features are available. To start Guided Access, triple-click the side button in "
             "the app you want to use."),
    Page("a11y_shortcut", "Accessibility Shortcut", (
        sec(*picks("a11y_shortcut", "AssistiveTouch", "Background Sounds", "Classic Invert",
                   "Color Filters"), header="Triple-click the side button for:"),
    ), keywords=("triple-click",)),
    Page("per_app", "Per-App Settings", (
        sec(note("Customize display and text size settings for the apps below.")),
        sec(action("Add App")),
    )),
)
"""The pages Accessibility's rows open, in its order."""

GENERAL_PAGES: tuple[Page, ...] = (
    Page("airplay", "AirPlay & Continuity", (
        sec(info("Automatically AirPlay", "Automatic")),
        sec(switch("Transfer to HomePod", "transfer_homepod"),
            footer="When playing media, bring iPhone close to the top of HomePod to transfer "
                   "what’s playing."),
    ), keywords=("handoff", "homepod")),
    simple("pip", "Picture in Picture", switch("Start PiP Automatically", "pip_auto"),
            footer="When you swipe up to go Home or use other apps, videos and FaceTime calls "
                   "will automatically continue in Picture in Picture.", keywords=("pip",)),
    Page("carplay", "CarPlay", (
        sec(note("If your car supports wireless CarPlay, press and hold the voice command "
                 "button on your steering wheel to set up CarPlay."), header="Available Cars"),
    )),
    simple("background_refresh", "Background App Refresh",
            info("Background App Refresh", "Wi-Fi & Cellular Data"),
            footer="Allow apps to refresh their content when on Wi-Fi or cellular in the "
                   "background. Turning off apps may help preserve battery life."),
    # a list that chooses several, one checked: the pessimistic case (`settings_rows.picks`)
    simple("dictionary", "Dictionary",
            *picks("dictionary", "Apple Dictionary", "New Oxford American Dictionary",
                   "Oxford American Writer’s Thesaurus",
                   checked=("New Oxford American Dictionary",))),
    Page("legal", "Legal & Regulatory", (
        sec(opens("Legal Notices"), opens("License"), opens("Warranty"), opens("RF Exposure")),
        sec(opens("Regulatory")),
    ), keywords=("license", "warranty")),
    Page("keyboards", "Keyboards", (
        sec(opens("English (US)"), info("Emoji")),
        sec(action("Add New Keyboard…")),
    ), keywords=("emoji",)),
    Page("text_replacement", "Text Replacement", (
        sec(info("On my way!", "omw"), header="O"),
    ), keywords=("shortcut",)),
    simple("system_fonts", "System Fonts", opens("Academy Engraved LET"), opens("Al Nile"),
            opens("American Typewriter"), opens("Apple Color Emoji")),
    simple("certificates", "Certificate Trust Settings",
            info("Trust Store Version", "2023071300"), info("Trust Asset Version", "1002"),
            footer="Learn more about trusted certificates"),
    simple("ios_version", "iOS Version", note("iOS {ios_version}")),
    Page("auto_updates", "Automatic Updates", (
        sec(switch("iOS Updates", "install_ios_updates"),
            switch("Security Responses & System Files", "security_responses"),
            header="Automatically Install",
            footer="Automatically install iOS software updates when this iPhone is connected "
                   "to Wi-Fi, charging, and locked."),
    )),
    simple("beta", "Beta Updates", *choices("beta", "Off", selected="Off"),
            footer="Receive beta updates on this iPhone to test-drive pre-release versions of "
                   "iOS and provide feedback to help make Apple software even better."),
)
"""General's pages and the pages below them (Keyboard, Fonts, About, Software Update)."""

OTHER_PAGES: tuple[Page, ...] = (
    simple("action_button", "Action Button",
            *choices("action_button", "Silent Mode", "Focus", "Camera", "Flashlight",
                     selected="Silent Mode"),
            footer="Switch between Silent and Ring for calls and alerts."),
    Page("sos", "Emergency SOS", (
        sec(switch("Call with Hold and Release", "sos_hold_release")),
        sec(switch("Call with 5 Button Presses", "sos_five_presses")),
    ), keywords=("crash detection",)),
    simple("game_center", "Game Center", switch("Game Center", "game_center")),
    simple("icloud", "iCloud", note("Sign in to access your iCloud data, the App Store, Apple "
                                     "services, and more."), action("Sign in Manually")),
    simple("cellular_options", "Cellular Data Options", info("Voice & Data", "5G Auto"),
            info("Data Mode", "Standard"), switch("Data Roaming", "data_roaming"),
            keywords=("roaming",)),
    simple("hotspot", "Personal Hotspot", switch("Allow Others to Join", "hotspot"),
            info("Wi-Fi Password", "pc5ahgq1hk4g9"),
            footer="Allow other users or devices not signed into iCloud to look for your "
                   "shared network “{name}” when you are in Personal Hotspot settings or when "
                   "you turn it on in Control Center.", keywords=("tethering",)),
    simple("charging", "Charging", switch("Optimized Battery Charging", "optimized_charging"),
            footer="To reduce battery aging, iPhone learns from your daily charging routine so "
                   "it can wait to finish charging past 80% until you need to use it."),
    simple("auto_lock", "Auto-Lock",
            # "Never" as real-device.md asks a phone for phoneshell to be set up (a phone ships
            # with "30 seconds"): the simulated iPhone is such a phone
            *choices("auto_lock", "30 seconds", "1 minute", "2 minutes", "3 minutes",
                     "4 minutes", "5 minutes", "Never", selected="Never"),
            keywords=("screen timeout",)),
    Page("night_shift", "Night Shift", (
        sec(note("Night Shift automatically shifts the colors of your display to the warmer end "
                 "of the color spectrum after dark. This may help you get a better night’s "
                 "sleep.")),
        sec(switch("Scheduled", "night_shift_scheduled")),
        sec(switch("Manually Enable Until Tomorrow", "night_shift_manual")),
        sec(slider("Color Temperature", "night_shift_warmth"), header="Color Temperature"),
    ), keywords=("blue light",)),
    simple("display_zoom", "Display Zoom", *choices("display_zoom", "Default", "Larger Text",
                                                    selected="Default"),
            footer="Choose a view for iPhone. Larger Text shows larger controls. Default shows "
                   "more content."),
    Page("location", "Location Services", (
        sec(switch("Location Services", "location"), opens("Location Alerts"),
            footer="Location Services uses GPS, Bluetooth, and crowd-sourced Wi-Fi hotspot and "
                   "cell tower locations to determine your approximate location."),
    ), keywords=("gps",)),
    simple("tracking", "Tracking", switch("Allow Apps to Request to Track", "allow_tracking"),
            footer="Allow apps to ask to track your activity across other companies’ apps and "
                   "websites. When this is off, all new app tracking requests are automatically "
                   "denied.", keywords=("advertising",)),
    simple("activity", "App & Website Activity", action("Turn On App & Website Activity")),
    Page("dnd", "Do Not Disturb", (
        sec(opens("People"), opens("Apps"), header="Allow Notifications"),
        sec(info("Add Schedule"), header="Set a Schedule"),
    )),
    Page("sleep", "Sleep", (
        sec(opens("People"), opens("Apps"), header="Allow Notifications"),
    )),
    simple("previews", "Show Previews",
            *choices("previews", "Always", "When Unlocked", "Never", selected="Always")),
    simple("screen_sharing", "Screen Sharing",
            switch("Allow Notifications", "screen_sharing_notifications")),
    Page("ringtone", "Ringtone", (
        sec(info("Haptics", "Synchronized")),
        sec(*choices("ringtone", ("Reflection (Default)", "Reflection"), "Apex", "Beacon",
                     "Bulletin", "By The Seaside", "Chimes", selected="Reflection (Default)"),
            header="Ringtones"),
    )),
    Page("formats", "Formats", (
        sec(*choices("formats", "High Efficiency", "Most Compatible", selected="High Efficiency"),
            header="Camera Capture",
            footer="To reduce file size, capture photos and videos in the high efficiency "
                   "HEIF/HEVC format. Most Compatible will always use JPEG/H.264."),
    ), keywords=("heif", "jpeg")),
    simple("record_video", "Record Video",
            *choices("record_video", *((f"{q} HD at {r}", f"{q} at {r}") for q, r in (
                ("720p", "30 fps"), ("1080p", "30 fps"), ("1080p", "60 fps"))),
                     "4K at 24 fps", "4K at 25 fps", "4K at 30 fps", "4K at 60 fps",
                     selected="1080p HD at 30 fps"), keywords=("4k",)),
    simple("talk_to_siri", "Talk to Siri",
            *choices("talk_to_siri", "“Siri” or “Hey Siri”", "“Hey Siri”", "Off", selected="Off"),
            keywords=("hey siri",)),
)
"""The pages below the root's other rows, by parent: root, Cellular, Battery, Display &
Brightness, Privacy & Security, Screen Time, Focus, Notifications, Sounds, Camera, Siri."""
