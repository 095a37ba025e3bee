"""Hostile names: every kind of name and attribute default stays text, and pages never collide."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import jinja2
import pytest
from markdown_it import MarkdownIt

from gendoc.model.reference import Differentiability, Option, Parameter, Reference, Schema
from gendoc.site.paths import MAX_SEGMENT, PagePaths
from tests.custom_schemas import hostile_payloads
from tests.helpers import run_gendoc

MODULE = "tests.custom_schemas.hostile_names"


class LiveElements(HTMLParser):
    """What a browser would run: script-like elements, ``on*`` handlers, ``javascript:`` URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.live: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "iframe", "svg", "object", "embed"):
            self.live.append(tag)
        for name, value in attrs:
            url = (value or "").replace(" ", "").lower()
            if name.startswith("on"):
                self.live.append(f"<{tag} {name}>")
            elif name in ("href", "src", "action", "formaction") and url.startswith("javascript:"):
                self.live.append(f"<{tag} {name}={value}>")


def live_markup(markdown: str) -> list[str]:
    """The live elements of a document as a Markdown reader with raw HTML on would show it."""
    parser = LiveElements()
    parser.feed(MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown))
    return parser.live


def test_the_payloads_are_live_markup_when_not_escaped() -> None:
    """The check below can fail: the payloads are live when written raw."""
    raw = "\n\n".join(hostile_payloads.PAYLOADS + hostile_payloads.OPERATOR_NAMES)
    assert len(hostile_payloads.PAYLOADS) + len(hostile_payloads.OPERATOR_NAMES) >= 20
    assert len(live_markup(raw)) >= 4


@pytest.mark.parametrize(("style", "lang"), [("gendoc", "en"), ("gendoc", "zh"), ("onnx", "en")])
def test_built_documents_have_no_live_markup(tmp_path: Path, style: str, lang: str) -> None:
    args = ["build", "--schemas", MODULE, "--out", str(tmp_path), "--style", style]
    result = run_gendoc(*args, "--lang", lang)
    assert result.returncode == 0, result.stderr
    for name in ("Operators.md", "Changelog.md"):
        text = (tmp_path / name).read_text(encoding="utf-8")
        assert live_markup(text) == [], name
        if style == "gendoc":
            assert "Op&#10;&#35; heading" in text  # the newline name stayed on its line
    # onnx's layout writes names raw, as gen_doc.py does; what would be live is escaped, and said
    warned = "escaped schema text that would be live markup" in result.stderr
    assert warned is (style == "onnx")


def _schema(domain: str, name: str) -> Schema:
    param = Parameter("X", "T", "", Option.SINGLE, Differentiability.UNDEFINED)
    return Schema(domain, name, 1, inputs=(param,))


def test_page_paths_never_collide_and_stay_short() -> None:
    names = ["index", "Index", "Conv", "conv", "A" * 300, "a/../b", "Smile\U0001f642"]
    schemas = [_schema("", "Relu"), _schema("ai.onnx", "Relu")]
    schemas += [_schema("com.example", name) for name in names]
    reference = Reference("1.0", tuple(sorted(schemas, key=lambda s: (s.domain, s.name))))
    paths = PagePaths(reference)
    pages = [paths.operator_page(s.domain, s.name) for s in reference.schemas]
    indexes = [paths.domain_index(d) for d in reference.domains]
    every = [p.lower() for p in pages + indexes]
    assert len(set(every)) == len(every)  # distinct, even on a case-insensitive file system
    assert paths.domain_index("") == "operators/ai.onnx/index.md"
    assert paths.domain_index("ai.onnx") != paths.domain_index("")
    assert paths.operator_page("com.example", "index") != paths.domain_index("com.example")
    assert paths.operator_page("com.example", "Conv") == "operators/com.example/Conv.md"
    for page in pages:
        assert all(len(part) <= MAX_SEGMENT + 3 for part in page.split("/"))
        assert ".." not in page.split("/")
    anchors = {paths.anchor(s.domain, s.name) for s in reference.schemas}
    assert len(anchors) == len(reference.schemas)


def test_each_layout_escapes_a_parameter_as_it_always_has() -> None:
    """The documents and the site write an input's entry with one macro
    (``templates/shared/_operator.j2``), each escaping its name and type as before: the
    documents with ``text`` (a line break as a reference, quotes as they are), the site's
    autoescape (quotes as references)."""
    from gendoc.present.render import RenderOptions, environment

    param = Parameter('x"<b>\n', "T'", "", Option.SINGLE, Differentiability.UNDEFINED)
    source = (
        '{% import "shared/_operator.j2" as shared %}'
        "{% call shared.parameter(p) %} notes{% endcall %}"
    )

    def term(env: jinja2.Environment) -> str:
        return env.from_string(source).render(p=param).partition("</dt>")[0]

    documents = environment(RenderOptions())
    assert term(documents) == "<dt><code>x\"&lt;b&gt;&#10;</code> notes : <code>T'</code>"
    site_pages = pytest.importorskip("gendoc.site.pages", reason="the site needs mkdocs")
    site = site_pages.environment(None, "en", "")
    assert term(site) == "<dt><code>x&#34;&lt;b&gt;\n</code> notes : <code>T&#39;</code>"
