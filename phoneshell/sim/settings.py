"""WDA's Appium settings (`/appium/settings`): the 33 keys of WDA 16.x, their defaults and types.

Names, defaults and types follow appium/WebDriverAgent's `FBSettingsHandler` and
`FBConfiguration.resetSessionSettings`. What a client may rely on is kept exactly: booleans are
JSON booleans, counts and timeouts numbers, selectors strings, and the two keyboard settings
the integer `FBConfigurationKeyboardPreference` (0 disabled, 1 enabled, 2 not supported), since
WDA reports the keyboard preference, not the flag it was set with. As in WDA, unknown keys are
ignored, `null` clears only the four selector-like settings, and `screenshotOrientation` and
`activeAppDetectionPoint` refuse values WDA cannot parse. A new session starts from the
defaults. The simulator stores every value and reports it back; `shouldUseCompactResponses` and
`elementResponseAttributes` shape element replies (`element_routes._references`), the others
change nothing here, and the bridge refuses them (`xcui.HARMLESS_SETTINGS`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from phoneshell.sim.store import JSON
from phoneshell.sim.wire import described, double_value, unrecognized

DEFAULTS: dict[str, JSON] = {
    "shouldUseCompactResponses": True,
    "elementResponseAttributes": "type,label",
    "mjpegServerScreenshotQuality": 25,
    "mjpegServerFramerate": 10,
    "mjpegScalingFactor": 100,
    "mjpegFixOrientation": False,
    "screenshotQuality": 3,
    "keyboardAutocorrection": 0,
    "keyboardPrediction": 0,
    "snapshotMaxDepth": 50,
    "snapshotMaxChildren": 2147483647,
    "useFirstMatch": False,
    "waitForIdleTimeout": 10,
    "animationCoolOffTimeout": 2,
    "boundElementsByIndex": False,
    "reduceMotion": False,
    "defaultActiveApplication": "auto",
    "activeAppDetectionPoint": "64.00,64.00",
    "acceptAlertButtonSelector": "",
    "dismissAlertButtonSelector": "",
    "autoClickAlertSelector": "",
    "defaultAlertAction": "",
    "maxTypingFrequency": 60,
    "respectSystemAlerts": False,
    "useClearTextShortcut": True,
    "includeHittableInPageSource": False,
    "includeNativeFrameInPageSource": False,
    "includeNativeAccessibilityElementInPageSource": False,
    "includeMinMaxValueInPageSource": False,
    "includeCustomActionsInPageSource": False,
    "enforceCustomSnapshots": False,
    "limitXpathContextScope": True,
    "screenshotOrientation": "auto",
}
"""What `GET /appium/settings` reports in a fresh session (WDA 16.x)."""

CLEARABLE = frozenset({"defaultAlertAction", "acceptAlertButtonSelector",
                       "dismissAlertButtonSelector", "autoClickAlertSelector"})
"""The settings WDA lets a JSON null reset; a null for any other key is skipped."""

_KEYBOARD = frozenset({"keyboardAutocorrection", "keyboardPrediction"})
_INTEGER = frozenset({"mjpegServerScreenshotQuality", "mjpegServerFramerate", "screenshotQuality",
                      "snapshotMaxDepth", "snapshotMaxChildren", "maxTypingFrequency"})
_ORIENTATIONS = {"portrait": "portrait", "portraitupsidedown": "portraitUpsideDown",
                 "landscaperight": "landscapeRight", "landscapeleft": "landscapeLeft",
                 "auto": "auto"}
_POINT = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$")


class SettingsError(ValueError):
    """A settings value WDA refuses (answered as `invalid argument`)."""


def _coerced(key: str, value: JSON) -> JSON:
    """The value as WDA stores and reports it (WDA reads numbers and flags leniently)."""
    default = DEFAULTS[key]
    if key in _KEYBOARD:
        return 1 if _truthy(value) else 0
    if isinstance(default, bool):
        return _truthy(value)
    if key in _INTEGER:
        return int(_number(key, value))
    if isinstance(default, (int, float)):
        number = _number(key, value)
        return int(number) if number.is_integer() else number
    # WDA keeps string settings as NSStrings and prints them with %@ (never Python's str)
    text = described(value)
    if key == "screenshotOrientation":
        if text.lower() not in _ORIENTATIONS:
            raise SettingsError(f"The orientation value '{text}' is not known. Only the following "
                                "orientation values are supported: 'auto', 'portrait', "
                                "'portraitUpsideDown', 'landscapeRight' and 'landscapeLeft'")
        return _ORIENTATIONS[text.lower()]
    if key == "activeAppDetectionPoint":
        match = _POINT.match(text)
        if match is None:
            raise SettingsError(f"The string '{text}' is not a valid coordinates string: "
                                "expected 'x,y' with numbers, e.g. '64.00,64.00'")
        return f"{float(match.group(1)):.2f},{float(match.group(2)):.2f}"
    if key == "defaultAlertAction":
        return text.lower()
    return text


def _truthy(value: JSON) -> bool:
    # Foundation's boolValue: a string is true when it starts (after blanks, a sign and zeros)
    # with Y, y, T, t or a digit 1-9, which is how WDA reads "YES", "true" and "1".
    if isinstance(value, str):
        head = value.strip().lstrip("+-").lstrip("0")[:1]
        return head in ("Y", "y", "T", "t") or head.isdigit()
    return bool(value)


def _number(key: str, value: JSON) -> float:
    """A numeric setting as WDA reads it (`doubleValue`: "30fps" is 30, true 1)."""
    number = double_value(value)
    if number is None:
        if not isinstance(value, str):
            raise unrecognized(value, "doubleValue")  # a list or an object has none
        # "inf" and "nan" read as numbers no setting can be
        raise SettingsError(f"'{key}' must be a finite number, not {described(value)}")
    return number


def apply(current: Mapping[str, JSON], update: Mapping[str, JSON]) -> dict[str, JSON]:
    """The settings after an update, as `POST /appium/settings` leaves them.

    Raises:
        SettingsError: a value WDA refuses; nothing is changed then.
    """
    changed = dict(current)
    for key, value in update.items():
        if key not in DEFAULTS:
            continue  # WDA skips settings it has no handler for
        if value is None:
            if key in CLEARABLE:
                changed[key] = ""
            continue
        changed[key] = _coerced(key, value)
    return changed
