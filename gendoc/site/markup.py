"""Small pieces of markup shared by the site's templates.

The generated pages mix Markdown (headings, tables, links, which mkdocs
checks) with raw HTML blocks (schema bodies, diffs), and a name taken from
a schema may land in either. Jinja's autoescape covers the HTML; names in
Markdown also go through :func:`gendoc.present.display.md_escape`, so that no
bracket, backtick or angle bracket in a registered schema can become a link,
code span or tag.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from markupsafe import Markup, escape

from gendoc.model.reference import Differentiability

if TYPE_CHECKING:
    from gendoc.present.display import Display
    from gendoc.site.versions_diff import DiffLine

DESCRIPTION_LIMIT = 155
"""The length of a page's description, about what search engines show of one."""

_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")


def page_title(name: object) -> Markup:
    """A front matter ``title``: the name HTML-escaped (unless it is Markup already), as a
    JSON (so YAML) string.

    Without it the theme takes the title from the first heading and strips
    its tags, which turns ``&lt;`` back into ``<`` inside ``<title>``.
    """
    # Characters outside the Basic Multilingual Plane are written as they are: JSON's
    # surrogate-pair escapes would reach the title as two broken characters.
    return Markup(json.dumps(str(escape(name)), ensure_ascii=False))


def heading_id(value: str) -> Markup:
    """An ``attr_list`` id for a Markdown heading (written here: ``{#`` opens a Jinja comment)."""
    if not _ID.fullmatch(value):
        raise ValueError(f"not a usable heading id: {value!r}")
    return Markup(f"{{#{value}}}")


_LINE_KINDS = {"+": "add", "-": "del", " ": "ctx", "…": "gap"}


@lru_cache(maxsize=65536)
def diff_line(line: DiffLine) -> Markup:
    """One line of a diff as a ``<span>``, the words that differ marked ``<ins>``/``<del>``.

    Kept for the process: an operator's diffs of every pair of versions repeat the same
    lines (about seven times each over onnx's operators).
    """
    css = f"gd-d{_LINE_KINDS[line.kind]}{' gd-dtag' if line.tag_change else ''}"
    if line.words:
        mark = "ins" if line.kind == "+" else "del"
        text = "".join(
            f'<{mark} class="gd-w">{escape(run)}</{mark}>' if changed else str(escape(run))
            for run, changed in line.words
        )
    else:
        text = str(escape(line.text))
    return Markup(f'<span class="{css}">{line.kind} {text}</span>')


def diff_lines(lines: Iterable[DiffLine]) -> Markup:
    """A diff's lines, one after the other (:func:`diff_line`): a filter, not a loop in the
    template, because a build writes some 70,000 of them and each line's markup is made
    here anyway."""
    return Markup("".join(map(diff_line, lines)))


def tag_badge(display: Display, differentiability: Differentiability) -> Markup:
    """A tag as a coloured badge, labelled in ``display``'s language; the class carries the
    language-neutral value."""
    value, label = escape(differentiability.value), escape(display.tag(differentiability))
    return Markup(f'<span class="gd-tag gd-tag-{value}">{label}</span>')


# The element a rendered schema text opens with (a paragraph, code, a list), past the note that
# opens an untranslated run of it on a translated page (gendoc.present.display).
_OPENING = re.compile(
    r'\s*(?:<div class="gd-untranslated"[^>]*>\s*<p class="gd-untranslated-note"[^>]*>.*?</p>\s*)?'
    r"<(?P<tag>[a-z0-9]+)[^>]*>(?P<text>.*?)</(?P=tag)>",
    re.DOTALL,
)


@lru_cache(maxsize=4096)
def description(display: Display, text: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """A page's description (its ``<meta>``): the element schema ``text`` opens with as the
    page shows it (most often a paragraph; Normalizer's is code), translated where the catalog
    can, in plain text, cut at ``limit`` characters.

    Taken from the text as ``display`` renders it for the page (kept per text): rendering
    the first paragraph again on its own cost each language a markdown-it pass per page,
    and the paragraph cut from the source before it was cleaned could miss its translation
    (a Chinese page said "not translated" of a text it showed translated). The note that
    opens an untranslated run is not the text. Kept for the process: an operator page and
    its evidence page describe themselves alike."""
    html = display.schema_text(text)
    opening = _OPENING.match(html)
    plain = " ".join(Markup(opening.group("text") if opening else html).striptags().split())
    return plain if len(plain) <= limit else plain[: limit - 1].rstrip() + "…"
