"""Hostile names: every kind of name and attribute default stays text, and pages never collide."""

from __future__ import annotations

from pathlib import Path

import cmarkgfm
import html5lib
import jinja2
import markdown
import pytest
from cmarkgfm.cmark import Options

from gendoc.model.reference import Differentiability, Option, Parameter, Reference, Schema
from gendoc.site.paths import MAX_SEGMENT, PagePaths
from tests.custom_schemas import hostile_payloads
from tests.helpers import run_gendoc

MODULE = "tests.custom_schemas.hostile_names"


# What runs or loads code: these elements, any ``on*`` handler, a URL of these schemes.
RUNNING = {"script", "iframe", "svg", "math", "object", "embed", "style", "base", "frame"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "data", "poster", "xlink:href"}
RUNNING_SCHEMES = ("javascript:", "vbscript:", "data:")
# The Markdown extensions mkdocs always loads and those this site's mkdocs.yml adds.
MKDOCS_EXTENSIONS = ["toc", "tables", "fenced_code", "attr_list", "admonition"]


def _live_elements(html: str) -> list[str]:
    """What a browser would run in ``html``, parsed by html5lib as a browser parses it (a
    comment ends at ``<!-->``, references in attributes are decoded)."""
    live = []
    for element in html5lib.parse(html, namespaceHTMLElements=False).iter():
        if not isinstance(element.tag, str):
            continue
        if element.tag in RUNNING:
            live.append(element.tag)
        for name, value in element.attrib.items():
            url = "".join(c for c in value if c > " ").lower()  # tabs, breaks, controls
            runs_url = name in URL_ATTRIBUTES and url.startswith(RUNNING_SCHEMES)
            if name.lower().startswith("on") or runs_url:
                live.append(f"<{element.tag} {name}={value}>")
    return live


def live_markup(markdown_text: str) -> list[str]:
    """The live elements of a document as mkdocs renders it (Python-Markdown with the site's
    extensions) and as GitHub's parser does (cmark-gfm, raw HTML kept, before any sanitizer)."""
    mkdocs_html = markdown.markdown(markdown_text, extensions=MKDOCS_EXTENSIONS)
    github_html = cmarkgfm.github_flavored_markdown_to_html(
        markdown_text, options=Options.CMARK_OPT_UNSAFE
    )
    return _live_elements(mkdocs_html) + _live_elements(github_html)


def operators_naming(document: str, word: str) -> str:
    """The operator sections of a document (from one ``###`` heading to the next) that hold
    ``word``: the oracle parses those alone, not onnx's thousand others."""
    sections = document.split("\n### ")
    return "\n### ".join(s for s in sections[1:] if word in s)


def test_the_payloads_are_live_markup_when_not_escaped() -> None:
    """The check below can fail: the payloads are live when written raw."""
    raw = "\n\n".join(hostile_payloads.PAYLOADS + hostile_payloads.OPERATOR_NAMES)
    assert len(hostile_payloads.PAYLOADS) + len(hostile_payloads.OPERATOR_NAMES) >= 20
    assert len(live_markup(raw)) >= 4


@pytest.mark.parametrize(("style", "lang"), [("gendoc", "en"), ("gendoc", "zh"), ("onnx", "en")])
def test_built_documents_have_no_live_markup(tmp_path: Path, style: str, lang: str) -> None:
    args = ["build", "--schemas", MODULE, "--schemas", "tests.custom_schemas.live_markup"]
    args += ["--out", str(tmp_path), "--style", style]
    result = run_gendoc(*args, "--lang", lang)
    assert result.returncode == 0, result.stderr
    for name in ("Operators.md", "Changelog.md"):
        text = (tmp_path / name).read_text(encoding="utf-8")
        assert "alert" in operators_naming(text, "alert")
        assert live_markup(operators_naming(text, "alert")) == [], name
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
    source = '{% import "shared/_operator.j2" as shared %}{{ shared.parameter(p, " notes") }}'

    def term(env: jinja2.Environment) -> str:
        return env.from_string(source).render(p=param).partition("</dt>")[0]

    documents = environment(RenderOptions())
    assert term(documents) == "<dt><code>x\"&lt;b&gt;&#10;</code> notes : <code>T'</code>"
    site_pages = pytest.importorskip("gendoc.site.pages", reason="the site needs mkdocs")
    site = site_pages.environment(None, "en", "")
    assert term(site) == "<dt><code>x&#34;&lt;b&gt;\n</code> notes : <code>T&#39;</code>"
