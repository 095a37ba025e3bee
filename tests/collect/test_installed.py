"""The collected model in the cache: read back without importing onnx, never stale, never wrong."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import gendoc.collect.schemas
from gendoc.collect import installed
from gendoc.model.reference import Reference

# Builds in a fresh interpreter, then says which of onnx's schema registry (its extension
# module) and the Markdown parser it loaded.
BUILD = """
import sys
from pathlib import Path
import gendoc
gendoc.build(Path(sys.argv[1]), gendoc.RenderOptions(style=sys.argv[2]))
loaded = {"onnx.onnx_cpp2py_export": "registry", "markdown_it": "markdown_it"}
print(" ".join(v for k, v in loaded.items() if k in sys.modules) or "none")
"""


def _build(out: Path, style: str, cache: str) -> str:
    env = {**os.environ, "GENDOC_CACHE_DIR": cache}
    done = subprocess.run(
        [sys.executable, "-c", BUILD, str(out), style],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return done.stdout.strip()


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("style", ["onnx", "gendoc"])
def test_a_warm_cache_builds_the_same_bytes_without_loading_onnx_or_markdown_it(
    tmp_path: Path, style: str
) -> None:
    cache = str(tmp_path / "cache")
    # the onnx style copies schema text as onnx does; the default style renders it
    imported = "registry" if style == "onnx" else "registry markdown_it"
    assert _build(tmp_path / "uncached", style, "") == imported
    assert _build(tmp_path / "cold", style, cache) == imported
    assert _build(tmp_path / "warm", style, cache) == "none"
    expected = _files(tmp_path / "uncached")
    assert len(expected) == 4
    assert _files(tmp_path / "cold") == expected
    assert _files(tmp_path / "warm") == expected


class Counting:
    """Stands for gendoc.collect.schemas.collect and counts the calls."""

    def __init__(self, reference: Reference) -> None:
        self.reference = reference
        self.calls = 0

    def __call__(self, modules: tuple[str, ...], **options: object) -> Reference:
        self.calls += 1
        return self.reference


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, reference: Reference) -> Counting:
    counter = Counting(reference)
    monkeypatch.setattr(gendoc.collect.schemas, "collect", counter)
    monkeypatch.setenv("GENDOC_CACHE_DIR", str(tmp_path / "cache"))
    return counter


def test_the_cache_answers_until_a_source_file_changes(
    counting: Counting, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    watched = tmp_path / "onnx_cpp2py_export.so"
    watched.write_bytes(b"one build")
    sources = installed._source_files
    monkeypatch.setattr(installed, "_source_files", lambda d: [*sources(d), watched])

    assert installed.reference() == counting.reference
    assert installed.reference() == counting.reference
    assert counting.calls == 1

    watched.write_bytes(b"another build, another size")
    assert installed.reference() == counting.reference
    assert counting.calls == 2
    # the entry of the old fingerprint is gone: one model per variant stays
    assert len(list((tmp_path / "cache").glob("reference.examples-*"))) == 1


def test_a_damaged_entry_is_collected_again(counting: Counting, tmp_path: Path) -> None:
    installed.reference(with_examples=False)
    (entry,) = (tmp_path / "cache").glob("reference.bare-*")
    entry.write_bytes(entry.read_bytes()[:1000])
    assert installed.reference(with_examples=False) == counting.reference
    assert counting.calls == 2


def test_schema_modules_are_always_collected(counting: Counting, tmp_path: Path) -> None:
    installed.reference(["some_module"])
    installed.reference(["some_module"])
    assert counting.calls == 2
    assert not (tmp_path / "cache").exists()
