"""Page-source parsing and the text matching every state check relies on."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from sources import El, source

from phoneshell.patterns import PatternError, PatternTimeout, compile_pattern
from phoneshell.tasks import load_tasks
from phoneshell.tree import PageSource


def test_real_settings_source_parses_with_bundle_and_counts(reference: Path) -> None:
    xml = (reference / "ios-sources" / "settings-root-ios26.2-sim.xml").read_text()
    page = PageSource.parse(xml)
    assert page.complete and page.readable
    assert len(page.elements) == 167  # the count SOURCES.md gives for this dump
    assert page.bundle_id == "com.apple.Preferences"
    assert (page.width, page.height) == (402, 874)
    assert page.find("General"), "the General row is on the Settings root screen"


def test_about_page_exposes_model_number_label_and_value(reference: Path) -> None:
    xml = (reference / "ios-sources" / "settings-general-about-ios26.2-sim.xml").read_text()
    page = PageSource.parse(xml)
    hits = page.find("model number")
    assert hits and any("A3256LL/A" in e.label for e in hits)
    hit = page.search(compile_pattern(r"[A-Z0-9]{5}LL/A"))
    assert hit is not None and hit.matched == "A3256LL/A"


def test_find_is_case_insensitive_over_label_name_and_value() -> None:
    page = PageSource.parse(source(El(label="Wi-Fi"), El(name="com.apple.settings.general"),
                                   El(type="TextField", value="Hello There")))
    assert [e.label for e in page.find("wi-fi")] == ["Wi-Fi"]
    assert page.find("SETTINGS.GENERAL")
    assert page.find("there")
    assert page.find("bluetooth") == []
    assert page.find("   ") == []


def test_placeholder_is_not_text() -> None:
    page = PageSource.parse(source(El(type="SearchField", placeholder="Search Settings")))
    assert page.find("Search Settings") == []


def test_hidden_and_off_screen_elements_are_not_on_screen() -> None:
    page = PageSource.parse(source(
        El(label="Hidden", visible=False),
        El(label="Below", frame=(0, 900, 100, 40)),
        El(label="Zero", frame=(0, 100, 0, 0)),
        El(label="Shown", frame=(0, 860, 100, 40)),
    ))
    assert [e.label for e in page.on_screen() if e.label] == ["Shown"]
    assert page.find("Below") == [] and page.find("Below", everywhere=True)


def test_regex_never_spans_two_elements_or_attributes() -> None:
    page = PageSource.parse(source(El(label="7"), El(label="o'clock"),
                                   El(label="Minutes", value="30 minutes")))
    assert page.search(compile_pattern(r"7 o.clock")) is None
    hit = page.search(compile_pattern(r"(?<![0-9])30 min"))
    assert hit is not None and hit.attribute == "value"
    assert page.search(compile_pattern("minutes")) is not None
    assert page.search(compile_pattern("MINUTES")) is None  # case-sensitive unless (?i)


def test_truncated_source_keeps_what_it_shows_but_is_incomplete() -> None:
    xml = source(El(label="First"), El(label="Second"), El(label="Third"))
    cut = xml[: xml.index("Third") - 40]
    page = PageSource.parse(cut)
    assert not page.complete and "cut off" in page.problem
    assert page.find("First") and page.find("Second")


def test_empty_and_garbage_sources_are_unreadable() -> None:
    for xml in ("", "   ", "not xml at all", "<?xml version='1.0'?>"):
        page = PageSource.parse(xml)
        assert not page.readable and not page.complete and page.problem


def test_infinite_frames_do_not_crash() -> None:
    xml = source(El(label="Odd")).replace('x="20"', 'x="inf"').replace('y="100"', 'y="nan"')
    page = PageSource.parse(xml)
    assert page.elements[2].x == 0 and page.elements[2].y == 0


def test_ten_thousand_elements_parse_quickly() -> None:
    elements = [El(label=f"Row {i}", frame=(0, i % 800, 300, 20)) for i in range(10_000)]
    xml = source(*elements)
    started = time.perf_counter()
    page = PageSource.parse(xml)
    hits = page.find("Row 9999")
    elapsed = time.perf_counter() - started
    assert len(page.elements) == 10_002 and len(hits) == 1
    assert elapsed < 5  # a sanity bound, not a benchmark: scripts/bench_grade.py measures speed


def test_status_bar_is_chrome_not_content() -> None:
    xml = source(El(label="Battery")).replace(
        "  </XCUIElementTypeWindow>",
        '    <XCUIElementTypeStatusBar type="XCUIElementTypeStatusBar" enabled="true" '
        'visible="true" accessible="false" x="0" y="0" width="402" height="54" index="1">\n'
        '      <XCUIElementTypeStaticText type="XCUIElementTypeStaticText" value="100%" '
        'name="87 percent battery power" label="87 percent battery power" enabled="true" '
        'visible="true" accessible="true" x="300" y="10" width="60" height="20" index="0"/>\n'
        "    </XCUIElementTypeStatusBar>\n  </XCUIElementTypeWindow>")
    page = PageSource.parse(xml)
    assert page.find("battery") and all(e.label == "Battery" for e in page.find("battery"))
    assert page.search(compile_pattern(r"\d+%")) is None
    assert page.find("battery power", everywhere=True)



def test_parents_and_chrome_come_down_the_tree() -> None:
    xml = source(El(label="Before"),
                 El(type="Keyboard", children=(El(type="Other", children=(El(type="Key"),)),)),
                 El(label="After"), El(type="StatusBar", children=(El(label="9:41"),)))
    for page in (PageSource.parse(xml), PageSource.parse(xml + "<")):  # fast path, libxml2's
        assert [e.order for e in page.elements] == list(range(9))
        assert [e.parent for e in page.elements] == [-1, 0, 1, 1, 3, 4, 1, 1, 7]
        assert [e.in_keyboard for e in page.elements] == [False] * 3 + [True] * 3 + [False] * 3
        assert [e.in_status_bar for e in page.elements] == [False] * 7 + [True] * 2


def test_a_fault_at_the_end_loses_nothing_of_a_real_dump(ios_dumps: tuple[Path, ...]) -> None:
    for path in ios_dumps:
        xml = path.read_text()
        whole, faulty = PageSource.parse(xml), PageSource.parse(xml + "<junk")
        assert whole.complete and not faulty.complete and "malformed" in faulty.problem
        assert faulty.elements == whole.elements, path.name  # libxml2 reads what expat reads
        assert (faulty.bundle_id, faulty.width) == (whole.bundle_id, whole.width)


def test_a_fault_mid_document_is_read_past() -> None:
    # WDA has written an unescaped "<" into attribute values (appium/appium#16035)
    xml = source(El(label="First"), El(type="TextField", value="Test <>"), El(label="After"))
    page = PageSource.parse(xml.replace("Test &lt;&gt;", "Test <>"))
    assert not page.complete and "malformed" in page.problem
    assert page.find("After") and page.elements[3].value == "Test <>"


def test_frames_in_fractions_of_a_point_are_cut_to_whole_points() -> None:
    page = PageSource.parse(source(El(label="Odd")).replace('x="20"', 'x="20.75"'))
    assert page.elements[2].x == 20 and page.complete


def test_an_encoding_expat_lacks_is_read_as_before() -> None:
    xml = source(El(label="Shown")).replace('encoding="UTF-8"', 'encoding="Shift_JIS"')
    page = PageSource.parse(xml)
    assert page.complete and page.find("Shown")
    unknown = PageSource.parse(xml.replace("Shift_JIS", "no-such-encoding"))
    assert not unknown.complete and "encoding" in unknown.problem


def _doctype(tmp_path: Path) -> str:
    """A billion laughs (10**10 'lol's) and an external entity naming a local file."""
    secret = tmp_path / "secret.txt"
    secret.write_text("s3cret")
    laughs = ['<!ENTITY l0 "lol">'] + [f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">'
                                       for i in range(1, 11)]
    return (f'<!DOCTYPE XCUIElementTypeApplication [{"".join(laughs)}'
            f'<!ENTITY file SYSTEM "{secret.as_uri()}">]>')


@pytest.mark.parametrize("declaration", ['<?xml version="1.0" encoding="UTF-8"?>',
                                         '<?xml version="1.0" encoding="Shift_JIS"?>'])
def test_a_document_type_is_refused_unread(tmp_path: Path, declaration: str) -> None:
    # Shift_JIS takes the libxml2 path (expat lacks it), which must refuse it as well
    _, rest = source(El(label="&l10;", value="&file;")).replace("&amp;", "&").split("\n", 1)
    page = PageSource.parse(f"{declaration}\n{_doctype(tmp_path)}\n{rest}")
    assert not page.readable and not page.complete and "document type" in page.problem
    assert not any("lol" in e.label or "s3cret" in e.value for e in page.elements)



def test_even_a_harmless_document_type_is_refused() -> None:
    # expat would expand this one without complaint: refusing every DTD is what stops it
    head, rest = source(El(label="&word;")).replace("&amp;", "&").split("\n", 1)
    page = PageSource.parse(f'{head}\n<!DOCTYPE a [<!ENTITY word "harmless">]>\n{rest}')
    assert not page.readable and "document type" in page.problem


# the regex engine: Python re's meaning, stopped when it backtracks catastrophically -----------

EDGE_TEXTS = (
    "7:00\u202fAM", "30 minutes", "130 min", "1 hour", "11 hours", "٣٠ min", "100", "1000",
    "x100y", "é100", "Ⅻ 7 o'clock", "07 o\u2019clock", "87%", "87 %", "57°", "-3°", "ISO 8601",
    "iso-8601", "İstanbul", "KELVIN \u212a", "straße", "3 Tabs", "1 Tab", "Stop", " Stop",
    "Stopwatch", "January", "Januar", "4:30", "05:00", "15:00", "AM", "PAM", "am", "\u00a0%",
    "a\nb", "", "Mon", "Select All", "N", "S 12°", "Today",
)


def _all_patterns(*folders: Path) -> set[str]:
    tasks = [t for folder in folders for t in load_tasks([folder]).tasks]
    return {c.text for t in tasks for c in t.checks if c.kind == "regex_on_screen"}


def test_the_engine_reads_every_suite_and_reference_pattern_as_re_does(
        reference: Path, environments: Path, ios_dumps: tuple[Path, ...]) -> None:
    patterns = _all_patterns(environments, reference / "phoneshell-environments")
    assert any("(?<!" in p for p in patterns)  # lookbehind: why this is not a linear engine
    texts = set(EDGE_TEXTS)
    for xml in ios_dumps:
        page = PageSource.parse(xml.read_bytes())
        texts.update(text for e in page.elements for _, text in e.texts())
    assert len(texts) > 250
    for pattern in sorted(patterns):
        ours, theirs = compile_pattern(pattern), re.compile(pattern)
        for text in texts:
            a, b = ours.search(text), theirs.search(text)
            assert (a and a.span()) == (b and b.span()), (pattern, text)


def test_a_catastrophic_pattern_is_stopped_at_its_budget() -> None:
    page = PageSource.parse(source(El(type="TextField", value="a" * 34 + "!")))
    started = time.monotonic()
    with pytest.raises(PatternTimeout, match=r"took over 0.2s \(at the value of TextField"):
        page.search(compile_pattern("(a|a)+$"), "TextField", budget_s=0.2)
    assert time.monotonic() - started < 2
    # the engine sees through the textbook case that holds `re` for hours
    assert page.search(compile_pattern("(a+)+$"), "TextField", budget_s=0.2) is None


def test_patterns_are_checked_as_python_re_syntax() -> None:
    with pytest.raises(PatternError, match="missing \\), unterminated subpattern"):
        compile_pattern("(abc")
    with pytest.raises(PatternError, match="bad escape"):
        compile_pattern(r"\p{L}")  # the engine knows \p{}, but re (the documented syntax) not
