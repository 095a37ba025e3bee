"""The documents as GitHub renders them: nothing from schema text or a translation gets out.

GitHub shows ``Operators.md`` through cmark-gfm, whose Python binding
(``cmarkgfm``) renders the generated documents here exactly as github.com
parses them, raw HTML included (GitHub's sanitizer runs after the parser and
keeps headings, images, links and most block elements). The documents are
built from hostile schema modules (``tests/custom_schemas/hostile*.py``) and
hostile catalogs, in both languages; every payload names a host or word that
gendoc never writes, so anything that escaped its HTML block or its text
shows up as an image, a heading, a link or an element carrying it.
"""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import cmarkgfm
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from cmarkgfm.cmark import Options

from gendoc.catalogs.i18n import catalog_path
from gendoc.catalogs.schema_text import paragraphs
from tests.catalogs.test_translated import HOSTILE_LABELS, write_catalog
from tests.custom_schemas.breakout_payloads import AFTER, PAYLOAD
from tests.helpers import run_gendoc

SCHEMAS = (
    "tests.custom_schemas.hostile_breakout",
    "tests.custom_schemas.hostile",
    "tests.custom_schemas.hostile_names",
)
MARKERS = ("breakout.example", "evil.example", "track.example", "javascript:", "pwned")
FETCHING = {"img", "script", "iframe", "svg", "object", "embed", "style", "video", "audio"}
FETCHING |= {"picture", "source", "input", "form", "link", "meta", "base"}
URL_ATTRIBUTES = {"src", "srcset", "action", "formaction", "poster", "data", "background"}
FIRST_PARAGRAPH = "A schema whose text tries to leave its HTML block."
TRANSLATED_BREAKOUT = (
    "试图离开 HTML 块的模式。&#13;&#13;"
    + AFTER.replace("\n", "&#xD;").replace("breakout.example", "breakout.example/zh")
    + "\r\r# injected heading in a translation\r\r"
)


def github_html(markdown: str) -> str:
    """The HTML cmark-gfm makes of ``markdown``, raw HTML kept as GitHub's parser keeps it."""
    return cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)


class Escapes(HTMLParser):
    """What in rendered HTML did not come from gendoc: fetching elements, handlers, headings
    or summaries with a payload's words; links naming a payload's host are collected."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.links: Counter[str] = Counter()
        self.open: list[tuple[str, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in FETCHING:
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}>")
            elif tag == "a" and name == "href":
                if any(marker in (value or "").lower() for marker in MARKERS):
                    self.links[value or ""] += 1
            elif name in URL_ATTRIBUTES and any(m in (value or "").lower() for m in MARKERS):
                self.found.append(f"<{tag} {name}={value}>")
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6", "summary"):
            self.open.append((tag, []))

    def handle_endtag(self, tag: str) -> None:
        if self.open and self.open[-1][0] == tag:
            _, text = self.open.pop()
            words = "".join(text)
            if words.strip().startswith("injected"):  # its own heading, not text in gendoc's
                self.found.append(f"<{tag}>{words}")

    def handle_data(self, data: str) -> None:
        for _, text in self.open:
            text.append(data)


def escapes(markdown: str) -> list[str]:
    """What got out of ``markdown`` on GitHub.

    Schema text may link anywhere: gendoc renders its Markdown links as ``<a href>``
    inside the HTML block, and GitHub shows those as they are. So a link to a
    payload's host counts only when GitHub shows more of them than gendoc wrote:
    the extra ones were made from Markdown that got out of its block.
    """
    parser = Escapes()
    parser.feed(github_html(markdown))
    parser.close()
    written = {url: markdown.count(f'href="{url}"') for url in parser.links}
    extra = [
        f"<a href={url}> {shown - written[url]} more than written"
        for url, shown in parser.links.items()
        if shown > written[url]
    ]
    return parser.found + extra


def test_the_payloads_get_out_when_written_as_they_are() -> None:
    """The check can fail: written raw inside an HTML block, as gendoc once wrote a decoded
    reference, each payload ends the block and shows."""
    decoded = PAYLOAD.replace("&#13;", "\r").replace("&#xD;", "\r").replace("&#x0D;", "\r")
    found = escapes(f"<div>\n{decoded}\n</div>\n\n| a |\n|---|\n| {HOSTILE_LABELS['Operator']} |")
    assert any(f.startswith("<h1>") and "injected" in f for f in found)
    assert any(f.startswith("<img") for f in found)
    assert any("breakout.example/link" in f for f in found)
    assert any("evil.example" in f for f in found)
    assert any("track.example" in f for f in found)  # the translation's image


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Hostile labels, and a translation of the breakout schema's first paragraph that
    tries the same breakout."""
    folder = tmp_path_factory.mktemp("templates")
    write_catalog(folder, HOSTILE_LABELS)
    assert FIRST_PARAGRAPH in paragraphs(f"{FIRST_PARAGRAPH}\n\n{PAYLOAD}")
    schema = Catalog(locale="zh_Hans_CN", domain="schema-com.example.breakout")
    schema.add(FIRST_PARAGRAPH, TRANSLATED_BREAKOUT)
    path = catalog_path(folder, "zh", "schema-com.example.breakout")
    with path.open("wb") as f:
        write_po(f, schema)
    return folder


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_nothing_gets_out_on_github(tmp_path: Path, templates: Path, lang: str) -> None:
    schemas = [arg for module in SCHEMAS for arg in ("--schemas", module)]
    out = tmp_path / "out"
    args = ["build", *schemas, "--lang", lang, "--templates", str(templates), "--out", str(out)]
    result = run_gendoc(*args)
    assert result.returncode == 0, result.stderr
    operators = (out / "Operators.md").read_text(encoding="utf-8")
    if lang == "zh":  # the hostile translations were used, not passed over
        assert "试图离开 HTML 块的模式。" in operators
        assert "可微&#60;img" in operators
    assert "Breakout" in operators and "Ends with raw carriage returns." in operators
    for name in ("Operators.md", "Changelog.md"):
        text = (out / name).read_text(encoding="utf-8")
        assert "\r" not in text and "&#13;" not in text and "&#xD;" not in text
        assert escapes(text) == [], name
