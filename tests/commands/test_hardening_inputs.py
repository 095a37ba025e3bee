"""Hostile input, run as real processes: one line on stderr, a non-zero exit, nothing changed.

Each case runs ``python -m gendoc`` against a folder that already holds a
built reference, then compares the folder's checksums, so "nothing is
lost" is checked on disk, not assumed.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT, run_gendoc

MODULES = "tests.custom_schemas"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("built")
    result = run_gendoc("build", "--out", str(out))
    assert result.returncode == 0, result.stderr
    return out


def _checksums(folder: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file()
    }


def _one_line(result: subprocess.CompletedProcess, code: int, *expected: str) -> str:
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    for text in expected:
        assert text in lines[0]
    return lines[0]


SCHEMA_MODULES = {
    # case: (command, environment, exit code, expected in the line)
    "exits": ("build", {}, 2, "called sys.exit(0) while being imported"),
    "raises_base": ("export", {}, 2, "Escape: escaped the usual error handling"),
    "interrupts": ("build", {}, 130, "gendoc: interrupted"),
    "broken": ("export", {}, 2, "RuntimeError: this module is broken on purpose"),
    "reregisters": ("build", {"REREGISTER_DOMAIN": ""}, 2, "already registered"),
    "reregisters-ai.onnx": (
        "export",
        {"REREGISTER_DOMAIN": "ai.onnx"},
        2,
        "registers ai.onnx.Relu-14 again, which was already registered",
    ),
    "reregisters-replacing": (
        "build",
        {"REREGISTER_DOMAIN": "deregister"},
        2,
        "registers ai.onnx.Relu-14 again",
    ),
    "reregisters-removing": (
        "export",
        {"REREGISTER_DOMAIN": "remove"},
        2,
        "removes ai.onnx.Relu-14",
    ),
}


@pytest.mark.parametrize("case", sorted(SCHEMA_MODULES))
def test_hostile_schema_module_is_one_line_and_changes_nothing(case: str, built: Path) -> None:
    """Half the cases run ``build --out``, half ``export -o`` onto a built document."""
    command, env, code, expected = SCHEMA_MODULES[case]
    module = f"{MODULES}.{case.split('-')[0]}"
    before = _checksums(built)
    target = ["--out", str(built)] if command == "build" else ["-o", str(built / "Operators.md")]
    result = run_gendoc(command, "--schemas", module, *target, env=env)
    line = _one_line(result, code, expected)
    if code == 2:
        assert line.startswith("gendoc: error: ") and repr(module) in line
    assert result.stdout == ""
    assert _checksums(built) == before


def test_what_a_schema_module_prints_goes_to_stderr(tmp_path: Path) -> None:
    result = run_gendoc("export", "--schemas", f"{MODULES}.prints")
    assert result.returncode == 0, result.stderr
    names = [s["name"] for s in json.loads(result.stdout)["schemas"]]
    assert "Chatty" in names
    assert result.stderr == "registering com.example.prints\nmore chatter\n"


@pytest.mark.parametrize("command", ["build", "check"])
def test_a_named_pipe_in_place_of_a_document_does_not_hang(command: str, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "Operators.md")
    (tmp_path / "Changelog.md").write_text("old\n")
    result = subprocess.run(
        [sys.executable, "-m", "gendoc", command, "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,  # a hang fails here instead of blocking the suite
    )
    _one_line(result, 2, f"{tmp_path / 'Operators.md'} is a named pipe, not a regular file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Changelog.md", "Operators.md"]
    assert (tmp_path / "Changelog.md").read_text() == "old\n"


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("/dev/null", "/dev/null is a character device, not a regular file"),
        ("/dev/stdout", "/dev/stdout is a symbolic link, not a regular file"),
    ],
)
def test_export_refuses_special_files(output: str, expected: str) -> None:
    _one_line(run_gendoc("export", "-o", output), 2, expected)


def test_export_dash_streams_to_stdout() -> None:
    dash = run_gendoc("export", "-o", "-")
    plain = run_gendoc("export")
    assert dash.returncode == 0 and dash.stderr == ""
    assert dash.stdout == plain.stdout
    assert json.loads(dash.stdout)["format"] == "gendoc-snapshot"
    assert not (ROOT / "-").exists()


def _gendoc_process(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "gendoc", *args], cwd=ROOT, stderr=subprocess.PIPE, **kwargs
    )


def test_a_reader_that_goes_away_ends_the_export_quietly() -> None:
    process = _gendoc_process("export", stdout=subprocess.PIPE)
    assert process.stdout.read(10) == b'{\n  "forma'
    process.stdout.close()
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0
    assert err == b""


def test_a_closed_stdout_is_one_line() -> None:
    process = _gendoc_process("export", preexec_fn=lambda: os.close(1))
    _, err = process.communicate(timeout=120)
    assert process.returncode == 2
    assert err.decode() == "gendoc: error: cannot write to standard output: it is closed\n"


def test_a_full_stdout_is_one_line() -> None:
    with open("/dev/full", "wb") as full:
        process = _gendoc_process("export", stdout=full)
        _, err = process.communicate(timeout=120)
    assert process.returncode == 2
    assert err.decode().splitlines() == [
        "gendoc: error: cannot write to standard output: No space left on device"
    ]


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"}, {"LANG": "C", "LC_ALL": "C"}])
def test_chinese_text_on_an_ascii_terminal_is_escaped_not_a_crash(
    env: dict[str, str], tmp_path: Path
) -> None:
    """``check --lang zh`` on stale documents prints a diff full of Chinese labels."""
    built = run_gendoc("build", "--out", str(tmp_path), "--lang", "en")
    assert built.returncode == 0, built.stderr
    result = run_gendoc("check", "--out", str(tmp_path), "--lang", "zh", env=env)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "is stale:" in result.stdout
    if env.get("PYTHONIOENCODING") == "ascii":
        assert result.stdout.isascii() and "\\u" in result.stdout


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('"\\ud800"', "$.onnx_version: the string holds a lone surrogate"),
        ("7" * 5000, "$.onnx_version: an integer of 5000 digits is out of range"),
        ("[]", "$.onnx_version: expected `str`, got `array`"),
    ],
)
def test_hostile_snapshot_values_from_the_command_line(
    raw: str, expected: str, tmp_path: Path
) -> None:
    exported = run_gendoc("export")
    data = json.loads(exported.stdout)
    data["onnx_version"] = "@@RAW@@"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data).replace('"@@RAW@@"', raw), encoding="utf-8")
    result = run_gendoc("diff", str(bad), "installed")
    assert result.stdout == ""
    _one_line(result, 2, f"gendoc: error: {bad}: {expected}")
