"""The Chinese words of the search index and the glossary's term map."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("jieba")

from gendoc.site.search_words import (
    WORDS_FILE,
    Segmenter,
    chinese_texts,
    glossary_pairs,
    record_words,
    term_map,
)

ROOT = Path(__file__).resolve().parents[2]


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


def test_chinese_is_cut_into_words_with_the_glossary_terms_whole() -> None:
    segmenter = Segmenter()
    text = '<p title="x">转置卷积算子的卷积核不可微，输出可微。</p> Conv'
    spaced = segmenter.spaced(text)
    assert spaced.replace(" ", "") == text.replace(" ", "")
    words = spaced.replace("<p", " ").replace(">", " ").split()
    for term in ("转置卷积", "卷积核", "不可微", "可微"):
        assert term in words
    assert {"转置卷积", "卷积核", "不可微", "可微"} <= segmenter.words


def test_a_page_and_a_query_are_cut_alike() -> None:
    """The text of Resize and its queries: the same words on both sides, so each query finds
    the page's text (a query is a run of its own, as the browser cuts it)."""
    segmenter = Segmenter()
    page = segmenter.cut("对输入张量进行双线性插值")
    for query in ("双线性插值", "插值", "双线性"):
        cut = segmenter.cut(query)
        assert any(page[i : i + len(cut)] == cut for i in range(len(page))), (query, page)


def test_glossary_terms_are_words_inside_longer_dictionary_words() -> None:
    segmenter = Segmenter()
    assert "线性插值" not in segmenter.vocabulary  # a dictionary word holding the term 插值
    assert segmenter.cut("线性插值") == ["线性", "插值"]
    assert segmenter.cut("批归一化") == ["批", "归一化"]
    assert segmenter.cut("不可微") == ["不可微"]  # a term itself stays whole


def test_the_recorded_words_are_those_of_the_site_texts() -> None:
    """Every dictionary word the texts hold is recorded, so the cut of a site text is the
    cut the whole dictionary would give."""
    recorded = json.loads(WORDS_FILE.read_text(encoding="utf-8"))
    current = record_words(chinese_texts(ROOT))
    assert recorded["words"] == current["words"], (
        "new Chinese text: python -m gendoc.site.search_words"
    )
