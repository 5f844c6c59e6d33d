"""The device-free commands as a user runs them: a subprocess, its exit code and key lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml
from sources import El, evidence

from phoneshell.evidence import Claim, Evidence, save_evidence


def phoneshell(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=120)


BAD = "id: bad\nname: Bad\ninstruction: x\nchecks:\n  - kind: element_exist\n    text: Wi-Fi\n"


def test_check_tasks_passes_the_reference_corpus_warning_of_its_unstopped_apps(
        reference: Path) -> None:
    done = phoneshell("check-tasks", str(reference / "phoneshell-environments"))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[-1] == "80 task(s) valid, 0 error(s), 9 warning(s)"
    setup = [line for line in lines[:-1] if ": warning: setup " in line]
    assert len(setup) == 6 and all("/resilience_" in line for line in setup)  # untyped taps
    unplaced = sorted(line.split("/")[-1].split(".yaml")[0] for line in lines[:-1]
                      if "but none names the app in front" in line)
    assert unplaced == ["calculator_chain", "resilience_deep_start", "safari_read_heading"]


def test_check_tasks_passes_the_suite_with_no_warning(environments: Path) -> None:
    done = phoneshell("check-tasks", str(environments))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "80 task(s) valid, 0 error(s), 0 warning(s)"


def test_check_tasks_exits_1_and_names_file_line_column(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(BAD)
    done = phoneshell("check-tasks", str(tmp_path))
    assert done.returncode == 1
    assert (f"{tmp_path}/bad.yaml:5:11: error: unknown check kind 'element_exist'; did you mean "
            "'element_exists'?") in done.stdout


@pytest.mark.slow  # 2.2 s measured: the README's command stays quick
def test_check_tasks_json(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(BAD)
    report = json.loads(phoneshell("check-tasks", str(tmp_path), "--format", "json").stdout)
    assert report["errors"] == 1 and report["problems"][0]["line"] == 5


@pytest.mark.slow  # 9.5 s measured: the README's command stays quick
def test_schema_is_valid_and_accepts_every_reference_and_suite_file(reference: Path,
                                                                    environments: Path) -> None:
    done = phoneshell("schema")
    assert done.returncode == 0
    schema = json.loads(done.stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    files = [*(reference / "phoneshell-environments").glob("*.yaml"), *environments.glob("*.yaml")]
    assert len(files) == 160
    for path in files:
        errors = list(validator.iter_errors(yaml.safe_load(path.read_text())))
        assert errors == [], (path, errors[0].message)
    broken = yaml.safe_load(BAD)
    assert list(validator.iter_errors(broken)), "the schema must reject an unknown check kind"


@pytest.mark.slow  # 4.4 s measured: the README's command stays quick
def test_schema_lists_kinds_and_steps() -> None:
    kinds = phoneshell("schema", "--kinds").stdout
    assert "element_exists_anywhere" in kinds and "regex_on_screen" in kinds
    assert "clean_alarms" in phoneshell("schema", "--steps").stdout


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_implications_reference_text_json_and_strict(reference: Path) -> None:
    corpus = str(reference / "phoneshell-environments")
    text = phoneshell("implications", corpus)
    assert text.returncode == 0
    assert "80 tasks, 46 implied pair(s), 46 not marked compatible" in text.stdout
    assert "  <= calculator.arithmetic  [NOT compatible]" in text.stdout
    assert "covered by  foreground_app 'com.apple.calculator'" in text.stdout
    data = json.loads(phoneshell("implications", corpus, "--format", "json").stdout)
    assert data["tasks"] == 80 and len(data["pairs"]) == 46
    assert {"implied": "notes.search", "by": "notes.create_titled",
            "compatible": False} in data["pairs"]
    assert phoneshell("implications", corpus, "--strict").returncode == 1


def test_implications_strict_passes_when_all_pairs_are_compatible(tmp_path: Path) -> None:
    base = "id: {id}\nname: N\ninstruction: x\napp: com.apple.Maps\nchecks:\n  - kind: " \
           "foreground_app\n"
    (tmp_path / "a.yaml").write_text(base.format(id="a") + "compatible_with: [b]\n")
    (tmp_path / "b.yaml").write_text(base.format(id="b") + "compatible_with: [a]\n")
    done = phoneshell("implications", str(tmp_path), "--strict")
    assert done.returncode == 0 and "2 implied pair(s), 0 not marked compatible" in done.stdout


def test_implications_on_broken_files_exits_2_with_every_problem(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(BAD)
    done = phoneshell("implications", str(tmp_path))
    assert done.returncode == 2
    assert "bad.yaml:5:11: error: unknown check kind" in done.stderr
    assert "hint: `phoneshell check-tasks PATH`" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow  # 3.3 s measured: the README's command stays quick
def test_grade_passes_fails_and_reports_json(tmp_path: Path, reference: Path) -> None:
    corpus = str(reference / "phoneshell-environments")
    good = evidence(El(type="Cell", label="Model Number, MQ163LL/A"),
                    task_id="settings.about.reach")
    save_evidence(good, tmp_path / "good")
    done = phoneshell("grade", str(tmp_path / "good"), "--task", "settings.about.reach",
                      "--tasks", corpus)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("settings.about.reach: PASSED")
    as_other = phoneshell("grade", str(tmp_path / "good"), "--task",
                          str(reference / "phoneshell-environments" / "settings_back_twice.yaml"))
    assert as_other.returncode == 1
    assert "(evidence recorded for settings.about.reach)" in as_other.stdout
    assert "FAIL  element_exists 'General'" in as_other.stdout
    data = json.loads(phoneshell("grade", str(tmp_path / "good"), "--task",
                                 "settings.about.reach", "--tasks", corpus, "--format",
                                 "json").stdout)
    assert data["passed"] is True and len(data["results"]) == 2


@pytest.mark.slow  # 4.2 s measured: the README's command stays quick
def test_grade_answer_task_and_bad_inputs(tmp_path: Path, reference: Path) -> None:
    corpus = str(reference / "phoneshell-environments")
    ev = Evidence("probe.image.one", 1.0, claim=Claim(status="done", answer="MERIDIAN"))
    save_evidence(ev, tmp_path / "ev")
    done = phoneshell("grade", str(tmp_path / "ev"), "--task", "probe.image.one", "--tasks", corpus)
    assert done.returncode == 1  # the answer is right but the foreground was never captured
    assert "pass  answer_contains 'MERIDIAN'" in done.stdout
    assert "FAIL  foreground_app" in done.stdout
    missing = phoneshell("grade", str(tmp_path / "none"), "--task", "probe.image.one",
                         "--tasks", corpus)
    assert missing.returncode == 2 and "error: no evidence at" in missing.stderr
    unknown = phoneshell("grade", str(tmp_path / "ev"), "--task", "probe.image.on",
                         "--tasks", corpus)
    assert unknown.returncode == 2
    assert "error: unknown task 'probe.image.on'; did you mean 'probe.image.one'?" in unknown.stderr


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_grade_checks_the_runs_seal_before_believing_its_evidence(tmp_path: Path) -> None:
    ran = phoneshell("run", "environments", "--task", "settings.about.reach", "--runs",
                     str(tmp_path), "--run-id", "R")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    folder = tmp_path / "R" / "attempts" / "settings.about.reach" / "1" / "evidence"
    sealed = phoneshell("grade", str(folder), "--task", "settings.about.reach")
    assert sealed.returncode == 0 and sealed.stderr == "", sealed.stderr
    source = next((folder / "sources").glob("*-final.xml"))
    source.write_text(source.read_text().replace("About", "Abut"))  # an edit after the run
    refused = phoneshell("grade", str(folder), "--task", "settings.about.reach")
    assert refused.returncode == 2 and "does not match its seal" in refused.stderr
    assert "-final.xml: changed since it was sealed" in refused.stderr
    shown = phoneshell("grade", str(folder), "--task", "settings.about.reach", "--unverified")
    assert shown.returncode in (0, 1) and "warning: UNVERIFIED" in shown.stderr
