"""A generated page as its template wrote it, and how mkdocs takes it in.

Most generated pages are Markdown, converted by mkdocs like a hand-written
page. The operator and evidence pages, a few hundred per language, are
written as HTML instead: they are nearly all HTML anyway (schema bodies,
diffs, tables), and Python-Markdown's fixed cost per page (an instance per
page, a pass over its raw HTML, its tree processors) was a fifth of the
site's build time for a few headings and paragraphs. Such a page keeps its
front matter, which mkdocs reads as usual; its body goes into the page
as it is, with the table of contents its template recorded.

The headings of an HTML page are written through :class:`Headings`, which
gives them what the ``toc`` extension would: an id (the explicit one, or a
slug of the text made unique on the page), a permanent link, and a token
for the table of contents.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from markdown.extensions.toc import nest_toc_tokens, slugify, strip_tags, unique
from markupsafe import Markup, escape
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from gendoc.catalogs.i18n import N_

PERMALINK_TITLE = N_("Permanent link")
"""The tooltip of a heading's permanent link (the ``toc`` extension's default title)."""

TocToken = dict[str, Any]
# Every id on an HTML page, for mkdocs to check the anchors other pages link to. The page's
# HTML comes from gendoc's templates with every attribute value escaped, so an id's value
# never holds a quote. Searched for as text, then checked for the space before it: a pattern
# that starts with the space class is tried at every character, five times slower.
_ID = re.compile(r'id="([^"]*)"')
_EXPLICIT_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")
_AUTO_ID = re.compile("\x00(\\d+)\x00")


@dataclass(frozen=True)
class Rendered:
    """A generated file's text; for an HTML page, also its table of contents."""

    text: str
    toc: tuple[TocToken, ...] | None = None
    """Set when the text after the front matter is the page's final HTML."""
    parts: tuple[tuple[str, str], ...] = ()
    """Files written beside the page: name and HTML (see :mod:`gendoc.site.parts`)."""


class Headings:
    """The headings an HTML page's template writes, in order, as the ``toc`` extension would.

    A heading without an explicit id gets a slug of its text, unique among all
    the page's heading ids; the explicit ones are only known once the whole
    page is written, so such an id is a placeholder until :meth:`finish`.
    """

    def __init__(self, permalink_title: str = PERMALINK_TITLE) -> None:
        self._items: list[tuple[int, str | None, str]] = []
        self._permalink_title = permalink_title

    def heading(self, level: int, inner: Markup, id: str | None = None) -> Markup:
        """``<hN>`` with its id and permanent link; ``inner`` is the heading's HTML."""
        if id is not None and not _EXPLICIT_ID.fullmatch(id):
            raise ValueError(f"not a usable heading id: {id!r}")
        self._items.append((level, id, str(inner)))
        anchor = id if id is not None else f"\x00{len(self._items) - 1}\x00"
        # Escaped and joined by hand: Markup.format goes through string.Formatter, a tenth of
        # the time of an operator page with its dozen headings.
        tag, anchor, title = escape(level), escape(anchor), escape(self._permalink_title)
        return Markup(
            f'<h{tag} id="{anchor}">{escape(inner)}<a class="headerlink" href="#{anchor}" '
            f'title="{title}">&para;</a></h{tag}>'
        )

    def finish(self, text: str) -> Rendered:
        """The page with every heading id final, and its table of contents."""
        used = {id for _, id, _ in self._items if id is not None}
        ids: list[str] = []
        tokens = []
        for level, id, inner in self._items:
            name = strip_tags(inner)
            if id is None:
                id = unique(slugify(html.unescape(name), "-"), used)
            ids.append(str(escape(id)))
            tokens.append({"level": level, "id": id, "name": name})
        text = _AUTO_ID.sub(lambda m: ids[int(m.group(1))], text)
        return Rendered(text, tuple(nest_toc_tokens(tokens)))


class HtmlRender:
    """A page's ``render`` that takes its HTML as it is, instead of converting Markdown.

    The HTML is the page's body as mkdocs read it (after the front matter), unless it was
    set aside from the Markdown hooks (:meth:`set_aside`): those are for Markdown, and the
    i18n plugin's goes through every line of every page for admonition titles, 70 ms of a
    build over pages that have none.
    """

    def __init__(self, page: Page, rendered: Rendered) -> None:
        self.page, self.rendered = page, rendered
        self.body: str | None = None

    def set_aside(self, markdown: str) -> str:
        """Keep the page's body for :meth:`__call__`, without its last line break (as the
        Markdown hooks gave it back); what the hooks get instead."""
        self.body = markdown.removesuffix("\n")
        return ""

    def __call__(self, config: MkDocsConfig, files: Files) -> None:
        page = self.page
        page.content = self.body if self.body is not None else page.markdown
        page.toc = get_toc(list(self.rendered.toc or ()))
        page.present_anchor_ids = _ids(page.content or "")
        page.links_to_anchors = {}


def serve_html(page: Page, rendered: Rendered) -> None:
    """Make ``page.render`` take the page's HTML as it is, instead of converting Markdown."""
    page.render = HtmlRender(page, rendered)  # type: ignore[method-assign]


def _ids(html: str) -> set[str]:
    """The value of every ``id`` attribute of ``html``."""
    return {m[1] for m in _ID.finditer(html) if m.start() and html[m.start() - 1].isspace()}


BODY_START = "<div data-pagefind-body"
"""Where a page's own text starts in the theme's output (templates/site/overrides/main.html)."""


PREFORMATTED = ("<pre", "<textarea")
"""What keeps a frame's lines as they are: its blank lines may be text."""


def blank(line: str) -> bool:
    """Whether a line of the frame holds only spaces and tabs: :func:`compact_frame` drops it
    unless it is the frame's first or last."""
    return not line.strip(" \t")


def compact_frame(output: str) -> str:
    """A written page with the blank lines of the theme's frame before its text removed: a
    newline stays between any two tags, so nothing renders differently, and the frame loses
    3.4 KB of its 24 (Loop's page, the longest, was 2 KB over the 150 KB an operator page may
    weigh). The page's own text is left as written (it may hold ``<pre>``), and so is a page
    without the text's mark, or whose frame holds preformatted text. A frame filled in from
    a stencil is compacted with it (:mod:`.frame_stencil`), to the same text."""
    start = output.find(BODY_START)
    frame = output[:start]
    if start < 0 or any(mark in frame for mark in PREFORMATTED):
        return output
    lines = frame.split("\n")
    kept = [lines[0], *(line for line in lines[1:-1] if not blank(line)), *lines[1:][-1:]]
    return "\n".join(kept) + output[start:]
