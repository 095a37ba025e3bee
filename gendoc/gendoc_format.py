"""Schema text: onnx's Markdown prose rendered as safe HTML.

Schema text (operator docs, descriptions) is Markdown written for onnx's
docs folder. It is rendered here with markdown-it-py into HTML that is safe
everywhere the documents are shown: raw HTML in schema text is escaped,
``javascript:`` links are refused, and relative links are pointed at the
onnx documentation on GitHub so that they work outside onnx's docs folder.
"""

from __future__ import annotations

import inspect
from functools import cache, lru_cache
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

if TYPE_CHECKING:
    from markdown_it import MarkdownIt


ONNX_DOCS = "https://github.com/onnx/onnx/blob/{ref}/docs/"


def docs_base(onnx_version: str) -> str:
    """Where relative links of a given onnx release's schema text point."""
    release = onnx_version.split("+")[0]
    is_release = release.replace(".", "").isdigit()
    return ONNX_DOCS.format(ref=f"v{release}" if is_release else "main")


def _absolute_links(md: MarkdownIt, base: str) -> MarkdownIt:
    """Rewrite relative link targets against ``base`` when the HTML is rendered."""

    def link_open(renderer, tokens, idx, options, env):
        href = tokens[idx].attrGet("href")
        if isinstance(href, str) and not urlsplit(href).scheme and not href.startswith("#"):
            tokens[idx].attrSet("href", urljoin(base, href.lstrip("/")))
        return renderer.renderToken(tokens, idx, options, env)

    md.add_render_rule("link_open", link_open)
    return md


@lru_cache(maxsize=4)
def _markdown(base: str) -> MarkdownIt:
    from markdown_it import MarkdownIt  # only the gendoc style renders schema text

    md = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    return _absolute_links(md, base)


@cache
def render_text(text: str, base: str) -> str:
    """Schema text as an HTML fragment with no blank line inside.

    A blank line would end the surrounding HTML block on GitHub and let the
    rest be parsed as Markdown again; an empty comment keeps the line empty
    to the eye, inside ``<pre>`` too.
    """
    source = inspect.cleandoc(text.replace("\r\n", "\n"))
    html = _markdown(base).render(source).strip("\n")
    return "\n".join(line if line.strip() else "<!-- -->" for line in html.split("\n"))
