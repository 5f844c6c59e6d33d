"""The HTML report: one page and its screenshots folder, parsed with lxml.html (structure,
escaping, screenshots, timelines, claims the phone disagrees with) and, where Chromium is
installed, rendered once headless."""

from __future__ import annotations

import struct
import subprocess
import zlib
from pathlib import Path

import lxml.html
import pytest
from lxml.html import HtmlElement
from report.report_rig import LIE, chromium, phoneshell

from phoneshell.agents import AGENTS, AgentContext, AgentResult
from phoneshell.checks import Check
from phoneshell.evidence import Claim
from phoneshell.runner import RunOptions, run_suite
from phoneshell.sim import SimServer

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def page(runs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The HTML report of the solution, lying and faulted runs."""
    path = tmp_path_factory.mktemp("html") / "report.html"
    done = phoneshell("report", str(runs["SOL"]), str(runs["LIAR"]), str(runs["FLT"]),
                      "--html", str(path))
    assert done.returncode == 1 and f"html: {path}" in done.stdout, done.stderr
    return path


@pytest.fixture(scope="module")
def doc(page: Path) -> HtmlElement:
    return lxml.html.fromstring(page.read_bytes())


def test_summary_and_matrices(doc: HtmlElement) -> None:
    summary = doc.get_element_by_id("summary")
    rows = summary.xpath(".//table[@class='summary']/tbody/tr")
    cells = [[td.text_content() for td in row.xpath("td")] for row in rows]
    assert [c[:5] for c in cells] == [["solution", "SOL", "8", "8", "8"],
                                      ["liar", "LIAR", "4", "4", "0"],
                                      ["solution", "FLT", "3", "2", "2"]]
    assert cells[1][10] == "4/4 = 100.0%"  # claimed success but failed
    assert cells[2][8] == "1: rig down (1)" and cells[2][9] == "1"  # skipped, never run
    # of planned, at least: what no skip can raise (2 of FLT's 4 planned)
    assert [c[7] for c in cells] == ["8/8 = 100.0%", "0/4 = 0.0%", "2/4 = 50.0%"]
    tasks = doc.xpath("//section[@id='tasks']/article[@class='task']")
    assert [t.xpath("h3")[0].text_content().split(" ")[0] for t in tasks] == [
        "calculator.chain", "clock.tab.alarms", "clock.tab.timers", "settings.about.reach"]
    matrix = tasks[2].xpath(".//table[@class='matrix']/tbody/tr")
    assert [[td.get("class") for td in tr.xpath("td")] for tr in matrix] == [
        ["passed", "passed"], ["failed", None], ["skipped", None]]
    # every matrix cell links to its attempt's section on the page
    for href in doc.xpath("//table[@class='matrix']//a/@href"):
        assert doc.get_element_by_id(href[1:]).tag == "details"


def test_each_attempt_shows_instruction_claim_checks_timeline_and_screen(
        doc: HtmlElement) -> None:
    attempts = doc.xpath("//details[contains(@class, 'attempt')]")
    assert len(attempts) == 8 + 4 + 3
    first = attempts[0]
    assert "calculator.chain #1" in first.xpath("summary")[0].text_content()
    assert "(12 plus 8) multiplied by 5" in first.find_class("instruction")[0].text_content()
    assert first.find_class("claim-status")[0].text_content() == "done"
    checks = first.xpath(".//table[@class='checks']/tbody/tr")
    assert checks and all(tr.get("class") == "pass" for tr in checks)
    assert any("matched '100'" in tr.text_content() for tr in checks)
    timeline = first.xpath(".//table[@class='timeline']/tbody/tr")
    cells = [[td.text_content() for td in tr.xpath("td")] for tr in timeline]
    # in phase order (setup sent nothing: a fresh phone already is as it asks), ending in teardown
    order = ("setup", "agent", "check", "teardown")
    phases = [order.index(c[1]) for c in cells]
    assert phases == sorted(phases) and cells[0][1] == "agent" and cells[-1][1] == "teardown"
    taps = [c for c in cells if c[1] == "agent" and c[2] == "tap"]
    assert taps and all(c[6] == "ok" for c in taps)
    assert any(c[4] == "Button '8'" for c in taps)  # the element under the tap
    assert any("com.apple.springboard \u2192 com.apple.calculator" in c[5] for c in cells)
    # the simulated phone's clock is said once, in words, not raised as a doubt
    assert first.find_class("flags") == []
    assert "clock stood still" in first.find_class("noted")[0].text_content()


def test_screenshots_are_files_beside_the_page_and_nothing_else_is_fetched(
        doc: HtmlElement, page: Path) -> None:
    images = doc.xpath("//img[@class='screenshot']")
    # not the skipped attempt: the phone refused sessions in its setup (Clock's tab is chosen
    # there), before any screen was captured
    assert len(images) == 8 + 4 + 2
    for img in images:
        src = img.get("src")
        assert src.startswith("report_files/") and src.endswith(".png"), src
        assert (page.parent / src).read_bytes().startswith(PNG_MAGIC)
        assert img.get("loading") == "lazy"
    assert not doc.xpath("//script | //link | //iframe | //object | //embed")
    for attribute in doc.xpath("//@src | //@href"):
        assert attribute.startswith(("report_files/", "#")), attribute
    # the page itself carries no image data: it stays small however many attempts it shows
    assert page.stat().st_size < 200_000 and b"base64" not in page.read_bytes()
    skipped = doc.xpath("//details[contains(@class, 'skipped')]")[0]
    assert "not scored: rig down" in skipped.text_content()
    assert not skipped.xpath(".//img[@class='screenshot']")  # nothing captured: none shown


def test_failed_attempts_are_open_and_false_claims_are_marked_on_them(
        doc: HtmlElement) -> None:
    attempts = doc.xpath("//details[contains(@class, 'attempt')]")
    opened = {a.get("id") for a in attempts if a.get("open") is not None}
    failed = {a.get("id") for a in attempts if "failed" in a.get("class").split()}
    assert failed and opened == failed
    marked = [a for a in attempts if a.xpath("summary/span[@class='claim-disagrees']")]
    # the liar's four attempts claimed done and failed; nothing else disagrees
    assert len(marked) == 4 and all("LIAR" in a.xpath("summary")[0].text_content()
                                    for a in marked)
    for attempt in marked:
        note = attempt.xpath(".//p[@class='claim-disagrees']")[0].text_content()
        assert note == ("claimed success but failed: the agent said done, the phone graded "
                        "the attempt failed")


def test_labels_show_patterns_as_written(doc: HtmlElement) -> None:
    labels = {td.text_content() for td in doc.xpath("//table[@class='checks']//td[2]")}
    assert "regex_on_screen '^100$' in a StaticText" in labels, labels
    # a pattern's backslashes stay single, as in the task file (repr would double them)
    assert Check.make("regex_on_screen", r"\b100\b").label() == "regex_on_screen '\\b100\\b'"
    # a check named by its address says which page: two `visited` rows differ in a report
    assert Check.make("visited", url="example.com").label() == "visited 'example.com'"
    assert Check.make("page_shown", url="example.com").label() == "page_shown 'example.com'"


def test_text_from_files_is_escaped(doc: HtmlElement, page: Path) -> None:
    summaries = doc.find_class("claim-summary")
    lies = [s.text_content() for s in summaries if "pwned" in s.text_content()]
    assert len(lies) == 4
    assert lies[0] == LIE.replace("\x1b", "\\x1b")  # the text, shown as text
    assert not doc.xpath("//dd[@class='claim-summary']/*")  # no element came from it
    answer = doc.find_class("claim-answer")
    assert "<i>42</i>" in [a.text_content() for a in answer]
    raw = page.read_text()
    assert "<script" not in raw and "\x1b" not in raw
    assert "&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;" in raw


def _pixels(png: bytes) -> tuple[int, int, set[bytes]]:
    """Width, height and the distinct pixel values of an 8-bit RGB/RGBA PNG."""
    assert png.startswith(PNG_MAGIC)
    at, idat, header = 8, b"", b""
    while at < len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        kind, body = png[at + 4:at + 8], png[at + 8:at + 8 + length]
        header = body if kind == b"IHDR" else header
        idat += body if kind == b"IDAT" else b""
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), (depth, colour)
    bpp = 3 if colour == 2 else 4
    raw, stride, prior = zlib.decompress(idat), width * bpp, bytearray(width * bpp)
    seen: set[bytes] = set()
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up, corner = prior[i], prior[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else
                                      up if pb <= pc else corner)) & 255
        seen.update(bytes(line[i:i + bpp]) for i in range(0, stride, bpp * 7))
        prior = line
    return width, height, seen


@pytest.mark.slow  # 4.7 s measured: the README's command stays quick
def test_chromium_renders_the_page(page: Path, tmp_path: Path) -> None:
    shot = tmp_path / "page.png"
    done = subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1000,1400",
         f"--screenshot={shot}", page.as_uri()],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
    width, height, colours = _pixels(shot.read_bytes())
    assert (width, height) == (1000, 1400)
    assert len(colours) > 20, "the rendered page is blank"



@pytest.mark.slow  # 4.9 s measured: the README's command stays quick
def test_an_attempt_never_captured_says_so_and_why(tmp_path: Path) -> None:
    # (a command agent that cannot start is refused before the run now: an app the phone does
    # not have is skipped before anything is captured)
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "x.missing.yaml").write_text(
        "id: x.missing\nname: Missing app\napp: com.example.nothere\ninstruction: Open it.\n"
        "checks:\n- kind: foreground_app\n  text: com.example.nothere\n")
    ran = phoneshell("run", str(tasks), "--agent", "null", "--runs", str(tmp_path),
                     "--run-id", "NONE")
    assert "skipped" in ran.stdout, ran.stdout + ran.stderr
    path = tmp_path / "report.html"
    shown = phoneshell("report", str(tmp_path / "NONE"), "--html", str(path))
    assert f"html: {path}" in shown.stdout, shown.stderr
    (attempt,) = lxml.html.fromstring(path.read_bytes()).xpath("//details[@class='attempt "
                                                               "skipped']")
    said = [p.text_content() for p in attempt.xpath(".//p")]
    assert any(s.startswith("not scored: com.example.nothere is not installed") for s in said), \
        said
    assert "no evidence was captured (the attempt ended before capture)" in said
    assert not attempt.xpath(".//img")  # no screen to show, and none made up


class _FaultDuringTurn:
    """Claims done and does nothing; meanwhile the phone locks on its own (not through the
    bridge, so not the agent's doing): a rig fault found only after capture."""

    name = "fault-during-turn"
    sim: SimServer | None = None

    def run(self, context: AgentContext) -> AgentResult:
        assert self.sim is not None
        self.sim.set_faults(["locked"])
        return AgentResult(ran=True, turns=1, claim=Claim(status="done"))


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_an_attempt_captured_then_found_not_scorable_shows_its_screen(tmp_path: Path) -> None:
    if _FaultDuringTurn.name not in AGENTS:
        AGENTS.register(_FaultDuringTurn.name)(lambda arg: _FaultDuringTurn())
    with SimServer() as sim:
        _FaultDuringTurn.sim = sim
        summary = run_suite(RunOptions(("environments",), agent=_FaultDuringTurn.name,
                                       device=sim.url, task_globs=("settings.about.reach",),
                                       runs_dir=tmp_path, run_id="R"), lambda line: None)
    [row] = summary.rows
    assert row.skipped and row.skip_reason.startswith("rig down") and row.evidence, row
    page = tmp_path / "report.html"
    done = phoneshell("report", str(tmp_path / "R"), "--html", str(page))
    assert done.returncode == 1 and f"html: {page}" in done.stdout, done.stdout + done.stderr
    skipped = lxml.html.fromstring(page.read_bytes()).xpath(
        "//details[contains(@class, 'skipped')]")[0]
    assert "not scored: rig down" in skipped.text_content()
    assert skipped.xpath(".//img[@class='screenshot']")  # captured, then found not scorable
    # the lock nobody logged is a doubt, flagged; the still clock is only said
    assert skipped.find_class("flags")[0].text_content() == "evidence flags: acted_outside_bridge"
    assert "clock stood still" in skipped.find_class("noted")[0].text_content()
