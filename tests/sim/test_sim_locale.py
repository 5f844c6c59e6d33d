"""One locale on every screen: en_US as the phone reports it by default, en_GB as an option."""

from __future__ import annotations

import subprocess
import sys

import pytest
import wda

from phoneshell.errors import PhoneshellError
from phoneshell.sim import DeviceFacts, SimServer

SETTINGS, WEATHER = "com.apple.Preferences", "com.apple.weather"


def open_notification_center(session: wda.Client) -> None:
    session.swipe(60, 2, 60, 640)


def keyboard_page(session: wda.Client) -> None:
    session(label="General").get(timeout=1).tap()
    session(label="Keyboard").get(timeout=1).tap()  # below the fold: the click scrolls to it


@pytest.mark.parametrize(("locale", "date", "spelled", "degrees", "favorites"), [
    (None, "Tuesday, January 9", "Auto-Capitalization", "57°", "Favorites"),  # the default
    ("en_GB", "Tuesday 9 January", "Auto-Capitalisation", "14°", "Favourites"),
])
def test_one_locale_is_reported_and_shown_on_every_screen(locale, date, spelled, degrees,
                                                          favorites):
    with SimServer(locale=locale) as sim:
        client = wda.Client(sim.url)
        app = client.session()
        assert app.device_info()["currentLocale"] == (locale or "en_US")
        open_notification_center(app)
        assert app(label=date).exists
        settings = client.session(SETTINGS)
        keyboard_page(settings)
        assert settings(className="Switch", label=spelled).exists
        assert client.session(WEATHER)(label=degrees).exists  # 57 °F in the data
        assert client.session("com.apple.mobilesafari")(label=favorites).exists


def test_an_unknown_locale_or_date_is_refused_with_its_name():
    with pytest.raises(PhoneshellError, match="no locale 'fr_FR'") as refused:
        SimServer(locale="fr_FR")
    assert "en_US" in (refused.value.hint or "")
    with pytest.raises(PhoneshellError, match="'date' must be YYYY-MM-DD"):
        DeviceFacts(date="Tuesday 9 January")


def test_the_cli_option_names_a_bad_locale():
    done = subprocess.run([sys.executable, "-m", "phoneshell", "sim", "--port", "0",
                           "--locale", "xx_YY"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "error: the simulated iPhone has no locale 'xx_YY'" in done.stderr
    assert "hint: use one of: en_US, en_GB" in done.stderr


@pytest.mark.parametrize(("locale", "typed", "shown"), [
    (None, "Game Center", "Game Center"),
    ("en_GB", "Game Centre", "Game Centre"),  # as the phone names it everywhere
    ("en_GB", "Game Center", "Game Centre"),
])
def test_settings_search_finds_a_page_by_the_name_the_phone_shows(locale, typed, shown):
    with SimServer(locale=locale) as sim:
        settings = wda.Client(sim.url).session(SETTINGS)
        settings(className="SearchField").get(timeout=1).tap()
        settings.send_keys(typed)
        settings(label=shown, className="Button").get(timeout=1).tap()
        assert settings(className="NavigationBar", name=shown).exists
