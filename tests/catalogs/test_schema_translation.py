"""Translated schema text: shown when current, English with a marker when onnx changed it."""

from __future__ import annotations

import json
from pathlib import Path

from babel.messages.catalog import Catalog

from gendoc.catalogs.i18n import update_catalog, write_catalog
from gendoc.catalogs.schema_text import build_template, coverage, paragraphs
from gendoc.model.snapshot_read import load_snapshot
from tests.helpers import run_gendoc

MODULE = "tests.custom_schemas.greet"
DOC = "Greets the input tensor and returns it unchanged."
CHANGED = "Greets the input tensor twice and returns it unchanged."
TRANSLATED = "向输入张量问好，并原样返回它。"
MARKER = 'class="gd-untranslated"'


def _catalog(templates: Path) -> Path:
    """A user catalog for ``com.greet`` that translates the original doc and the descriptions."""
    catalog = Catalog(locale="zh_Hans_CN", domain="schema-com.greet")
    catalog.add(DOC, TRANSLATED)
    catalog.add("The tensor to greet.", "要问好的张量。")
    catalog.add("The same tensor.", "同一个张量。")
    catalog.add("Any float tensor.", "任意浮点张量。")
    path = templates / "locale" / "zh" / "LC_MESSAGES" / "schema-com.greet.po"
    write_catalog(catalog, path)
    return path


def _greet_section(out: Path) -> str:
    text = (out / "Operators.md").read_text(encoding="utf-8")
    start = text.index('<a name="com.greet.Greet"></a>')
    end = text.find("\n### ", start)
    return text[start : end if end >= 0 else None]


def _build(out: Path, templates: Path, doc: str, *extra: str) -> str:
    env = {"GREET_DOC": doc}
    args = ["build", "--schemas", MODULE, "--out", str(out), "--lang", "zh"]
    result = run_gendoc(*args, "--templates", str(templates), *extra, env=env)
    assert result.returncode == 0, result.stderr
    return _greet_section(out)


def test_paragraphs_keep_fenced_code_whole() -> None:
    text = "First line\nsecond line.\n\n```\na = 1\n\nb = 2\n```\n\nLast."
    assert paragraphs(text) == ["First line\nsecond line.", "```\na = 1\n\nb = 2\n```", "Last."]


def test_current_translation_is_shown_and_a_changed_text_falls_back(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    _catalog(templates)
    shown = _build(tmp_path / "a", templates, DOC)
    assert TRANSLATED in shown and "要问好的张量。" in shown
    assert MARKER not in shown

    changed = _build(tmp_path / "b", templates, CHANGED)
    assert TRANSLATED not in changed
    assert MARKER in changed and CHANGED in changed
    assert "要问好的张量。" in changed  # untouched paragraphs stay translated

    english = _build(tmp_path / "c", templates, DOC, "--no-schema-translation")
    assert DOC in english and TRANSLATED not in english and MARKER not in english


def test_catalog_update_turns_the_changed_paragraph_fuzzy(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    path = _catalog(templates)
    snapshot = tmp_path / "changed.json"
    result = run_gendoc(
        "export", "--schemas", MODULE, "-o", str(snapshot), env={"GREET_DOC": CHANGED}
    )
    assert result.returncode == 0, result.stderr
    reference = load_snapshot(snapshot)
    updated = update_catalog(build_template(reference, "com.greet"), path, "zh")
    write_catalog(updated, path)
    entry = updated.get(CHANGED)
    assert entry is not None and entry.fuzzy and entry.string == TRANSLATED
    assert coverage(reference, "com.greet", "zh", templates).fuzzy == 1
    # the fuzzy entry is kept for the translator but never shown
    assert MARKER in _build(tmp_path / "d", templates, CHANGED)
    data = json.loads(snapshot.read_text(encoding="utf-8"))
    assert data["format"] == "gendoc-snapshot"
