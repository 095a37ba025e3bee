"""A translation has the block structure of its English: the same lists, items, code blocks
and tables, in the same order and nesting.

The typography rules take the line breaks out of a Chinese paragraph, and a line break is
what makes ``2)`` start a list item; an indented line is what makes a code block. So every
``msgstr`` of the schema catalogs is parsed with the parser the pages use
(:func:`gendoc.present.schema_render.markdown`, with its rule that ends a list before a new
sentence) and its blocks compared with its ``msgid``'s. A paragraph also depends on the one
before it (an indented paragraph continues a list item), so every text of the installed onnx
is compared too, as the English and the Chinese pages show it (:meth:`Display.schema_text`).
"""

from __future__ import annotations

import functools
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from gendoc.catalogs.schema_text import schema_texts
from gendoc.model.reference import Reference
from gendoc.present.render import RenderOptions, display
from gendoc.present.schema_render import end_lists, markdown

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = sorted((ROOT / "templates" / "locale" / "zh" / "LC_MESSAGES").glob("schema-*.po"))
BASE = "https://github.com/onnx/onnx/blob/main/docs/"

# The HTML elements that make a block: what a reader sees as a list, an item, code or a table.
BLOCK_TAGS = frozenset(
    [
        "p",
        "ul",
        "ol",
        "li",
        "pre",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "blockquote",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "div",
    ]
)


def blocks(text: str, lists_end: bool = True) -> list[str]:
    """The block tokens of one catalog paragraph, with their nesting and list markers:
    ``ordered_list_open 2 )`` for a list that starts at 2 and numbers with ``)``. With
    ``lists_end`` false, as plain CommonMark reads it (without the pages' rule that ends a
    list before a new sentence): a translation keeps its structure for any reader."""
    tokens = markdown(BASE, linkify=False).parse(end_lists(text) if lists_end else text)
    return [
        " ".join(filter(None, [t.type, str(t.level), t.info, t.markup if "list" in t.type else ""]))
        for t in tokens
        if t.block and t.type != "inline"
    ]


class _Blocks(HTMLParser):
    """The block elements of an HTML fragment, in order, with an ordered list's start; the
    wrapper of a paragraph shown in English (``gd-untranslated``, with its note) is not one
    of the text's own blocks (onnx's newest texts may have no translation yet)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.open: list[bool] = []  # per open block element: whether it is left out

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in BLOCK_TAGS:
            wrapper = "gd-untranslated" in (dict(attrs).get("class") or "")
            self.open.append(wrapper)
            if not wrapper:
                self.found.append(f"<{tag}{dict(attrs).get('start') or ''}>")

    def handle_endtag(self, tag: str) -> None:
        if tag in BLOCK_TAGS and not (self.open and self.open.pop()):
            self.found.append(f"</{tag}>")


def html_blocks(html: str) -> list[str]:
    parser = _Blocks()
    parser.feed(html)
    return parser.found


def _messages(path: Path) -> list[tuple[str, str]]:
    with path.open("rb") as f:
        catalog = read_po(f)
    return [
        (m.id, m.string)
        for m in catalog
        if m.id and isinstance(m.id, str) and m.string and not m.fuzzy
    ]


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.stem)
def test_every_translation_has_the_blocks_of_its_english(path: Path) -> None:
    found = [
        f"{msgid[:60]!r} (lists end: {ended}): {blocks(msgid, ended)} != {blocks(msgstr, ended)}"
        for msgid, msgstr in _messages(path)
        for ended in (True, False)
        if blocks(msgid, ended) != blocks(msgstr, ended)
    ]
    assert found == []


@functools.cache
def _shown(lang: str):
    return display(RenderOptions(lang=lang)).schema_text


def test_every_text_of_onnx_shows_the_same_blocks_in_chinese(reference: Reference) -> None:
    """Every text the catalogs translate whole (another onnx than the catalogs' may have
    paragraphs with no translation yet: shown in English, a text's runs are cut apart)."""
    english, chinese = _shown("en"), _shown("zh")
    schema = display(RenderOptions(lang="zh")).schema
    assert schema is not None
    texts = {
        text
        for domain in reference.domains
        for op in reference.operators(domain)
        for version in op.versions
        for _, text in schema_texts(version)
        if text and all(translated for _, translated in schema.paragraphs(text))
    }
    found = [
        text[:60]
        for text in sorted(texts)
        if html_blocks(english(text)) != html_blocks(chinese(text))
    ]
    assert len(texts) > 1000
    assert found == []


@pytest.mark.parametrize(
    ("english", "chinese"),
    [
        # A numbered item joined to the sentence before it: no list.
        ("Variants:\n1) MHA.\n2) GQA.", "变体：1) MHA。2) GQA。"),
        # Two items joined into one.
        ("1) First.\n2) Second.", "1) 第一。2) 第二。"),
        # An indented line lost: the code block becomes prose.
        ("    x = 0, when y\nIf z, then w.", "当 y 时 x = 0。如果 z，则 w。"),
        # A sentence after a list read as part of its last item.
        ("* a = 1\nThe rest.", "* a = 1 其余。"),
        # A blank line that splits a paragraph the English keeps whole.
        ("Two lines\nof one paragraph.", "两行\n\n一段。"),
        # "-Value" is a word in English, a list item once a space follows the dash.
        ("Outputs:\n  -Value tensor", "输出：\n  - 值张量"),
        # A fence moved away from the sentence after it.
        ("Is:\n```\nx\n```\nif y.", "如果 y，则为：\n```\nx\n```"),
    ],
)
def test_a_changed_structure_is_seen(english: str, chinese: str) -> None:
    assert blocks(english) != blocks(chinese)


def test_a_paragraph_split_out_of_a_list_item_is_seen_as_commonmark_reads_it() -> None:
    """QuantizeLinear-21: CommonMark continues the last item with the sentence after it,
    so a blank line the English does not have takes that sentence out of the list."""
    english, chinese = "- int4: [-8, 7]\nFor x, it rounds.", "- int4: [-8, 7]\n\n对于 x，舍入。"
    assert blocks(english) == blocks(chinese)
    assert blocks(english, lists_end=False) != blocks(chinese, lists_end=False)


@pytest.mark.parametrize(
    ("english", "chinese"),
    [
        ("Variants:\n1) MHA.\n2) GQA.", "变体：\n1) MHA。\n2) GQA。"),
        ("* a = 1\nThe rest.", "* a = 1\n其余。"),
        ("Wrapped\nlines of\none paragraph.", "一段不换行的文字。"),
        ("    x = 0, when y\nIf z, then w.", "    x = 0, when y\n如果 z，则 w。"),
    ],
)
def test_the_same_structure_passes(english: str, chinese: str) -> None:
    assert blocks(english) == blocks(chinese)
