"""What an agent sends with digits `str.isdigit` takes and `int` refuses (the Ethiopic `፩`,
red team 86) is answered as WDA answers it, through the bridge: never a dropped connection,
which the bridge reports as a phone whose WDA no longer listens."""

from __future__ import annotations

import pytest
import wda
from bridge_rig import Rig

SETTINGS = "com.apple.Preferences"


def test_a_class_chain_position_of_no_decimal_digits_is_an_invalid_selector(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    for chain in ("**/XCUIElementTypeButton[-\u1369]", "**/XCUIElementTypeButton[\u1369]"):
        with pytest.raises(wda.WDARequestError) as refused:
            session(classChain=chain).find_element_ids()
        assert refused.value.value["error"] == "invalid selector", refused.value
    # a decimal digit of another script is one (NSCharacterSet's decimal digits): ١ is 1
    assert len(session(classChain="**/XCUIElementTypeButton[\u0661]").find_element_ids()) == 1
