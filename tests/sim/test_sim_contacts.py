"""Contacts: the sorted list, search that filters (Cancel, No Results), and a contact's card."""

from __future__ import annotations

import pytest
import wda

CONTACTS = "com.apple.MobileAddressBook"
ALL = ["John Appleseed", "Kate Bell", "Anna Haro", "Daniel Higgins Jr.", "David Taylor",
       "Hank Zakroff"]


@pytest.fixture
def contacts(client: wda.Client) -> wda.Client:
    """A session on a freshly launched Contacts."""
    return client.session(CONTACTS)


def names(session: wda.Client) -> list[str]:
    return [c.label for c in session(className="Cell").find_elements()]


def test_list_is_sorted_by_last_name_under_initials(contacts):
    assert names(contacts) == ALL
    for initial in "ABHTZ":
        assert contacts(className="StaticText", label=initial).exists
    assert not contacts(name="Cancel").exists


def test_typing_filters_and_cancel_appears(contacts):
    contacts(className="SearchField").click()
    assert contacts(name="Cancel").exists  # searching starts with the focus
    contacts.send_keys("a")
    assert names(contacts) == ["John Appleseed", "Anna Haro"]
    assert contacts(label="Top Name Matches".upper()).exists
    contacts.send_keys("nn")
    assert names(contacts) == ["Anna Haro"]


def test_matches_any_name_from_its_start(contacts):
    contacts(className="SearchField").click()
    contacts.send_keys("h")
    assert names(contacts) == ["Anna Haro", "Daniel Higgins Jr.", "Hank Zakroff"]
    contacts.send_keys("\b\bfinancial")
    assert names(contacts) == ["Hank Zakroff"]


def test_no_results_then_cancel_restores_the_list(contacts):
    contacts(className="SearchField").click()
    contacts.send_keys("zzz")
    assert names(contacts) == ["No Results"]
    contacts(name="Cancel").click()
    assert names(contacts) == ALL
    assert not contacts(className="Keyboard").exists
    assert contacts(className="SearchField").get(timeout=1).value == "Search"


def test_a_contact_card_and_back(contacts):
    contacts(className="Cell", label="Kate Bell").click()
    assert contacts(label="Creative Consulting").exists
    assert contacts(className="Cell", name="mobile").exists
    assert contacts(label="(555) 564-8583").exists
    contacts(name="BackButton").click()
    assert names(contacts) == ALL
