"""``gendoc build`` end to end: custom schemas, overrides, bad input, determinism."""

from __future__ import annotations

import os
from pathlib import Path

import onnx
import pytest
from packaging.version import Version

from tests.helpers import run_gendoc

DOCUMENTS = ("Operators.md", "Changelog.md", "Operators-ml.md", "Changelog-ml.md")


def test_builds_four_documents_with_custom_schemas(tmp_path: Path) -> None:
    result = run_gendoc(
        "build", "--out", str(tmp_path), "--schemas", "tests.custom_schemas.build_demo"
    )
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(DOCUMENTS)
    text = (tmp_path / "Operators.md").read_text(encoding="utf-8")
    assert "<dt><code>X</code> (differentiable) : <code>T</code></dt>" in text
    assert "<dt><code>factor</code> (non-differentiable) : <code>tensor(int64)</code></dt>" in text
    assert "<dt><code>bias</code> (optional, undefined) : <code>T</code></dt>" in text
    assert "1/3 inputs, 1/1 outputs differentiable (1 undefined)" in text
    # a release links to its tag; a development build (onnx-weekly) has none and links to main
    installed = Version(onnx.__version__)
    ref = "main" if installed.is_prerelease else f"v{installed.public}"
    assert f'href="https://github.com/onnx/onnx/blob/{ref}/docs/IR.md"' in text
    ml = (tmp_path / "Operators-ml.md").read_text(encoding="utf-8")
    assert "com.example.build" not in ml


def test_python_dash_m_and_chinese_labels(tmp_path: Path) -> None:
    result = run_gendoc(
        "build", "--out", str(tmp_path), "--lang", "zh",
        "--schemas", "tests.custom_schemas.build_demo",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "Operators.md").read_text(encoding="utf-8")
    assert "<dt><code>X</code>（可微）：<code>T</code></dt>" in text
    assert "<dt><code>factor</code>（不可微）：<code>tensor(int64)</code></dt>" in text
    assert "<dt><code>bias</code>（可选、未定义）：<code>T</code></dt>" in text
    assert "#### 输入" in text and "| 算子 | 起始版本 | 可微性 |" in text


def test_failing_schema_module_is_one_line_and_exit_2(tmp_path: Path) -> None:
    for module in ("tests.custom_schemas.broken", "no_such_module_anywhere"):
        result = run_gendoc("build", "--out", str(tmp_path / "out"), "--schemas", module)
        assert result.returncode == 2
        assert result.stderr.count("\n") == 1, result.stderr
        assert module in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["build", "--bogus"],
        ["build", "--style", "fancy"],
        ["build", "--lang", "fr"],
        ["frobnicate"],
    ],
)
def test_bad_options_are_one_line(args: list[str]) -> None:
    result = run_gendoc(*args)
    assert result.returncode == 2
    assert result.stderr.startswith("gendoc: error: ") and result.stderr.count("\n") == 1


def test_unwritable_out_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = run_gendoc("build", "--style", "onnx", "--out", str(blocker / "docs"))
    assert result.returncode == 2
    assert result.stderr.startswith("gendoc: error: cannot create output folder")
    assert result.stderr.count("\n") == 1
    assert blocker.read_text() == "not a folder"


def test_templates_override(tmp_path: Path) -> None:
    override = tmp_path / "mine" / "gendoc"
    override.mkdir(parents=True)
    (override / "_statement.md.j2").write_text("# Custom header for {{ title }}\n")
    result = run_gendoc(
        "build", "--out", str(tmp_path / "out"), "--templates", str(override.parent)
    )
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "out" / "Operators.md").read_text(encoding="utf-8")
    assert text.startswith("# Custom header for Operator Schemas\n")
    missing = run_gendoc("build", "--out", str(tmp_path / "o"), "--templates", str(tmp_path / "x"))
    assert missing.returncode == 2 and "templates folder not found" in missing.stderr


def test_same_bytes_across_hash_seeds_and_locales(tmp_path: Path) -> None:
    outputs = []
    for seed, locale in (("1", "C.UTF-8"), ("4242", "C")):
        out = tmp_path / seed
        env = {"PYTHONHASHSEED": seed, "LC_ALL": locale, "LANG": locale, "GENDOC_CACHE_DIR": ""}
        result = run_gendoc("build", "--out", str(out), env=env)
        assert result.returncode == 0, result.stderr
        outputs.append({name: (out / name).read_bytes() for name in DOCUMENTS})
    assert outputs[0] == outputs[1]
    assert all(b"\r" not in data for data in outputs[0].values())


def test_unchanged_files_keep_their_mtime(tmp_path: Path) -> None:
    assert run_gendoc("build", "--style", "onnx", "--out", str(tmp_path)).returncode == 0
    target = tmp_path / "Operators.md"
    os.utime(target, ns=(1_000_000_000, 1_000_000_000))
    result = run_gendoc("build", "--style", "onnx", "--out", str(tmp_path))
    assert result.returncode == 0
    assert target.stat().st_mtime_ns == 1_000_000_000
    assert "wrote" not in result.stderr


def test_an_unusable_cache_folder_changes_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    env = {"GENDOC_CACHE_DIR": str(blocker / "cache")}
    result = run_gendoc("build", "--style", "onnx", "--out", str(tmp_path / "out"), env=env)
    assert result.returncode == 0, result.stderr
    fresh = run_gendoc("build", "--style", "onnx", "--out", str(tmp_path / "ref"))
    assert fresh.returncode == 0, fresh.stderr
    for name in DOCUMENTS:
        assert (tmp_path / "out" / name).read_bytes() == (tmp_path / "ref" / name).read_bytes()
