"""The Chinese words of the search index and the glossary's term map."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jieba")

from gendoc.site.search_words import (
    HAN,
    TERM_FREQUENCY,
    Segmenter,
    chinese_texts,
    glossary_pairs,
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


@pytest.fixture(scope="module")
def jieba_whole() -> Any:
    """jieba with its whole dictionary, and the glossary's terms added as gendoc adds them."""
    import jieba

    tokenizer = jieba.Tokenizer()
    tokenizer.tmp_dir = None
    jieba.setLogLevel(60)
    tokenizer.initialize()
    for _, term in glossary_pairs():
        for word in HAN.findall(term):
            tokenizer.add_word(word, TERM_FREQUENCY)
    return tokenizer


def test_the_recorded_words_cut_the_site_texts_as_the_whole_dictionary(jieba_whole) -> None:
    runs = sorted({run for text in chinese_texts(ROOT) for run in HAN.findall(text)})
    assert len(runs) > 1000
    recorded = Segmenter()._tokenizer
    differ = [r for r in runs if list(recorded.cut(r)) != list(jieba_whole.cut(r))]
    assert differ == [], "new Chinese text: run python -m gendoc.site.search_words"
