"""A translation adds no link: an address or a Markdown link its msgid lacks is text.

The check of markup (``neutralised``) lets a translation use the characters its English
text uses, so a paragraph that has a URL (``://``) or a link (``[``, ``](``) once let its
translation add another URL or link, live in the Chinese documents and on the site. The
vectors: a bare URL, a Markdown link, a reference definition and its use, ``www.`` and an
e-mail address, in a schema-text catalog, a label catalog and a ``--templates`` catalog.
"""

from __future__ import annotations

import re
from pathlib import Path

import cmarkgfm
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from cmarkgfm.cmark import Options

from gendoc.catalogs.i18n import catalog_path
from gendoc.catalogs.translated import neutralised, unlinked
from gendoc.present.schema_render import render_text
from tests.catalogs.test_translated import write_catalog
from tests.helpers import run_gendoc

PARAGRAPH = "Reference: https://docs.scipy.org/doc/scipy/tutorial/fft.html"
KEPT = "参考：https://docs.scipy.org/doc/scipy/tutorial/fft.html"
VECTORS = {
    "bare URL": "https://evil.example/bare",
    "Markdown link": "[链接](https://evil.example/link)",
    "image": "![图](https://evil.example/image.png)",
    "reference": "[链接][r]\n\n[r]: https://evil.example/reference",
    "www": "www.evil.example",
    "e-mail": "someone@evil.example",
}
LINKED = {"www": "www.evil.example", "e-mail": "mailto:someone@evil.example"}


def _links(html: str) -> list[str]:
    """The targets of the links and images in ``html`` that lead to the payloads' host."""
    return [url for url in re.findall(r'(?:href|src)="([^"]*)"', html) if "evil.example" in url]


@pytest.mark.parametrize("name", VECTORS)
def test_the_vector_is_a_link_when_written_as_it_is(name: str) -> None:
    """The check can fail: each vector, unchanged, is a link on GitHub and on the site."""
    text = f"{KEPT} {VECTORS[name]}"
    github = cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_UNSAFE)
    assert _links(github), name
    if name not in LINKED:  # the site's renderer links schemes only, not www. nor addresses
        assert _links(render_text(text, "https://github.com/onnx/onnx/blob/main/docs/")), name


@pytest.mark.parametrize("name", VECTORS)
def test_an_added_link_is_text_and_the_msgids_link_stays(name: str) -> None:
    msgid = f"{PARAGRAPH} Mail a@onnx.ai, see [docs](https://onnx.ai)."
    shown = unlinked(msgid, f"{KEPT} {VECTORS[name]}")
    github = cmarkgfm.github_flavored_markdown_to_html(shown, options=Options.CMARK_OPT_UNSAFE)
    site = render_text(shown, "https://github.com/onnx/onnx/blob/main/docs/")
    assert _links(github) == _links(site) == []
    assert "evil" in site and "docs.scipy.org/doc/scipy/tutorial/fft.html" in github
    assert 'href="https://docs.scipy.org/doc/scipy/tutorial/fft.html"' in site


def test_links_the_msgid_has_are_kept_as_written() -> None:
    msgid = "See [the paper](https://a.example/p) or https://b.example/q, mail x@c.example."
    msgstr = "见[论文](https://a.example/p)或 https://b.example/q。写信给 x@c.example。"
    assert unlinked(msgid, msgstr) == msgstr
    assert neutralised((msgid,), msgstr) == msgstr


def test_a_label_cannot_add_a_link_its_msgid_has_the_characters_for() -> None:
    msgid = "Operators: see https://onnx.ai"
    assert "evil&#46;example" in neutralised((msgid,), "算子：见 https://evil.example")


def test_documents_of_a_translation_adding_links_have_none(tmp_path: Path) -> None:
    """A ``--templates`` schema catalog translating DFT's reference paragraph with every
    vector: the Chinese documents link to none of them, as GitHub renders them."""
    templates = tmp_path / "templates"
    write_catalog(templates, {"Operators": "算子 https://onnx.ai"})
    catalog = Catalog(locale="zh_Hans_CN", domain="schema-ai.onnx")
    catalog.add(PARAGRAPH, " ".join([KEPT, *VECTORS.values()]))
    path = catalog_path(templates, "zh", "schema-ai.onnx")
    with path.open("wb") as f:
        write_po(f, catalog)
    out = tmp_path / "out"
    args = ("build", "--lang", "zh", "--templates", str(templates), "--out", str(out))
    result = run_gendoc(*args)
    assert result.returncode == 0, result.stderr
    text = (out / "Operators.md").read_text("utf-8")
    assert "evil" in text and "参考：" in text  # the translation was shown
    github = cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_UNSAFE)
    assert _links(github) == []
