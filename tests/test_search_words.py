"""The Chinese words of the search index and the glossary's term map."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("jieba")

from gendoc.site.search_words import Segmenter, glossary_pairs, term_map


def test_glossary_pairs_follow_the_table(tmp_path: Path) -> None:
    glossary = tmp_path / "GLOSSARY.md"
    glossary.write_text(
        "| English | 中文 |\n|---|---|\n| input / output | 输入 / 输出 |\n"
        "| broadcast, broadcasting | 广播 |\n| operator set (opset) | 算子集（opset） |\n"
        "| logits | logits |\n| Constrain input and output types to ... | 将……限制为 |\n",
        encoding="utf-8",
    )
    assert glossary_pairs(glossary) == [
        ("input", "输入"),
        ("output", "输出"),
        ("broadcast", "广播"),
        ("broadcasting", "广播"),
        ("operator set", "算子集"),
    ]


def test_the_shipped_glossary_maps_both_ways() -> None:
    terms = term_map(glossary_pairs())
    assert terms["zh"]["卷积"] == ["convolution"]
    assert terms["en"]["kernel"] == ["卷积核"]
    assert "non-differentiable" in terms["zh"]["不可微"]


def test_chinese_is_cut_into_words_with_the_glossary_terms_whole(tmp_path: Path) -> None:
    segmenter = Segmenter(tmp_path)
    text = '<p title="x">转置卷积算子的卷积核不可微，输出可微。</p> Conv'
    spaced = segmenter.spaced(text)
    assert spaced.replace(" ", "") == text.replace(" ", "")
    words = spaced.replace("<p", " ").replace(">", " ").split()
    for term in ("转置卷积", "卷积核", "不可微", "可微"):
        assert term in words
    assert {"转置卷积", "卷积核", "不可微", "可微"} <= segmenter.words
    assert list(tmp_path.iterdir())  # jieba's prepared dictionary, kept for the next build
