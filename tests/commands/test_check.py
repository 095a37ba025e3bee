"""Check: exit 0 on fresh documents; on stale ones a bounded diff and the fixing command."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from gendoc.cli import main
from gendoc.commands.check import check_documents, fix_command
from gendoc.present.check_report import format_check
from gendoc.present.render import DOCUMENTS, RenderOptions
from tests.helpers import run_gendoc

NAMES = sorted(doc.filename for doc in DOCUMENTS)
STYLES = ["onnx", "gendoc"]


def _build(out: Path, *options: str) -> None:
    assert main(["build", "--out", str(out), *options]) == 0


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Bytes and modification time of every file, to prove check wrote nothing."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module", params=STYLES)
def built(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, str]:
    """Fresh documents of one style, built once; tests copy them before editing."""
    out = tmp_path_factory.mktemp(f"built-{request.param}")
    _build(out, "--style", request.param)
    return out, request.param


@pytest.fixture
def docs(built: tuple[Path, str], tmp_path: Path) -> tuple[Path, str]:
    source, style = built
    out = tmp_path / "docs"
    out.mkdir()
    for name in NAMES:
        (out / name).write_bytes((source / name).read_bytes())
    return out, style


def test_fresh_documents_pass(docs: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    out, style = docs
    before = _snapshot(out)
    assert main(["check", "--out", str(out), "--style", style]) == 0
    assert capsys.readouterr().out == f"4 documents in {out} are up to date\n"
    assert _snapshot(out) == before


def test_one_edited_line_is_shown_with_the_fix_command(
    docs: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    out, style = docs
    target = out / "Operators.md"
    lines = target.read_text(encoding="utf-8").splitlines(keepends=True)
    original = lines[40]
    lines[40] = "an edited line\n"
    target.write_text("".join(lines), encoding="utf-8")
    before = _snapshot(out)

    assert main(["check", "--out", str(out), "--style", style]) == 1
    report = capsys.readouterr().out.splitlines()
    assert report[:3] == [
        f"{target} is stale:",
        f"--- {target} (on disk)",
        f"+++ {target} (expected)",
    ]
    assert "-an edited line" in report
    assert f"+{original.rstrip(chr(10))}" in report
    assert sum(line.startswith(("-", "+")) for line in report[3:]) == 2
    assert report[-2:] == [
        f"1 of 4 documents in {out} is stale; regenerate with:",
        f"  gendoc build --out {out} --style {style}",
    ]
    assert _snapshot(out) == before


def test_the_printed_command_fixes_what_check_found(
    docs: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    out, style = docs
    (out / "Changelog.md").write_text("stale\n", encoding="utf-8")
    assert main(["check", "--out", str(out), "--style", style]) == 1
    command = capsys.readouterr().out.splitlines()[-1].strip()
    argv = shlex.split(command)
    assert argv[:2] == ["gendoc", "build"]
    assert main(argv[1:]) == 0
    assert main(["check", "--out", str(out), "--style", style]) == 0


def test_missing_file_and_missing_folder_are_stale_and_not_created(
    docs: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, style = docs
    (out / "Operators-ml.md").unlink()
    assert main(["check", "--out", str(out), "--style", style]) == 1
    report = capsys.readouterr().out
    assert f"{out / 'Operators-ml.md'} is missing\n" in report
    assert not (out / "Operators-ml.md").exists()

    nowhere = tmp_path / "not-built"
    assert main(["check", "--out", str(nowhere), "--style", style]) == 1
    report = capsys.readouterr().out
    assert [line for line in report.splitlines() if line.endswith("is missing")] == [
        f"{nowhere / name} is missing" for name in NAMES
    ]
    assert "4 of 4 documents" in report
    assert not nowhere.exists()


def test_long_diffs_are_cut_with_a_count(
    docs: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    out, style = docs
    target = out / "Changelog.md"
    lines = target.read_text(encoding="utf-8").splitlines(keepends=True)
    target.write_text("".join(f"x{line}" for line in lines[:300]) + "".join(lines[300:]), "utf-8")

    assert main(["check", "--out", str(out), "--style", style, "--max-diff-lines", "100000"]) == 1
    full = capsys.readouterr().out.splitlines()
    body = full[3 : full.index("")]
    assert len(body) > 600

    assert main(["check", "--out", str(out), "--style", style, "--max-diff-lines", "7"]) == 1
    cut = capsys.readouterr().out.splitlines()
    assert cut[3:10] == body[:7]
    assert cut[10] == f"... {len(body) - 7} more diff lines not shown"
    assert cut[11] == ""


def test_crlf_only_difference_is_named(tmp_path: Path) -> None:
    report = check_documents(tmp_path, {"a.md": "x\ny\n"}, RenderOptions())
    (tmp_path / "a.md").write_bytes(b"x\r\ny\r\n")
    report = check_documents(tmp_path, {"a.md": "x\ny\n"}, RenderOptions())
    assert format_check(report).splitlines()[0] == (
        f"{tmp_path / 'a.md'} differs only in line endings (CRLF on disk, LF expected)"
    )


def test_a_documents_control_characters_are_printed_as_visible_escapes(tmp_path: Path) -> None:
    """A committed line that sets the title, writes the clipboard and fakes a message."""
    attack = (
        "\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07"  # window title; OSC 52: write the clipboard
        "\r\x1b[2K4 documents in docs are up to date"  # erase the line, print a fake message
        "\x9b2J\u202e"  # C1 CSI: clear the screen; what follows shown reversed
    )
    (tmp_path / "Operators.md").write_text(f"line {attack}\n", encoding="utf-8", newline="")
    report = check_documents(tmp_path, {"Operators.md": "line\n"}, RenderOptions())
    printed = format_check(report)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", printed)
    assert printed.splitlines()[4:7] == [  # str.splitlines ends a line at the CR
        r"-line \x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07",
        r"-\x1b[2K4 documents in docs are up to date\x9b2J\u202e",
        "+line",
    ]


def test_negative_max_diff_lines_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--out", str(tmp_path), "--style", "onnx", "--max-diff-lines", "-1"]) == 2
    assert capsys.readouterr().err == "gendoc: error: --max-diff-lines must be 0 or more, not -1\n"


def test_fix_command_repeats_every_option_that_matters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("tpl").mkdir()
    options = RenderOptions(style="onnx", lang="zh", undefined="statement", templates=Path("tpl"))
    assert fix_command(Path("my docs"), options, ["pkg.ops", "pkg.more"]) == (
        "gendoc build --schemas pkg.ops --schemas pkg.more --out 'my docs' --style onnx "
        "--lang zh --undefined statement --templates tpl"
    )
    assert fix_command(Path("docs"), RenderOptions()) == "gendoc build --out docs --style gendoc"


def test_check_honours_schema_modules(tmp_path: Path) -> None:
    """Docs built with one state of a custom domain are stale against another."""
    out = tmp_path / "docs"
    v1 = ("--schemas", "tests.custom_schemas.diff_v1")
    tag = ("--schemas", "tests.custom_schemas.diff_v1_tag")
    assert run_gendoc("build", "--out", str(out), "--style", "onnx", *v1).returncode == 0
    assert run_gendoc("check", "--out", str(out), "--style", "onnx", *v1).returncode == 0

    result = run_gendoc("check", "--out", str(out), "--style", "onnx", *tag)
    assert result.returncode == 1, result.stderr
    changed = [line for line in result.stdout.splitlines() if re.match(r"[-+](?![-+]{2} )", line)]
    # Foo-2 is both the latest version (Operators.md) and in the changelog.
    assert changed == 2 * [
        "-<dt><tt>Y</tt> : T</dt>",
        "+<dt><tt>Y</tt> (non-differentiable) : T</dt>",
    ]
    assert f"2 of 4 documents in {out} are stale; regenerate with:" in result.stdout
    assert result.stdout.splitlines()[-1] == (
        f"  gendoc build --schemas tests.custom_schemas.diff_v1_tag --out {out} --style onnx"
    )
