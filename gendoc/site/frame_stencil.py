"""Material's frame rendered once per folder for the pages outside the navigation.

Nearly all of the site's pages (operators, evidence, operator sets, runtimes)
are not in mkdocs.yml's navigation, and within one folder their frame (head,
header, sidebars, footer, scripts: some 20 KB of Material's templates per page)
differs only in a few values and parts. For such a page, :func:`share_frame`
renders ``main.html`` once with a stand-in page (:class:`_StandIn`) whose values
are markers, and keeps the output as a stencil (:class:`Stencil`): text, and
holes where each marker came out. A later page of the same kind fills the holes
with its own values, put through what the template put the marker through
(escaped, tags stripped, made a relative URL: :data:`TRANSFORMS`), and with
the parts that show its structure rendered by their own templates
(:data:`PARTS`: the table of contents, the language links).

The plugin drops the blank lines of each page's frame (:func:`~.rendered.compact_frame`);
a stencil drops those of its own text once (:class:`Compacted`) and, per page, those of
the lines its holes fill, so that a filled page is written as that function would leave
it, and the plugin knows it (:meth:`Frames.is_compact`): the frame of some 800 pages per
build is no longer split into lines and joined again.

What a stencil may differ in is listed here, and nothing else may vary among the
pages that share one (:func:`_kind`: the folder, the navigation's marked
entries, the template, the front matter but for title and description, and what
the templates test about the page). A stencil is used only once it has made
two pages of its kind exactly as Material renders them in full, checked at
build time; a marker the stencil cannot place, a page whose value would not go
through a transform the same way, or any template from elsewhere than
Material's and gendoc's folders (a theme of the user's, which may show anything
of a page) means a full render, as does ``GENDOC_SITE_FRAME=full``.

Where this was measured, profiles put the frames of a full build's 1,700 pages at
about 0.7 s of processor time rendered in full and 0.25 s filled in, and three pairs of
full builds took 6.44 s of user time against 6.76 s.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from jinja2.runtime import Context
from markupsafe import Markup, escape
from mkdocs.utils import normalize_url

from gendoc.site.rendered import BODY_START, PREFORMATTED, blank, compact_frame

FRAME = "main.html"
PARTS = ("partials/toc.html", "partials/toc-mobile.html", "partials/alternate.html")
"""The partials that show a page's structure (its headings, its language links): rendered
for each page, with the context their place in the frame gives them."""
FRAME_VARIABLE = "GENDOC_SITE_FRAME"
"""Set to ``full``: every page's frame is rendered in full, no stencil is made."""
CHECKED_PAGES = 2
"""How many pages of a kind a stencil must make exactly as a full render before it is used."""

_MARK = "\x02{}<i>&amp;  x\x03"
"""A marker for the value ``{}``: markup, an entity and a run of spaces, so that each
transform writes it differently; control characters a page's text never holds."""
_CONTROL = "\x02"
_PART = "\x02part {}\x03"


def _url(value: str, context: Context) -> str:
    return normalize_url(value, page=context["page"], base=context["base_url"])


TRANSFORMS: dict[str, Callable[[str, Context], str]] = {
    "url": _url,
    "escaped": lambda value, _: str(escape(value)),
    "tags stripped": lambda value, _: Markup(value).striptags(),
    "as it is": lambda value, _: value,
}
"""What Material's and gendoc's templates do to a page's value before writing it (``| url``,
``| e``, ``| striptags``, nothing), the longest marker form first when two overlap."""


def _values(page: Any) -> dict[str, str]:
    """The page's values a stencil leaves holes for, by name."""
    meta = page.meta or {}
    values = {"title": page.title, "content": page.content}
    for name in ("title", "description"):
        if meta.get(name):
            values[f"meta.{name}"] = meta[name]
    if page.canonical_url is not None:
        values["canonical"] = page.canonical_url
    if page.toc:
        values["skip"] = next(iter(page.toc)).url  # Material's "skip to content" link
    return values


def _kind(page: Any, context: Context, outside_navigation: tuple[Any, ...]) -> tuple[Any, ...]:
    """What pages sharing a stencil have alike: where their frame's links point from and
    what it marks (``outside_navigation``, see :func:`.theme_frame.outside_navigation`),
    their template and front matter but for the values, and what the templates test of a
    page (whether it has a language menu among them: the i18n plugin sets it per page)."""
    meta = page.meta or {}
    front = tuple(
        sorted((k, repr(v)) for k, v in meta.items() if k not in ("title", "description"))
    )
    tests = (
        bool(page.title),
        tuple(bool(meta.get(name)) for name in ("title", "description")),
        page.canonical_url is None,
        bool(page.toc),
        "\x3ch1" in (page.content or ""),
        page.edit_url,
        page.is_homepage,
        page.previous_page is None and page.next_page is None,
        bool(getattr(getattr(context.get("config"), "extra", None), "alternate", None)),
    )
    return (outside_navigation, meta.get("template", FRAME), front, tests)


def _marks(page: Any) -> dict[str, str]:
    """The marker of each of the page's values: what its stand-in holds instead. The content's
    holds a level-1 heading where the page's does (Material writes one where it has none),
    the skip link's is a fragment, as a heading's link is."""
    marks = {name: _MARK.format(name) for name in _values(page)}
    if "\x3ch1" in page.content:
        marks["content"] += "\x3ch1"
    if "skip" in marks:
        marks["skip"] = f"#{marks['skip']}"
    return marks


class _StandIn:
    """A page with markers for its values; anything else is the page's own."""

    def __init__(self, page: Any) -> None:
        self._page = page
        marks = _marks(page)
        self.title = marks["title"]
        self.content = Markup(marks["content"])
        meta = {name[5:]: mark for name, mark in marks.items() if name.startswith("meta.")}
        self.meta = {**(page.meta or {}), **meta}
        self.canonical_url = marks.get("canonical")
        self.toc = [_StandInHeading(marks["skip"])] if "skip" in marks else page.toc

    def __getattr__(self, name: str) -> Any:
        return getattr(self._page, name)


@dataclass
class _StandInHeading:
    url: str
    level: int = 1
    children: tuple[()] = ()
    title: str = ""


Piece = str | tuple[str, str] | int
"""Of a stencil: text, a page's value (by name and transform) or a part (by number)."""
Render = Callable[[jinja2.Template, Context], str]


@dataclass
class Compacted:
    """A stencil's frame as :func:`~.rendered.compact_frame` leaves it: the runs of its lines
    that hold no hole, their blank lines dropped once, and each line with a hole, by number
    (its blank lines, once filled, are dropped per page); then the page after the frame."""

    lines: list[str | tuple[int, list[Piece]]]
    last: int
    """The number of the frame's last line, which stays even when blank."""
    rest: list[Piece]


@dataclass
class Stencil:
    """A frame with holes, and the same compacted (when the frame can be)."""

    pieces: list[Piece]
    parts: list[tuple[jinja2.Template, dict[str, Any]]]
    """Each part's template and the context its place gave it, without the page's own."""
    compacted: Compacted | None = None
    checked: int = 0

    def fill(self, context: Context, render: Render) -> str:
        """The page, the stencil's holes filled."""
        filler = _Filler(self.parts, context, render)
        return "".join(filler(piece) for piece in self.pieces)

    def fill_compacted(self, context: Context, render: Render) -> str | None:
        """The page as :func:`~.rendered.compact_frame` leaves it, or ``None`` where a value or
        part of this page would make that differ (preformatted text, or the mark of the
        page's text, in one of them)."""
        plan = self.compacted
        if plan is None:
            return None
        filler = _Filler(self.parts, context, render)
        out = []
        for entry in plan.lines:
            if isinstance(entry, str):
                out.append(entry)
                continue
            number, pieces = entry
            text = "".join(filler(piece) for piece in pieces)
            if BODY_START in text or any(mark in text for mark in PREFORMATTED):
                return None
            lines = text.split("\n")
            for n, line in enumerate(lines):
                end = (number == 0 and n == 0) or (number == plan.last and n == len(lines) - 1)
                if end or not blank(line):
                    out.append(line)
        return "\n".join(out) + "".join(filler(piece) for piece in plan.rest)


class _Filler:
    """A stencil's pieces as one page fills them."""

    def __init__(
        self, parts: list[tuple[jinja2.Template, dict[str, Any]]], context: Context, render: Render
    ) -> None:
        self.parts, self.context, self.render = parts, context, render
        self.values = _values(context["page"])

    def __call__(self, piece: Piece) -> str:
        if isinstance(piece, str):
            return piece
        if isinstance(piece, int):
            template, held = self.parts[piece]
            page_vars = self.context.parent
            return self.render(template, template.new_context({**held, **page_vars}, True))
        return TRANSFORMS[piece[1]](self.values[piece[0]], self.context)


def _compacted(pieces: list[Piece]) -> Compacted | None:
    """``pieces`` with the frame's lines laid out for :meth:`Stencil.fill_compacted`; ``None``
    where :func:`~.rendered.compact_frame` would leave the frame as it is (no mark of the
    page's text after it, or preformatted text in it)."""
    frame: list[Piece] = []
    rest: list[Piece] | None = None
    for n, piece in enumerate(pieces):
        if isinstance(piece, str) and BODY_START in piece:
            at = piece.index(BODY_START)
            frame.append(piece[:at])
            rest = [piece[at:], *pieces[n + 1 :]]
            break
        frame.append(piece)
    if rest is None or any(
        isinstance(piece, str) and any(mark in piece for mark in PREFORMATTED) for piece in frame
    ):
        return None
    lines: list[list[Piece]] = [[]]
    for piece in frame:
        if not isinstance(piece, str):
            lines[-1].append(piece)
            continue
        first, *others = piece.split("\n")
        lines[-1].append(first)
        lines += [[other] for other in others]
    last = len(lines) - 1
    laid: list[str | tuple[int, list[Piece]]] = []
    run: list[str] = []
    for number, line in enumerate(lines):
        if any(not isinstance(piece, str) for piece in line):
            if run:
                laid.append("\n".join(run))
                run = []
            laid.append((number, line))
            continue
        text = "".join(line)  # type: ignore[arg-type]
        if number in (0, last) or not blank(text):
            run.append(text)
    if run:
        laid.append("\n".join(run))
    return Compacted(laid, last, rest)


def stencil_of(output: str, page: Any, context: Context, parts: list[Any]) -> Stencil | None:
    """The stencil of a frame rendered for ``page``'s stand-in (``output``), or ``None`` where
    a marker came out in a form no transform gives."""
    forms: list[tuple[str, Piece]] = []
    for name, mark in _marks(page).items():
        forms += [(TRANSFORMS[t](mark, context), (name, t)) for t in TRANSFORMS]
    forms += [(_PART.format(n), n) for n in range(len(parts))]
    forms.sort(key=lambda form: -len(form[0]))
    by_text: dict[str, Piece] = {}
    for text, hole in forms:
        by_text.setdefault(text, hole)  # two transforms that write a marker alike: the first
    pattern = re.compile("|".join(re.escape(text) for text in by_text))
    pieces: list[Piece] = []
    at = 0
    for match in pattern.finditer(output):
        pieces += [output[at : match.start()], by_text[match.group(0)]]
        at = match.end()
    pieces.append(output[at:])
    if any(isinstance(p, str) and _CONTROL in p for p in pieces):
        return None
    return Stencil(pieces, parts, _compacted(pieces))


@dataclass
class Frames:
    """The stencils of one environment's frame, by kind of page; ``None`` for a kind that
    is rendered in full."""

    stencils: dict[tuple[Any, ...], Stencil | None] = field(default_factory=dict)
    parts: list[tuple[jinja2.Template, dict[str, Any]]] | None = None
    """While a stand-in is rendered: the parts its frame asked for."""
    compact: str | None = None
    """The last page this frame wrote compacted already (see :meth:`is_compact`)."""

    def is_compact(self, output: str) -> bool:
        """Whether ``output`` is a page this frame wrote as :func:`~.rendered.compact_frame`
        leaves it: the very text, which mkdocs hands on as it is."""
        return output is self.compact


def _known(folder: Path, theme_folders: tuple[Path, ...]) -> bool:
    """Whether ``folder`` is one of ``theme_folders``, or holds nothing a frame shows (no HTML
    or icon: the i18n plugin's, which holds its ``sitemap.xml``)."""
    if folder.resolve() in theme_folders:
        return True
    return not any(p.suffix in (".html", ".svg") for p in folder.rglob("*"))


def share_frame(
    env: jinja2.Environment,
    theme_folders: tuple[Path, ...],
    outside_navigation: Callable[[Context], tuple[Any, ...] | None],
) -> Frames | None:
    """Make ``env``'s ``main.html`` fill a stencil for a page outside the navigation (the
    kind ``outside_navigation`` gives, ``None`` for a page in it), when every template folder
    of ``env`` is one of ``theme_folders`` (Material's, gendoc's); the stencils' state, which
    says what page it wrote compacted already, or ``None`` where the frame is left as it is."""
    searched = getattr(env.loader, "searchpath", None)
    if os.environ.get(FRAME_VARIABLE) == "full" or not searched:
        return None
    if not all(_known(Path(folder), theme_folders) for folder in searched):
        return None
    try:
        frame = env.get_template(FRAME)
    except jinja2.TemplateError:
        return None
    parts = []
    for name in PARTS:
        with contextlib.suppress(jinja2.TemplateNotFound):  # a frame without it cannot show it
            parts.append(env.get_template(name))
    frames = Frames()
    part_renders = {}
    for template in parts:
        part_renders[template] = template.root_render_func
        template.root_render_func = _part(template, frames)

    def render_part(template: jinja2.Template, context: Context) -> str:
        return "".join(part_renders[template](context))

    render = frame.root_render_func

    def root(context: Context) -> Iterator[str]:
        page = context.get("page")
        where = outside_navigation(context)
        if where is None or page is None or frames.parts is not None:
            yield from render(context)
            return
        kind = _kind(page, context, where)
        stencil = frames.stencils.get(kind, ...)
        if stencil is None:
            yield from render(context)
            return
        if stencil is ...:
            stencil = frames.stencils[kind] = _make(frame, render, context, frames)
        if stencil is not None and stencil.checked >= CHECKED_PAGES:
            compact = stencil.fill_compacted(context, render_part)
            frames.compact = compact
            yield stencil.fill(context, render_part) if compact is None else compact
            return
        output = "".join(render(context))
        if stencil is not None:
            compact = stencil.fill_compacted(context, render_part)
            same = stencil.fill(context, render_part) == output
            if same and compact in (None, compact_frame(output)):
                stencil.checked += 1
            else:
                frames.stencils[kind] = None
        yield output

    frame.root_render_func = root
    return frames


def _make(
    frame: jinja2.Template,
    render: Callable[[Context], Iterator[str]],
    context: Context,
    frames: Frames,
) -> Stencil | None:
    """The stencil of ``context``'s kind of page: the frame rendered for its stand-in."""
    page = context["page"]
    frames.parts = []
    try:
        stand_in = frame.new_context({**context.parent, "page": _StandIn(page)}, True)
        output = "".join(render(stand_in))
        return stencil_of(output, page, context, frames.parts)
    finally:
        frames.parts = None


def _part(template: jinja2.Template, frames: Frames) -> Callable[[Context], Iterator[str]]:
    """``template``'s render, which leaves a hole while a stand-in's frame is rendered."""
    render = template.root_render_func

    def root(context: Context) -> Iterator[str]:
        if frames.parts is None:
            yield from render(context)
            return
        held = {k: v for k, v in context.parent.items() if k != "page"}
        frames.parts.append((template, held))
        yield _PART.format(len(frames.parts) - 1)

    return root
