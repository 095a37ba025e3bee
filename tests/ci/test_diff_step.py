"""The action's diff step on its own: a comparison that runs too long is stopped, in one line."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from gendoc.ci import diff_step
from gendoc.model.reference import Reference, Schema
from gendoc.model.snapshot import dumps


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "gendoc"
    (folder / "head").mkdir(parents=True)
    for name, doc in (("base.json", "Old text."), ("head/head.json", "New text.")):
        reference = Reference("1.0", (Schema(domain="", name="Foo", since_version=1, doc=doc),))
        (folder / name).write_text(dumps(reference), encoding="utf-8")
        (folder / name.replace(".json", ".missing.json")).write_text("[]", encoding="utf-8")
    monkeypatch.setenv("RUNNER_TEMP", str(tmp_path))
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    return folder


def test_a_comparison_within_its_time_limit_writes_the_comment(work, monkeypatch, capsys):
    monkeypatch.setenv("DIFF_TIME_LIMIT", "30")
    assert diff_step.main() == 0
    comment = json.loads((work / "comment.json").read_text(encoding="utf-8"))
    assert comment["differences"] and "Foo-1" in comment["body"]
    assert (
        "::notice title=Operator change::Foo-1 text: 1 paragraph changed" in capsys.readouterr().out
    )
    time.sleep(0.05)  # the timer was cleared: nothing fires after the step


def test_a_comparison_past_its_time_limit_is_stopped_with_one_error(work, monkeypatch, capsys):
    def endless(*args: object, **kwargs: object) -> None:
        time.sleep(30)

    monkeypatch.setattr(diff_step, "diff", endless)
    monkeypatch.setenv("DIFF_TIME_LIMIT", "0.2")
    began = time.monotonic()
    assert diff_step.main() == 2
    assert time.monotonic() - began < 5
    out = capsys.readouterr().out
    assert out == "::error title=gendoc diff::the comparison took more than 0.2 s and was stopped\n"
    assert not (work / "comment.json").exists()


@pytest.mark.parametrize("limit", ["0", "-1", "nan", "inf", "soon"])
def test_a_time_limit_that_is_not_a_positive_number_is_one_error(work, monkeypatch, capsys, limit):
    monkeypatch.setenv("DIFF_TIME_LIMIT", limit)
    assert diff_step.main() == 2
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("::error title=gendoc diff::")
    assert not (work / "comment.json").exists()
