"""A W3C client nobody here wrote (the Appium Python client, on Selenium) drives the simulator
as it drives WDA on a phone: sessions with `appium:` capabilities, finds, clicks, keys, W3C
actions, timeouts, element screenshots, source and window size."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from appium import webdriver
from appium.options.ios import XCUITestOptions
from appium.webdriver.common.appiumby import AppiumBy
from PIL import Image
from selenium.common.exceptions import InvalidArgumentException, NoSuchElementException
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.key_input import KeyInput
from selenium.webdriver.common.actions.pointer_input import PointerInput

from phoneshell.sim import SimServer

SETTINGS = "com.apple.Preferences"


def _driver(sim: SimServer, bundle_id: str = SETTINGS) -> webdriver.Remote:
    options = XCUITestOptions()
    options.bundle_id = bundle_id  # sent as appium:bundleId, which WDA strips to bundleId
    options.set_capability("appium:shouldTerminateApp", True)
    return webdriver.Remote(sim.url, options=options)


@pytest.fixture
def driver(sim: SimServer) -> Iterator[webdriver.Remote]:
    session = _driver(sim)
    try:
        yield session
    finally:
        session.quit()


def test_an_appium_session_launches_its_app_and_quitting_ends_it(sim):
    driver = _driver(sim)
    assert sim.state()["foreground"] == SETTINGS
    assert driver.caps["CFBundleIdentifier"] == SETTINGS
    assert driver.session_id == sim.state()["session"]
    driver.quit()  # shouldTerminateApp: WDA terminates the app under test
    assert sim.state()["session"] is None and SETTINGS not in sim.state()["running"]


def test_find_click_and_send_keys(driver):
    driver.implicitly_wait(0.5)  # POST /timeouts: WDA accepts and ignores it
    general = driver.find_element(AppiumBy.ACCESSIBILITY_ID, "com.apple.settings.general")
    assert general.get_attribute("label") == "General" and general.is_displayed()
    assert len(driver.find_elements(AppiumBy.CLASS_NAME, "XCUIElementTypeCell")) > 5
    assert driver.find_element(AppiumBy.XPATH, '//XCUIElementTypeButton[@label="General"]').id \
        == general.id
    found = driver.find_element("predicate string",
                                "label == 'Wi-Fi' AND type == 'XCUIElementTypeButton'")
    assert found.get_attribute("label") == "Wi-Fi"
    search = driver.find_element(AppiumBy.CLASS_NAME, "XCUIElementTypeSearchField")
    search.click()
    search.send_keys("Blue")
    assert search.get_attribute("value") == "Blue"
    search.clear()
    assert search.get_attribute("value") != "Blue"
    with pytest.raises(NoSuchElementException):
        driver.find_element(AppiumBy.ACCESSIBILITY_ID, "no such thing")
    with pytest.raises(InvalidArgumentException):
        driver.find_element(AppiumBy.IOS_PREDICATE, "label == 'x'")  # Appium's name, not WDA's


def test_w3c_tap_swipe_and_long_press(driver, sim):
    general = driver.find_element(AppiumBy.ACCESSIBILITY_ID, "com.apple.settings.general")
    top = general.rect["y"]
    driver.swipe(200, 700, 200, 400, 300)  # W3C actions: a touch that moves is a drag
    assert general.rect["y"] < top
    driver.swipe(200, 300, 200, 700, 300)
    rect = general.rect
    driver.tap([(rect["x"] + rect["width"] // 2, rect["y"] + rect["height"] // 2)])
    assert driver.find_element(AppiumBy.ACCESSIBILITY_ID, "About").is_displayed()
    about = driver.find_element(AppiumBy.ACCESSIBILITY_ID, "About")
    finger = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    finger.pointer_action.move_to(about).pointer_down().pause(0.6).release()
    finger.perform()  # a long press on a row without a menu acts as a tap
    assert driver.find_element(AppiumBy.ACCESSIBILITY_ID, "Name").is_displayed()


def test_w3c_key_actions_type_into_the_focused_field(driver):
    driver.find_element(AppiumBy.CLASS_NAME, "XCUIElementTypeSearchField").click()
    keys = ActionBuilder(driver, keyboard=KeyInput("keyboard"),
                         mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    keys.key_action.send_keys("Wi-Fx\ue003i")  # \ue003 is Backspace
    keys.perform()
    field = driver.find_element(AppiumBy.CLASS_NAME, "XCUIElementTypeSearchField")
    assert field.get_attribute("value") == "Wi-Fi"


def test_a_mouse_is_refused_as_wda_refuses_it(driver):
    general = driver.find_element(AppiumBy.ACCESSIBILITY_ID, "com.apple.settings.general")
    mouse = ActionBuilder(driver)  # Selenium's default pointer is a mouse
    mouse.pointer_action.move_to(general).click()
    with pytest.raises(InvalidArgumentException, match="Only pointer type 'touch'"):
        mouse.perform()


def test_element_screenshot_source_and_window_size(driver):
    general = driver.find_element(AppiumBy.ACCESSIBILITY_ID, "com.apple.settings.general")
    shot = Image.open(io.BytesIO(general.screenshot_as_png))
    assert shot.size == (general.rect["width"] * 3, general.rect["height"] * 3)
    assert "XCUIElementTypeApplication" in driver.page_source
    assert driver.get_window_size() == {"width": 402, "height": 874}
    assert driver.orientation == "PORTRAIT"
