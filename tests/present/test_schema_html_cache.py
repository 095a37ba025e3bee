"""The table of rendered schema text: read back in the next run, never stale, never wrong."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import gendoc.present.schema_render
from gendoc.present import schema_html_cache

BASE = "https://github.com/onnx/onnx/blob/v1.0.0/docs/"
TEXT = "Computes *alpha* times `x`, see https://onnx.ai."


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A fresh table in this process, stored under a cache folder of the test's own."""
    monkeypatch.setattr(schema_html_cache, "_TABLE", schema_html_cache._Table())
    monkeypatch.setenv("GENDOC_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _fresh_process_without_renderer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget what this process rendered, and fail if the renderer is asked again."""

    def refuse(text: str, base: str) -> str:
        raise AssertionError(f"rendered again: {text!r}")

    monkeypatch.setattr(schema_html_cache, "_TABLE", schema_html_cache._Table())
    monkeypatch.setattr(gendoc.present.schema_render, "render_text", refuse)


def test_a_text_rendered_in_one_run_is_read_back_in_the_next(
    table: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = gendoc.present.schema_render.render_text(TEXT, BASE)
    assert "<em>alpha</em>" in expected and '<a href="https://onnx.ai">' in expected
    with schema_html_cache.remembered():
        assert schema_html_cache.html(TEXT, BASE) == expected
    assert len(list(table.glob("schema-html-*.json"))) == 1

    _fresh_process_without_renderer(monkeypatch)
    with schema_html_cache.remembered():
        assert schema_html_cache.html(TEXT, BASE) == expected
    # the same text against another base is another entry
    with pytest.raises(AssertionError, match="rendered again"), schema_html_cache.remembered():
        schema_html_cache.html(TEXT, "https://example.org/docs/")


def test_two_processes_storing_at_once_keep_each_others_texts(
    table: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A site build renders its two languages in two processes; each loads the table, renders
    its own texts and stores: the second to store keeps what the first stored meanwhile."""
    other = "Another text, *rendered* by the other process."
    first, second = schema_html_cache._Table(), schema_html_cache._Table()
    for process, text in ((first, TEXT), (second, other)):
        process.depth = 1
        process.html(text, BASE)  # loads the (still empty) table, then renders
    first.store()
    second.store()
    _fresh_process_without_renderer(monkeypatch)
    with schema_html_cache.remembered():
        assert "<em>alpha</em>" in schema_html_cache.html(TEXT, BASE)
        assert "<em>rendered</em>" in schema_html_cache.html(other, BASE)


def test_a_damaged_table_means_rendering_again(
    table: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = gendoc.present.schema_render.render_text(TEXT, BASE)
    with schema_html_cache.remembered():
        schema_html_cache.html(TEXT, BASE)
    (stored,) = table.glob("schema-html-*.json")
    for damage in (b'{"truncated', b'{"' + BASE.encode() + b"\\u0000" + TEXT.encode() + b'": 3}'):
        stored.write_bytes(damage)
        monkeypatch.setattr(schema_html_cache, "_TABLE", schema_html_cache._Table())
        with schema_html_cache.remembered():
            assert schema_html_cache.html(TEXT, BASE) == expected


def test_a_run_that_fails_stores_nothing(table: Path) -> None:
    with pytest.raises(RuntimeError), schema_html_cache.remembered():
        schema_html_cache.html(TEXT, BASE)
        raise RuntimeError("template error")
    assert not list(table.glob("schema-html-*.json"))


def test_a_changed_renderer_starts_a_new_table(
    table: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    plugin = tmp_path / "lib" / "renderer_plugin.py"
    plugin.parent.mkdir()
    plugin.write_text("VERSION = 1\n")
    monkeypatch.syspath_prepend(str(plugin.parent))
    monkeypatch.setattr(
        schema_html_cache, "_RENDERER", (*schema_html_cache._RENDERER, "renderer_plugin")
    )
    with schema_html_cache.remembered():
        schema_html_cache.html(TEXT, BASE)
    (first,) = table.glob("schema-html-*.json")

    plugin.write_text("VERSION = 22\n")  # another release of one of the renderer's packages
    _fresh_process_without_renderer(monkeypatch)
    with pytest.raises(AssertionError, match="rendered again"), schema_html_cache.remembered():
        schema_html_cache.html(TEXT, BASE)
    assert "renderer_plugin" not in sys.modules  # fingerprinted without importing it
    assert first.exists()  # nothing new was stored, so the old table stays
