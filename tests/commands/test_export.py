"""``gendoc export``: the command returns the snapshot's text, the command line writes it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gendoc.cli import main
from gendoc.commands import export as export_command
from gendoc.runtime.ort_kernels import load_record
from gendoc.runtime.scoreboard import scoreboard

SNAPSHOT = '{"format": "gendoc-snapshot"}\n'
"""What the stubbed command returns: the command line writes whatever text it gets."""


@pytest.fixture
def stubbed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    asked: list[tuple[str, ...]] = []

    def export(*, schemas=()):
        asked.append(tuple(schemas))
        return SNAPSHOT

    monkeypatch.setattr(export_command, "export", export)
    return asked


def test_export_writes_once_then_leaves_an_equal_file_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], stubbed: list[tuple[str, ...]]
) -> None:
    target = tmp_path / "sub" / "snap.json"
    assert main(["export", "-o", str(target), "--schemas", "m"]) == 0
    assert target.read_text(encoding="utf-8") == SNAPSHOT
    assert stubbed == [("m",)]
    assert capsys.readouterr().err == f"wrote {target}\n"
    mtime = target.stat().st_mtime_ns
    assert main(["export", "-o", str(target)]) == 0
    assert target.stat().st_mtime_ns == mtime
    assert capsys.readouterr().err == f"unchanged {target}\n"


@pytest.mark.parametrize("output", [[], ["-o", "-"]])
def test_export_without_a_file_writes_stdout(
    output: list[str], capsysbinary: pytest.CaptureFixture[bytes], stubbed: list
) -> None:
    assert main(["export", *output]) == 0
    assert capsysbinary.readouterr().out == SNAPSHOT.encode("utf-8")


def test_export_to_a_folder_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], stubbed: list
) -> None:
    assert main(["export", "-o", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"gendoc: error: output is a folder, not a file: {tmp_path}\n"
    assert captured.out == ""


def test_the_export_says_where_every_version_runs(exported: Path) -> None:
    """Every schema carries its runtime support, and the snapshot names the records it comes
    from: the shipped kernel table and scoreboard, whatever onnxruntime is installed."""
    data = json.loads(exported.read_text(encoding="utf-8"))
    assert data["format_minor"] >= 1
    record = load_record()
    assert data["runtime_sources"]["onnxruntime"] == record["onnxruntime"]
    assert data["runtime_sources"]["onnxruntime_commit"] == record["commit"]
    assert data["runtime_sources"]["scoreboard_commit"] == scoreboard().commit
    assert all(s["runtime_support"] is not None for s in data["schemas"])
    relu = [s for s in data["schemas"] if (s["domain"], s["name"]) == ("", "Relu")]
    assert relu[-1]["runtime_support"]["onnxruntime"]["status"] == "registered"
    assert set(relu[-1]["runtime_support"]["tests"]) >= {"ort", "onnx-reference"}
    assert all(s["runtime_support"]["tests"] == {} for s in relu[:-1])
