"""`phoneshell grade` of evidence a resume set aside in `incomplete/` (which no seal covers)
says what the run recorded of it, NOT RECORDED, having looked once at where the folder is."""

from __future__ import annotations

from pathlib import Path

import pytest

from phoneshell.cli import main, regrade
from phoneshell.evidence import Claim, Evidence, save_evidence


def test_evidence_set_aside_is_placed_once_and_not_recorded(
        tmp_path: Path, reference: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "R"
    run.mkdir()
    (run / "run.json").write_text("{}")  # only its place is read: no seal vouches for this
    evidence = run / "incomplete" / "probe.image.one-1-0" / "evidence"
    save_evidence(Evidence("probe.image.one", 1.0, claim=Claim(status="done", answer="MERIDIAN")),
                  evidence)
    placed, real = [], regrade.set_aside_note

    def counted(folder: Path) -> str:
        placed.append(folder)
        return real(folder)

    monkeypatch.setattr(regrade, "set_aside_note", counted)  # called through, never replaced
    code = main(["grade", str(evidence), "--task", "probe.image.one", "--tasks",
                 str(reference / "phoneshell-environments")])
    out, err = capsys.readouterr()
    assert code == 1 and out.startswith(
        "probe.image.one: NOT RECORDED: the run recorded no row for this evidence: a resume of "
        "run R set it aside in incomplete/ (written after the run's last seal, which does not "
        "vouch for it), never graded\n"), out + err
    assert "is not inside a run folder" not in err
    assert len(placed) == 1
