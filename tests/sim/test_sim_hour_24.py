"""24-hour time: a UK phone (en_GB) writes every time of day 24-hour ("09:41"), its Settings >
General > Date & Time shows "24-Hour Time" on, and turning that switch changes every clock on
the phone (and turning it on a US phone does too). facebook-wda over HTTP to the simulator."""

from __future__ import annotations

import wda

from phoneshell.sim import DeviceFacts, SimServer

CLOCK, SETTINGS, NOTES = "com.apple.mobiletimer", "com.apple.Preferences", "com.apple.mobilenotes"


def _times(sim: SimServer) -> dict[str, object]:
    """Every place the phone writes the time of day, as its trees report it."""
    c = wda.Client(sim.url)
    clock = c.session(CLOCK)
    clock(label="Alarms").get(timeout=3).tap()
    clock(name="Add").get(timeout=3).tap()
    wheels = [w.value for w in clock(className="XCUIElementTypePickerWheel").find_elements()]
    clock(label="Save").get(timeout=3).tap()
    alarm = clock(className="XCUIElementTypeCell").get(timeout=3).label
    clock(label="World Clock").get(timeout=3).tap()
    city = clock(className="XCUIElementTypeCell").get(timeout=3).label
    notes = c.session(NOTES)
    notes(label="New Note", className="XCUIElementTypeButton").get(timeout=3).tap()
    notes.send_keys("today")
    notes(label="Notes").get(timeout=3).tap()  # back to the list: the note edited at 9:41
    texts = [str(e.label) for e in notes(className="XCUIElementTypeStaticText").find_elements()]
    edited = texts[texts.index("today") + 1]  # the row's second line: when, then the preview
    home = c.session()
    bar = home(xpath="//XCUIElementTypeStatusBar//XCUIElementTypeStaticText").get(timeout=3)
    with sim.lock:
        sim.phone.lock()
    lock_screen = [e.label for e in home(className="XCUIElementTypeStaticText").find_elements()]
    with sim.lock:
        sim.phone.unlock()
    return {"wheels": wheels, "alarm": alarm, "city": city, "note": edited,
            "status bar": bar.label, "lock screen": lock_screen}


def _switch(sim: SimServer) -> wda.Session:
    settings = wda.Client(sim.url).session(SETTINGS)
    settings(label="General").get(timeout=3).tap()
    settings(label="Date & Time").get(timeout=3).tap()
    return settings


def _hour_24(settings: wda.Session) -> str:
    return str(settings(label="24-Hour Time", className="XCUIElementTypeSwitch")
               .get(timeout=3).value)


def _check(times: dict[str, object], hour_24: bool) -> None:
    if hour_24:
        assert times["wheels"] == ["09 o\u2019clock", "41 minutes"]
        assert (times["alarm"], times["city"]) == ("09:41, Alarm", "Cupertino, 09:41")
        assert times["note"] == "09:41  No additional text"
        assert times["status bar"] == "09:41"
        assert "09:41" in times["lock screen"]  # type: ignore[operator]
    else:
        assert times["wheels"] == ["9 o\u2019clock", "41 minutes", "AM"]
        assert (times["alarm"], times["city"]) == ("9:41 AM, Alarm", "Cupertino, 9:41 AM")
        assert times["note"] == "9:41 AM  No additional text"
        assert times["status bar"] == "9:41 AM"
        # the big clock draws "9:41" and reads "9:41 AM", as the Notification Center dump's
        assert "9:41 AM" in times["lock screen"]  # type: ignore[operator]


def test_a_uk_phone_is_24_hour_until_its_switch_is_turned_off():
    with SimServer(locale="en_GB") as sim:
        assert _hour_24(_switch(sim)) == "1"
        _check(_times(sim), hour_24=True)
        _switch(sim)(label="24-Hour Time", className="XCUIElementTypeSwitch").get().tap()
        assert _hour_24(_switch(sim)) == "0"
        _check(_times(sim), hour_24=False)


def test_a_us_phone_is_12_hour_until_its_switch_is_turned_on():
    with SimServer() as sim:
        assert _hour_24(_switch(sim)) == "0"
        _check(_times(sim), hour_24=False)
        _switch(sim)(label="24-Hour Time", className="XCUIElementTypeSwitch").get().tap()
        _check(_times(sim), hour_24=True)


def test_the_time_format_is_a_device_fact_a_state_file_may_set():
    with SimServer(facts=DeviceFacts(time_format="24")) as sim:
        assert _hour_24(_switch(sim)) == "1"
        assert sim.phone.facts.time_text == "09:41"
