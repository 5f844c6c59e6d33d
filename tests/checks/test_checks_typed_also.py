"""`typed_into`'s `also`: other texts that count as its own, for a search the instruction leaves
open ("look for the note with the words 'phoneshell benchmark' in it" is done by a search for
either word: red team 107). Hand-written logs, as the bridge logs the actions."""

from __future__ import annotations

from audit_logs import act, grade, log, tgt

from phoneshell.checks import Check, lookup
from phoneshell.evidence import Evidence

NOTES = "com.apple.mobilenotes"
SEARCH = tgt("XCUIElementTypeSearchField", "Search", "Search")
NOTE = tgt("XCUIElementTypeCell", "phoneshell benchmark", "phoneshell benchmark")
ASKED = {"text": "phoneshell benchmark", "also": ("phoneshell", "benchmark"), "app": NOTES,
         "into": "Search"}


def searched(*queries: str, audited: bool = True) -> Evidence:
    """Each query typed into Notes' search field over a clear of what the last left, then the
    note found tapped."""
    actions = [act(1, "tap", NOTES, NOTES, target=SEARCH)]
    for query in queries:
        seq = len(actions) + 1
        actions += [act(seq, "type", NOTES, NOTES, target=SEARCH, text="", via="clear"),
                    act(seq + 1, "type", NOTES, NOTES, target=SEARCH, text=query)]
    actions.append(act(len(actions) + 1, "tap", NOTES, NOTES, target=NOTE))
    return log(*actions, audited=audited)


def test_each_text_counts_whole() -> None:
    for query in ("Benchmark ", "phoneshell", "phoneshell benchmark"):
        passed, detail = grade("typed_into", searched(query), whole=True, **ASKED)
        assert passed and "whole, and nothing typed there after" in detail, (query, detail)


def test_none_of_them_whole_or_not_the_last_fails() -> None:
    for queries, seen in ((("phoneshell benchmarks",), "was 'phoneshell benchmarks'"),
                          (("phoneshell", "groceries"), "was 'groceries'")):
        passed, detail = grade("typed_into", searched(*queries), whole=True, **ASKED)
        assert not passed and seen in detail and detail.endswith(
            "; wanted 'phoneshell benchmark' (or 'phoneshell', 'benchmark'), whole"), detail


def test_contains_takes_any_of_them() -> None:
    assert grade("typed_into", searched("my benchmark notes"), **ASKED)[0]
    passed, detail = grade("typed_into", searched("groceries"), **ASKED)
    assert not passed and "no keystrokes with 'phoneshell benchmark' (or 'phoneshell', " \
                          "'benchmark') into 'Search'" in detail, detail


def test_negated_any_of_them_typed_is_typed_and_a_torn_log_proves_no_absence() -> None:
    assert not grade("typed_into", searched("benchmark"), negate=True, whole=True, **ASKED)[0]
    passed, detail = grade("typed_into", searched("groceries"), negate=True, whole=True, **ASKED)
    assert passed and "never typed exactly 'phoneshell benchmark' (or " in detail, detail
    assert not grade("typed_into", searched("groceries", audited=False), negate=True,
                     whole=True, **ASKED)[0]


def test_a_check_with_others_is_implied_only_by_one_with_the_same_others() -> None:
    rule = lookup("typed_into").implied_by

    def typed(text: str, *also: str, whole: bool = True) -> Check:
        return Check.make("typed_into", text, app=NOTES, into="Search", whole=whole,  # type: ignore[arg-type]
                          **({"also": also} if also else {}))

    words = ("phoneshell", "benchmark")
    assert rule.implied(typed("phoneshell benchmark", *words), typed("PHONESHELL BENCHMARK",
                                                                      *words))
    # a check that accepts either word is weaker than one that wants both
    assert not rule.implied(typed("phoneshell benchmark"), typed("phoneshell benchmark", *words))
    assert not rule.implied(typed("phoneshell benchmark", *words), typed("phoneshell benchmark"))
    assert not rule.implied(typed("phoneshell", whole=False),
                            typed("phoneshell benchmark", *words, whole=False))
