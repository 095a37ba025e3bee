"""The frame shared by a folder's pages (gendoc.site.frame_stencil): each page exactly as its
full render, from one render per kind of page and two checks.

The whole site built both ways is compared in tests/site/test_site_build.py; here a frame of
the same shape as Material's (a title stripped of tags, escaped, as it is; a description;
a link made relative; a table of contents; the content) is rendered for pages whose values
hold markup, entities and runs of spaces.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import pytest

from gendoc.site.frame_stencil import CHECKED_PAGES, FRAME_VARIABLE, share_frame

FRAME = """\
<title>{{ page.title | striptags }} - Site</title>
<meta name="description" content="{{ page.meta.description | e }}">
{% if page.canonical_url %}<link rel="canonical" href="{{ page.canonical_url }}">{% endif %}
{% if page.toc | first is defined %}<a href="{{ (page.toc | first).url | url }}">skip</a>{% endif %}
<header>{{ page.meta.title }} {{ lang }}</header>
{% set hidden = "x" %}<nav {{ hidden }}>{% include "partials/toc.html" %}</nav>
<article>{% if "\\x3ch1" not in page.content %}<h1>{{ page.title }}</h1>{% endif %}
{{ page.content }}</article>
<a href="{{ 'assets/x.css' | url }}">css</a>
"""
TOC = '{% for item in page.toc %}<a href="{{ item.url | url }}">{{ item.title }}</a>{% endfor %}'


@dataclass
class Heading:
    url: str
    title: str
    level: int = 1
    children: list[Any] = field(default_factory=list)


@dataclass
class Page:
    """What the frame reads of an mkdocs page."""

    title: str
    url: str
    content: str
    meta: dict[str, Any]
    toc: list[Heading]
    canonical_url: str | None = None
    edit_url: str | None = None
    is_homepage: bool = False
    previous_page: Any = None
    next_page: Any = None


def page(name: str, folder: str = "operators/ai.onnx/", heading: bool = True) -> Page:
    title = f"{name} <b>&amp;</b>  'q\""
    return Page(
        title=title,
        url=f"{folder}{name}.html",
        content=(f'<h1 id="{name.lower()}">{name}</h1>' if heading else "") + f"<p>{name} & co</p>",
        meta={"title": title, "description": f'{name}: <x> & "y"', "kind": "operator"},
        toc=[Heading(f"#{name.lower()}", name), Heading(f"#{name.lower()}-2", f"{name} 2")],
        canonical_url=f"https://site.test/{folder}{name}.html",
    )


def environment(folder: Path, frame: str = FRAME) -> jinja2.Environment:
    (folder / "partials").mkdir(parents=True, exist_ok=True)
    (folder / "main.html").write_text(frame, encoding="utf-8")
    (folder / "partials" / "toc.html").write_text(TOC, encoding="utf-8")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)))
    from mkdocs.utils.templates import url_filter

    env.filters["url"] = url_filter
    return env


def outside(context: Any) -> tuple[Any, ...] | None:
    url = context["page"].url
    return (url[: url.rfind("/") + 1],)


def render_all(env: jinja2.Environment, pages: list[Page]) -> list[str]:
    return list(render_all_each(env, pages))


def render_all_each(env: jinja2.Environment, pages: list[Page]) -> Iterator[str]:
    """:func:`render_all`, one page at a time."""
    for p in pages:
        yield env.get_template("main.html").render(page=p, base_url="../..", lang="en")


def counted(env: jinja2.Environment) -> list[int]:
    """Count the full renders of ``env``'s frame from now on."""
    template = env.get_template("main.html")
    render, calls = template.root_render_func, [0]

    def root(context: Any) -> Any:
        calls[0] += 1
        return render(context)

    template.root_render_func = root
    return calls


PAGES = [page(n) for n in ("Add", "Resize", "Loop", "Cast", "Pad")]
OTHER_FOLDER = [page(n, "operators/ai.onnx.ml/") for n in ("Scaler", "Imputer", "Binarizer")]


def test_each_page_is_its_full_render_from_one_render_per_kind(tmp_path: Path) -> None:
    """Every page reads as Material renders it in full, its values through the same
    transforms; the frame is rendered once per kind of page for the stencil and in full for
    the pages that check it, then never again."""
    pages = [*PAGES, *OTHER_FOLDER, page("Abs", heading=False)]
    expected = render_all(environment(tmp_path / "a"), pages)
    env = environment(tmp_path / "b")
    calls = counted(env)
    share_frame(env, (tmp_path / "b",), outside)
    assert render_all(env, pages) == expected
    kinds = 3  # two folders, and a page without a heading of its own
    assert calls[0] == kinds * (1 + CHECKED_PAGES) - 1  # Abs is alone: one check, no use
    # the values went through each transform: tags stripped, as they are, escaped
    assert "<title>Add & 'q\" - Site</title>" in expected[0]
    assert "<header>Add <b>&amp;</b>  'q\" en</header>" in expected[0]
    assert 'content="Add: &lt;x&gt; &amp; &#34;y&#34;"' in expected[0]


def test_a_value_written_in_an_unknown_way_gets_the_full_render(tmp_path: Path) -> None:
    """A frame that writes the title through a filter the stencil does not know (``upper``)
    has no stencil: every page is rendered in full, and reads the same."""
    frame = FRAME.replace("<header>{{ page.meta.title }}", "<header>{{ page.meta.title | upper }}")
    expected = render_all(environment(tmp_path / "a", frame), PAGES)
    env = environment(tmp_path / "b", frame)
    calls = counted(env)
    share_frame(env, (tmp_path / "b",), outside)
    assert render_all(env, PAGES) == expected
    assert calls[0] == len(PAGES) + 1  # the stand-in's render, then each page's


def test_a_page_that_differs_from_its_stencil_stops_it(tmp_path: Path) -> None:
    """A frame showing something of the page the stencil does not leave a hole for (its URL):
    the first check fails, and the kind's pages are rendered in full from then on."""
    frame = FRAME + "<p>{{ page.url }}</p>"
    expected = render_all(environment(tmp_path / "a", frame), PAGES)
    env = environment(tmp_path / "b", frame)
    calls = counted(env)
    share_frame(env, (tmp_path / "b",), outside)
    assert render_all(env, PAGES) == expected
    assert calls[0] == len(PAGES) + 1


def test_templates_from_elsewhere_or_the_variable_keep_full_renders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A template folder other than the known ones (a theme of the user's), or
    ``GENDOC_SITE_FRAME=full``: the frame is left as it is."""
    env = environment(tmp_path / "b")
    before = env.get_template("main.html").root_render_func
    share_frame(env, (tmp_path / "elsewhere",), outside)
    assert env.get_template("main.html").root_render_func is before
    monkeypatch.setenv(FRAME_VARIABLE, "full")
    share_frame(env, (tmp_path / "b",), outside)
    assert env.get_template("main.html").root_render_func is before


COMPACTED_FRAME = (
    "<!doctype html>\n"
    "<title>{{ page.title | striptags }} - Site</title>\n"
    "   \n"
    "<header>\n"
    "  {{ page.meta.title }}\n"
    "    \n"
    "</header>\n"
    '  <nav>{% include "partials/toc.html" %}\n'
    "  </nav>\n"
    "\n"
    "  <div data-pagefind-body>\n"
    "\n"
    "{{ page.content }}</div>\n"
)
COMPACTED_TOC = (
    "\n  \n{% for item in page.toc %}\n"
    '    <a href="{{ item.url }}">{{ item.title }}</a>\n\n'
    "{% endfor %}  "
)


def test_a_filled_frame_is_compacted_as_each_page_would_be(tmp_path: Path) -> None:
    """A frame with blank lines, some inside a part (the table of contents) and around its
    hole, and a page text after the mark that stays as written: each filled page reads as
    ``compact_frame`` makes its full render, and is marked as compacted already; a page
    whose title holds preformatted text (which ``compact_frame`` leaves alone) too."""
    from gendoc.site.rendered import compact_frame

    pages = [*PAGES, page("Pre <pre>x</pre>")]
    expected_env = environment(tmp_path / "a", COMPACTED_FRAME)
    (tmp_path / "a" / "partials" / "toc.html").write_text(COMPACTED_TOC, encoding="utf-8")
    expected = [compact_frame(output) for output in render_all(expected_env, pages)]
    env = environment(tmp_path / "b", COMPACTED_FRAME)
    (tmp_path / "b" / "partials" / "toc.html").write_text(COMPACTED_TOC, encoding="utf-8")
    frames = share_frame(env, (tmp_path / "b",), outside)
    assert frames is not None
    marked, compacted = [], []
    for written in render_all_each(env, pages):  # as mkdocs hands each page on when written
        marked.append(frames.is_compact(written))
        compacted.append(written if marked[-1] else compact_frame(written))
    assert compacted == expected
    # the pages that check the stencil are full renders; the last has "<pre" in its title
    assert marked == [False] * CHECKED_PAGES + [True] * (len(PAGES) - CHECKED_PAGES) + [False]
    assert "\n\n" in expected[-1].split("<div data-pagefind-body")[1]  # the text as written
    assert "   \n" not in expected[0] and "\n\n" not in expected[0].split("<div")[0]
